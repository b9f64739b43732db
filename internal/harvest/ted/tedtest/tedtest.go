// Package tedtest is a recorded TED for tests: the notice search of its API
// v3 (POST /v3/notices/search, iteration mode) and the XML of each notice
// (GET /en/notice/<publication-number>/xml), in the shapes TED documents
// (docs.ted.europa.eu/reuse/search-api.html, "Downloading notices using
// the Search API") and public clients of the API record: an answer is
// {"notices": [...], "totalNoticeCount": n, "iterationNextToken": "...",
// "timedOut": false}, a notice {"publication-number": "740217-2023",
// "publication-date": "2023-12-06+01:00", "links": {"xml": {"MUL": ...},
// "html": {...}, "pdf": {...}}}. As public clients observed, the page after
// the last one still carries a token; it has no notice.
package tedtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// SearchPath is the path of the search on api.ted.europa.eu.
const SearchPath = "/v3/notices/search"

// Fault is what the service does instead of answering, once, to the first
// request whose name starts with Prefix: "search/20260422" for a search of
// that day's notices, "notice/740217-2023" for a notice's XML.
type Fault = harvesttest.Fault

// Service is a recorded TED.
type Service struct {
	Server *httptest.Server

	faults harvesttest.Faults

	mu     sync.Mutex
	days   map[string][]string // publication numbers by day, "20260422"
	xml    map[string][]byte   // by publication number
	served map[string]int      // notices served whole
	asked  []Request           // the searches, as sent
	tokens map[string]position // iteration tokens handed out
}

// Request is a search as the service received it.
type Request struct {
	Query              string   `json:"query"`
	Fields             []string `json:"fields"`
	Limit              int      `json:"limit"`
	Scope              string   `json:"scope"`
	PaginationMode     string   `json:"paginationMode"`
	IterationNextToken string   `json:"iterationNextToken"`
}

// position is where a token goes on from.
type position struct {
	day  string
	next int
}

// New returns an empty service, closed when the test ends.
func New(t *testing.T) *Service {
	s := &Service{days: map[string][]string{}, xml: map[string][]byte{}, served: map[string]int{}, tokens: map[string]position{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+SearchPath, s.search)
	mux.HandleFunc("GET /en/notice/{number}/xml", s.notice)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Server.Close)
	return s
}

// URL returns the address of the search.
func (s *Service) URL() string { return s.Server.URL + SearchPath }

// Add publishes a notice, its XML body, on day under number.
func (s *Service) Add(day time.Time, number string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := day.Format("20060102")
	s.days[key] = append(s.days[key], number)
	s.xml[number] = body
}

// Inject adds faults, each done once.
func (s *Service) Inject(f ...Fault) { s.faults.Inject(f...) }

// Faults are the service's faults and the requests it was sent, for the
// fault suite and the kills of harvesttest.
func (s *Service) Faults() *harvesttest.Faults { return &s.faults }

// Requests returns how many requests were made whose name starts with
// prefix: "" for every one, "search" for the searches, "notice/" for the
// notices.
func (s *Service) Requests(prefix string) int { return s.faults.Count(prefix) }

// Searches returns the searches received whole, in order.
func (s *Service) Searches() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.asked)
}

// Served returns how many times the notice numbered number was served.
func (s *Service) Served(number string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served[number]
}

func (s *Service) search(w http.ResponseWriter, r *http.Request) {
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		badRequest(w, "the body is not JSON")
		return
	}
	day, ok := oneDay(req.Query)
	if !ok {
		badRequest(w, "this recording answers publication-date>=YYYYMMDD AND publication-date<=YYYYMMDD, one day, only")
		return
	}
	if req.Limit < 1 || req.Limit > 250 || req.PaginationMode != "ITERATION" || len(req.Fields) == 0 {
		badRequest(w, "limit from 1 to 250, ITERATION and fields are wanted")
		return
	}
	if f := s.faults.Take("search/" + day); f != nil {
		f(w, r)
		return
	}
	answer, err := s.page(req, day)
	if err != nil {
		badRequest(w, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(answer)
}

// page returns the answer of a search of day's notices.
func (s *Service) page(req Request, day string) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, req)
	from := 0
	if req.IterationNextToken != "" {
		p, ok := s.tokens[req.IterationNextToken]
		if !ok || p.day != day {
			return nil, errors.New("unknown iterationNextToken")
		}
		from = p.next
	}
	numbers := s.days[day]
	from = min(from, len(numbers))
	to := min(from+req.Limit, len(numbers))
	notices := []map[string]any{}
	for _, n := range numbers[from:to] {
		notices = append(notices, s.entry(day, n))
	}
	token := fmt.Sprintf("tok-%s-%d", day, len(s.tokens)+1)
	s.tokens[token] = position{day: day, next: to}
	return map[string]any{"notices": notices, "totalNoticeCount": len(numbers), "iterationNextToken": token, "timedOut": false}, nil
}

// oneDay returns the day, "20260422", a query of one day's notices asks for.
func oneDay(query string) (string, bool) {
	from, to, ok := strings.Cut(query, " AND ")
	from, ok1 := strings.CutPrefix(from, "publication-date>=")
	to, ok2 := strings.CutPrefix(to, "publication-date<=")
	_, err := time.Parse("20060102", from)
	return from, ok && ok1 && ok2 && from == to && err == nil
}

// entry is a notice of an answer, with the fields public clients record.
func (s *Service) entry(day, number string) map[string]any {
	d, _ := time.Parse("20060102", day)
	return map[string]any{
		"publication-number": number,
		"publication-date":   d.Format(time.DateOnly) + "+01:00",
		"links": map[string]any{
			"xml":  map[string]string{"MUL": s.Server.URL + "/en/notice/" + number + "/xml"},
			"html": map[string]string{"ENG": s.Server.URL + "/en/notice/-/detail/" + number},
			"pdf":  map[string]string{"ENG": s.Server.URL + "/en/notice/" + number + "/pdf"},
		},
	}
}

func (s *Service) notice(w http.ResponseWriter, r *http.Request) {
	number := r.PathValue("number")
	if f := s.faults.Take("notice/" + number); f != nil {
		f(w, r)
		return
	}
	s.mu.Lock()
	body, ok := s.xml[number]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
	s.mu.Lock()
	s.served[number]++
	s.mu.Unlock()
}

// badRequest answers a request the recording does not take.
func badRequest(w http.ResponseWriter, why string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]string{"message": why})
}
