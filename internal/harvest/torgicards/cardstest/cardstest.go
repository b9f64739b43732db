// Package cardstest is a recorded torgi.gov.ru lot-card search for tests:
// GET /new/api/public/lotcards/search answering Spring Data pages of the
// cards a test publishes, in the shapes and with the limits the probes of
// the public API report (docs: /work/notes/sync-provenance.md, 2.2): cards
// sorted by noticeFirstVersionPublicationDate, newest first; size clamped
// to 10; pages 0 to Pages-1 only, the next answering 200 with an empty body;
// totalElements capped at Pages*10; dynSubjRF filtering by region, and a
// region that is not a number ignored. Faults the test injects come first.
package cardstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// API is the path of the public API on torgi.gov.ru, which the service
// serves under too.
const API = "/new/api/public"

// Sort is the only order the service gives; torgi.gov.ru's form sends it.
const Sort = "firstVersionPublicationDate,desc"

// pageSize is the most cards torgi.gov.ru gives a page, whatever is asked.
const pageSize = 10

// Service is a recorded lot-card search.
type Service struct {
	Server *httptest.Server
	// Pages is how many pages the search gives, from 0; torgi.gov.ru
	// gives 1000. Set it before the first request.
	Pages int
	// IgnoreRegion makes the service answer every region's cards whatever
	// dynSubjRF says, as torgi.gov.ru does for a value it does not know.
	IgnoreRegion bool

	// faults sees Key(region, page) of each request.
	faults harvesttest.Faults

	mu    sync.Mutex
	cards []card // newest first; of the same moment, as added
}

// card is a published card and what the search sorts and filters it by.
type card struct {
	published time.Time
	region    int
	body      map[string]any
}

// Fault is what the service does instead of answering, once, to the first
// request whose Key starts with Prefix.
type Fault = harvesttest.Fault

// New returns a service with no card, closed when the test ends.
func New(t *testing.T) *Service {
	s := &Service{Pages: 1000}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+API+"/lotcards/search", s.search)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Server.Close)
	return s
}

// URL returns the address of the public API.
func (s *Service) URL() string { return s.Server.URL + API }

// Key names a request for the faults and the counts: "all/3/" for page 3
// of every region, "77/0/" for page 0 of region 77.
func Key(region, page int) string {
	if region == 0 {
		return fmt.Sprintf("all/%d/", page)
	}
	return fmt.Sprintf("%d/%d/", region, page)
}

// Add publishes a lot card: template is a card as /lotcards/{id} gives it,
// whose id, noticeNumber, lotNumber, noticeFirstVersionPublicationDate and
// subjectRFCode the service sets. It returns the card's id.
func (s *Service) Add(template []byte, notice string, lot int, published time.Time, region int) string {
	var body map[string]any
	if err := json.Unmarshal(template, &body); err != nil {
		panic("cardstest: the template is not a JSON object: " + err.Error())
	}
	id := notice + "_" + strconv.Itoa(lot)
	body["id"], body["noticeNumber"], body["lotNumber"] = id, notice, lot
	body["noticeFirstVersionPublicationDate"] = published.UTC().Format("2006-01-02T15:04:05.000Z")
	body["subjectRFCode"] = fmt.Sprintf("%02d", region)
	s.mu.Lock()
	defer s.mu.Unlock()
	c := card{published: published, region: region, body: body}
	at, _ := slices.BinarySearchFunc(s.cards, c, func(a, b card) int {
		if b.published.Before(a.published) || b.published.Equal(a.published) {
			return -1
		}
		return 1
	})
	s.cards = slices.Insert(s.cards, at, c)
	return id
}

// Inject adds faults, each done once.
func (s *Service) Inject(f ...Fault) { s.faults.Inject(f...) }

// Faults are the service's faults and the requests it was sent, for the
// fault suite and the kills of harvesttest.
func (s *Service) Faults() *harvesttest.Faults { return &s.faults }

// Requests returns how many requests were made whose Key starts with
// prefix: "" for every one, "all/" for those of every region.
func (s *Service) Requests(prefix string) int { return s.faults.Count(prefix) }

func (s *Service) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	page, err := strconv.Atoi(q.Get("page"))
	if q.Get("page") == "" {
		page, err = 0, nil
	}
	region, _ := strconv.Atoi(q.Get("dynSubjRF"))
	if s.IgnoreRegion {
		region = 0
	}
	if f := s.faults.Take(Key(region, page)); f != nil {
		f(w, r)
		return
	}
	switch {
	case err != nil || page < 0 || q.Get("sort") != Sort:
		// The service's own 400 has a body of its own; no test reads it.
		http.Error(w, `{"message": "bad request"}`, http.StatusBadRequest)
		return
	case page >= s.Pages:
		w.Header().Set("Content-Type", "application/json")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s.page(region, page))
}

// page returns page number of the cards of region (0 for all), as Spring
// Data pages them.
func (s *Service) page(region, number int) map[string]any {
	s.mu.Lock()
	var content []map[string]any
	for _, c := range s.cards {
		if region == 0 || c.region == region {
			content = append(content, c.body)
		}
	}
	s.mu.Unlock()
	total := min(len(content), s.Pages*pageSize)
	pages := (total + pageSize - 1) / pageSize
	from, to := min(number*pageSize, total), min((number+1)*pageSize, total)
	content = content[from:to]
	if content == nil {
		content = []map[string]any{}
	}
	sort := map[string]any{"unsorted": false, "sorted": true, "empty": false}
	return map[string]any{
		"pageable": map[string]any{"sort": sort, "pageNumber": number, "pageSize": pageSize,
			"offset": number * pageSize, "paged": true, "unpaged": false},
		"totalPages": pages, "totalElements": total,
		"last": number >= pages-1, "first": number == 0,
		"numberOfElements": len(content), "size": pageSize, "number": number,
		"sort": sort, "empty": len(content) == 0, "content": content,
	}
}
