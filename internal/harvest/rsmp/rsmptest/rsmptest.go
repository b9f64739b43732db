// Package rsmptest is a recorded SME register data set of the tax
// service's open data for tests: the passport of 7707329152-rsmp, as its
// page and as meta.csv, listing the releases a test adds, each a zip
// archive served as file.nalog.ru serves it, and faults the test injects.
//
// The shapes are those public clients read and record:
// PavelSyomin/ru-smb-companies (ru_smb_companies/stages/download.py @55f3e948:
// the page's table.border_table of rows of three cells, row 8 "Гиперссылка
// (URL) на набор" and row 16 "Гиперссылки (URL) на предыдущие релизы
// набора данных"), and clients that read meta.csv (rows "property,value",
// "standardversion,http://opendata.gosmonitor.ru/standard/3.0",
// "identifier,7707329152-rsmp", a row per release
// "data-10072026-structure-12052026.zip,https://file.nalog.ru/opendata/
// 7707329152-rsmp/data-10072026-structure-12052026.zip" and a row per
// structure "structure-12052026.xsd,..."); docs/sync.md names them.
package rsmptest

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// DataSet is the path of the data set, on www.nalog.gov.ru for the
// passport and on file.nalog.ru for the releases; the service serves both.
const DataSet = "/opendata/7707329152-rsmp/"

// Service is a recorded data set. Its passport page is at DataSet, its
// meta.csv at DataSet+"meta.csv", a release at DataSet+its file name.
type Service struct {
	Server *httptest.Server
	// NoMeta makes meta.csv answer 404, as a data set without one does.
	NoMeta bool

	// faults sees the paths under DataSet: "" for the page, "meta.csv",
	// a release's file name.
	faults harvesttest.Faults

	mu       sync.Mutex
	releases []release
	served   map[string]int
}

type release struct {
	file, structure string
	body            []byte
}

// Fault is what the service does instead of answering, once.
type Fault = harvesttest.Fault

// New returns a service with no release, closed when the test ends.
func New(t *testing.T) *Service {
	s := &Service{served: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+DataSet+"{file...}", s.serve)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Server.Close)
	return s
}

// URL returns the address of the passport page.
func (s *Service) URL() string { return s.Server.URL + DataSet }

// File returns the name of the release of day, with the structure of
// structure: data-10072026-structure-12052026.zip.
func File(day, structure time.Time) string {
	return fmt.Sprintf("data-%s-structure-%s.zip", day.Format("02012006"), structure.Format("02012006"))
}

// Add publishes a release, body being its zip archive, and returns its
// file name.
func (s *Service) Add(day, structure time.Time, body []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	file := File(day, structure)
	s.releases = append(s.releases, release{file: file, structure: "structure-" + structure.Format("02012006") + ".xsd", body: body})
	return file
}

// Inject adds faults, each done once.
func (s *Service) Inject(f ...Fault) { s.faults.Inject(f...) }

// Faults are the service's faults and the requests it was sent, for the
// fault suite and the kills of harvesttest.
func (s *Service) Faults() *harvesttest.Faults { return &s.faults }

// Requests returns how many requests were made whose path under DataSet
// starts with prefix: "" for every one.
func (s *Service) Requests(prefix string) int { return s.faults.Count(prefix) }

// Served returns how many times the release named file was served whole.
func (s *Service) Served(file string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served[file]
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	if f := s.faults.Take(file); f != nil {
		f(w, r)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case file == "":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, s.page())
	case file == "meta.csv" && !s.NoMeta:
		w.Header().Set("Content-Type", "text/csv")
		io.WriteString(w, s.meta())
	default:
		i := slices.IndexFunc(s.releases, func(rel release) bool { return rel.file == file })
		if i < 0 {
			notFound(w)
			return
		}
		w.Header().Set("Content-Type", "application/zip")
		w.Write(s.releases[i].body)
		s.served[file]++
	}
}

// fileURL is where file.nalog.ru serves a file of the data set.
func (s *Service) fileURL(file string) string { return s.Server.URL + DataSet + file }

// meta returns meta.csv: the releases newest first, then the structures.
func (s *Service) meta() string {
	var b strings.Builder
	b.WriteString("property,value\r\nstandardversion,http://opendata.gosmonitor.ru/standard/3.0\r\nidentifier,7707329152-rsmp\r\n")
	for _, rel := range slices.Backward(s.releases) {
		fmt.Fprintf(&b, "%s,%s\r\n", rel.file, s.fileURL(rel.file))
	}
	for _, st := range s.structures() {
		fmt.Fprintf(&b, "%s,%s\r\n", st, s.fileURL(st))
	}
	return b.String()
}

func (s *Service) structures() []string {
	var st []string
	for _, rel := range slices.Backward(s.releases) {
		if !slices.Contains(st, rel.structure) {
			st = append(st, rel.structure)
		}
	}
	return st
}

// page returns the passport page: its table, the newest release in row 8
// and the others in row 16.
func (s *Service) page() string {
	links := func(files []string) string {
		var b strings.Builder
		for _, f := range files {
			fmt.Fprintf(&b, `<a href="%s">%s</a><br>`, html.EscapeString(s.fileURL(f)), html.EscapeString(s.fileURL(f)))
		}
		return b.String()
	}
	var current, previous []string
	for i, rel := range slices.Backward(s.releases) {
		if i == len(s.releases)-1 {
			current = append(current, rel.file)
		} else {
			previous = append(previous, rel.file)
		}
	}
	st := s.structures()
	var cur []string
	if len(st) > 0 {
		cur, st = st[:1], st[1:]
	}
	rows := []struct {
		n          int
		name, cell string
	}{
		{8, "Гиперссылка (URL) на набор", links(current)},
		{10, "Описание структуры набора данных", links(cur)},
		{16, "Гиперссылки (URL) на предыдущие релизы набора данных", links(previous)},
		{17, "Гиперссылки (URL) на предыдущие версии структуры набора данных", links(st)},
	}
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Единый реестр субъектов малого и среднего предпринимательства</title></head><body><table class="border_table">`)
	for _, r := range rows {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td><td>%s</td></tr>", r.n, r.name, r.cell)
	}
	b.WriteString("</table></body></html>")
	return b.String()
}

func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusNotFound)
	io.WriteString(w, "<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>")
}
