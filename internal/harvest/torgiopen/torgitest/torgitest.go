// Package torgitest is a recorded torgi.gov.ru open-data service for tests:
// the notice data set (7710568760-notice) with its daily lists and their
// documents, in the shapes the published samples show, from documents a
// test gives it, and faults the test injects.
package torgitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// DataSet is the path of the notice data set on torgi.gov.ru, which the
// service serves under too.
const DataSet = "/new/opendata/7710568760-notice"

// Structure is the version of the list structure the service's lists name.
const Structure = "20240401"

// Service is a recorded notice data set. A day's list is served at
// DataSet/ListFile(day) and answers 404, as an nginx page, for a day with
// no document; a document at DataSet/docs/<type>_<regNum>_<uuid>.json.
type Service struct {
	Server *httptest.Server

	// faults sees the paths under DataSet, without it: "data-...json", "docs/...".
	faults harvesttest.Faults

	mu     sync.Mutex
	lists  map[string][]entry // by day, "20260422"
	docs   map[string][]byte  // by file name
	served map[string]int     // documents served whole, by file name
}

// entry is a list object, as structure-20240401.json names its members.
type entry struct {
	BidderOrgCode   string `json:"bidderOrgCode"`
	RightHolderCode string `json:"rightHolderCode"`
	DocumentType    string `json:"documentType"`
	RegNum          string `json:"regNum"`
	PublishDate     string `json:"publishDate"`
	BiddTypeCode    string `json:"biddTypeCode"`
	SubjectEstate   string `json:"subjectEstateCode"`
	Href            string `json:"href"`
}

// Fault is what the service does instead of answering, once, to the first
// request whose path under DataSet starts with Prefix: a list's file name
// (ListFile) or "docs/" and a document's.
type Fault = harvesttest.Fault

// New returns an empty service, closed when the test ends.
func New(t *testing.T) *Service {
	s := &Service{lists: map[string][]entry{}, docs: map[string][]byte{}, served: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+DataSet+"/{file}", s.list)
	mux.HandleFunc("GET "+DataSet+"/docs/{file}", s.document)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Server.Close)
	return s
}

// URL returns the address of the data set.
func (s *Service) URL() string { return s.Server.URL + DataSet }

// ListFile returns the file name of the list of day, a day in UTC.
func ListFile(day time.Time) string {
	return fmt.Sprintf("data-%sT0000-%sT0000-structure-%s.json", day.Format("20060102"), day.AddDate(0, 0, 1).Format("20060102"), Structure)
}

// Add publishes a document on day: it is listed in the day's list, after
// those added before, and served as body. It returns the document's file
// name, <docType>_<regNum>_<uuid>.json.
func (s *Service) Add(day time.Time, docType, regNum string, body []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.docs) + 1
	name := fmt.Sprintf("%s_%s_00000000-0000-4000-8000-%012d.json", docType, regNum, n)
	s.docs[name] = body
	key := day.Format("20060102")
	s.lists[key] = append(s.lists[key], entry{
		BidderOrgCode: "2100003513", RightHolderCode: "2100003513", DocumentType: docType, RegNum: regNum,
		PublishDate:  day.Add(time.Duration(len(s.lists[key])+1) * time.Minute).Format("2006-01-02T15:04:05.000Z"),
		BiddTypeCode: "ZK", SubjectEstate: "36",
		Href: s.URL() + "/docs/" + name,
	})
	return name
}

// Inject adds faults, each done once.
func (s *Service) Inject(f ...Fault) { s.faults.Inject(f...) }

// Faults are the service's faults and the requests it was sent, for the
// fault suite and the kills of harvesttest.
func (s *Service) Faults() *harvesttest.Faults { return &s.faults }

func (s *Service) list(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	if f := s.faults.Take(file); f != nil {
		f(w, r)
		return
	}
	s.mu.Lock()
	entries, ok := s.lists[dayOf(file)]
	s.mu.Unlock()
	if !ok {
		notFound(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"listObjects": entries})
}

func (s *Service) document(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	if f := s.faults.Take("docs/" + file); f != nil {
		f(w, r)
		return
	}
	s.mu.Lock()
	body, ok := s.docs[file]
	s.mu.Unlock()
	if !ok {
		notFound(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
	s.mu.Lock()
	s.served[file]++
	s.mu.Unlock()
}

// dayOf returns the day, "20260422", whose list is named file, or "".
func dayOf(file string) string {
	key, _, _ := strings.Cut(strings.TrimPrefix(file, "data-"), "T")
	if day, err := time.Parse("20060102", key); err == nil && file == ListFile(day) {
		return key
	}
	return ""
}

// notFound answers as torgi.gov.ru's nginx does for a file it has not.
func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusNotFound)
	io.WriteString(w, "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
}

// Requests returns how many requests were made whose path under DataSet
// starts with prefix: "" for every one, "docs/" for the documents.
func (s *Service) Requests(prefix string) int { return s.faults.Count(prefix) }

// Served returns how many times the document named file was served whole.
func (s *Service) Served(file string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served[file]
}
