// Package eistest is a recorded EIS document service (getDocsIP) for tests:
// it answers in the shapes the published schema and public clients show,
// from archives a test gives it, and lets the test inject faults.
package eistest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// Service is a recorded EIS document service. A request for documents is
// keyed "region/subsystem/type/date" ("08/PRIZ/epNotificationEOK2020/2026-11-20",
// with "T09" after the date for an hour), or "number/subsystem" by registry
// number; archives are served under /archive/ID.
type Service struct {
	t        *testing.T
	Server   *httptest.Server
	token    string
	archives map[string][][]byte // by "region/subsystem/type/date" or "number/subsystem": the ZIPs
	names    map[string]string   // archive id → file name

	faults harvesttest.Faults

	mu     sync.Mutex
	served map[string]int // downloads completed, by archive id
	files  map[string]file
}

// Fault is what the service does instead of answering, once, to the first
// request whose path starts with Prefix: "/soap/" and the key of a request
// for documents, or "/archive/" and an archive's ID (ArchiveID).
type Fault = harvesttest.Fault

// New returns a service that takes token, closed when the test ends.
func New(t *testing.T, token string) *Service {
	s := &Service{t: t, token: token, archives: map[string][][]byte{}, names: map[string]string{}, served: map[string]int{}, files: map[string]file{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /soap", s.soap)
	mux.HandleFunc("GET /archive/{id}", s.archive)
	mux.HandleFunc("GET /file/{name}", s.file)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Server.Close)
	return s
}

// Add makes an archive of the fixture files and serves it for key.
func (s *Service) Add(key string, files ...string) {
	s.t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			s.t.Fatal(err)
		}
		w, _ := zw.Create(filepath.Base(f))
		w.Write(data)
	}
	zw.Close()
	s.archives[key] = append(s.archives[key], buf.Bytes())
}

// AddRaw serves for key an archive holding one member of the given content.
func (s *Service) AddRaw(key, member, content string) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create(member)
	io.WriteString(w, content)
	zw.Close()
	s.archives[key] = append(s.archives[key], buf.Bytes())
}

// AddGzipped makes an archive of the fixture files, as Add does, and
// serves it for key wrapped in gzip, as a public client of the EIS finds
// some archives (neonix20b/ox-tender-abstract checks for the gzip magic
// before it reads the ZIP).
func (s *Service) AddGzipped(key string, files ...string) {
	s.t.Helper()
	s.Add(key, files...)
	zips := s.archives[key]
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(zips[len(zips)-1])
	zw.Close()
	zips[len(zips)-1] = buf.Bytes()
}

// Blocked answers as the EIS does a download it blocked for now: 200,
// and in place of the archive the message a public client looks for
// (neonix20b/ox-tender-abstract, archive_processor.rb: "Скачивание архива
// по данной ссылке заблокировано"). The rest of the body and its type are
// not published; the client reads the body as UTF-8 text.
func Blocked(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "Скачивание архива по данной ссылке заблокировано")
}

// Inject adds faults, each done once.
func (s *Service) Inject(f ...Fault) { s.faults.Inject(f...) }

// Faults are the service's faults and the requests it was sent, for the
// fault suite and the kills of harvesttest.
func (s *Service) Faults() *harvesttest.Faults { return &s.faults }

// request is what the service reads of a request: local names only, as
// the schema's elements are unqualified.
type request struct {
	Header struct {
		Token string `xml:"individualPerson_token"`
	} `xml:"Header"`
	Body struct {
		Op struct {
			XMLName   xml.Name
			Selection struct {
				Region    string `xml:"orgRegion"`
				Subsystem string `xml:"subsystemType"`
				Type44    string `xml:"documentType44"`
				Type223   string `xml:"documentType223"`
				Number    string `xml:"reestrNumber"`
				Period    struct {
					Date string `xml:"exactDate"`
					Hour *struct {
						Date string `xml:"date"`
						From int    `xml:"fromHour"`
					} `xml:"oneHourInfo"`
				} `xml:"periodInfo"`
			} `xml:"selectionParams"`
		} `xml:",any"`
	} `xml:"Body"`
}

func (s *Service) soap(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req request
	if err := xml.Unmarshal(body, &req); err != nil {
		s.t.Errorf("the service got a request that is not XML: %v", err)
	}
	sel := req.Body.Op.Selection
	key := fmt.Sprintf("%s/%s/%s%s/%s", sel.Region, sel.Subsystem, sel.Type44, sel.Type223, sel.Period.Date)
	if sel.Period.Hour != nil {
		key = fmt.Sprintf("%s/%s/%s%s/%sT%02d", sel.Region, sel.Subsystem, sel.Type44, sel.Type223, sel.Period.Hour.Date, sel.Period.Hour.From)
	}
	if req.Body.Op.XMLName.Local == "getDocsByReestrNumberRequest" {
		key = sel.Number + "/" + sel.Subsystem
	}
	if f := s.faults.Take("/soap/" + key); f != nil {
		f(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	if req.Header.Token != s.token {
		io.WriteString(w, answerXML(`<errorInfo><code>5</code><message>Токены для сервисов отдачи отсутствуют в ЕИС: </message></errorInfo>`))
		return
	}
	if strings.Contains(string(body), "<ws:selectionParams>") || !strings.Contains(string(body), "<ws:getDocs") {
		io.WriteString(w, answerXML(`<errorInfo><code>28</code><message>Ошибка валидации полученного запроса по интеграционной схеме.</message></errorInfo>`))
		return
	}
	zips := s.archives[key]
	if len(zips) == 0 {
		io.WriteString(w, answerXML(`<noData>true</noData>`))
		return
	}
	var urls strings.Builder
	for i := range zips {
		fmt.Fprintf(&urls, `<archiveUrl><![CDATA[%s/archive/%s]]></archiveUrl>`, s.Server.URL, ArchiveID(key, i))
	}
	io.WriteString(w, answerXML(urls.String()))
}

// ArchiveID is the ID of the i-th archive of key, from 0.
func ArchiveID(key string, i int) string {
	return strings.NewReplacer("/", "_", ":", "_").Replace(key) + fmt.Sprintf("_%d", i)
}

func answerXML(dataInfo string) string {
	return `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<ns2:getDocsByOrgRegionResponse xmlns:ns2="http://zakupki.gov.ru/fz44/get-docs-ip/ws">` +
		`<index><id>1</id><refId>2</refId><createDateTime>2026-11-26T10:00:00</createDateTime><mode>PROD</mode></index>` +
		`<dataInfo>` + dataInfo + `</dataInfo></ns2:getDocsByOrgRegionResponse></soap:Body></soap:Envelope>`
}

func (s *Service) archive(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if f := s.faults.Take("/archive/" + id); f != nil {
		f(w, r)
		return
	}
	if r.Header.Get("individualPerson_token") != s.token {
		http.Error(w, "no token", http.StatusUnauthorized)
		return
	}
	for key, zips := range s.archives {
		for i, z := range zips {
			if ArchiveID(key, i) == id {
				w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="R_%s.zip"`, id))
				w.Write(z)
				s.mu.Lock()
				s.served[id]++
				s.mu.Unlock()
				return
			}
		}
	}
	http.NotFound(w, r)
}

// SOAPRequests counts the requests for documents made so far.
func (s *Service) SOAPRequests() int { return s.faults.Count("/soap/") }

// URL returns the address of the service's SOAP endpoint.
func (s *Service) URL() string { return s.Server.URL + "/soap" }

// file is a file of documentation the service's file store gives.
type file struct {
	data        []byte
	contentType string
}

// AddFile serves data as a file of documentation at FileURL(name).
func (s *Service) AddFile(name, contentType string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[name] = file{data, contentType}
}

// FileURL is the address of a file added with AddFile.
func (s *Service) FileURL(name string) string { return s.Server.URL + "/file/" + name }

func (s *Service) file(w http.ResponseWriter, r *http.Request) {
	if f := s.faults.Take("/file/" + r.PathValue("name")); f != nil {
		f(w, r)
		return
	}
	s.mu.Lock()
	f, ok := s.files[r.PathValue("name")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", f.contentType)
	w.Write(f.data)
}

// Downloads counts the requests for archive id made so far, answered or
// not.
func (s *Service) Downloads(id string) int { return s.faults.Count("/archive/" + id) }

// AddDamaged serves for key an archive that can never be read: a ZIP of
// the fixture files whose end is missing, served whole as it is, with its
// length, every time.
func (s *Service) AddDamaged(key string, files ...string) {
	s.t.Helper()
	s.Add(key, files...)
	zips := s.archives[key]
	z := zips[len(zips)-1]
	zips[len(zips)-1] = z[:len(z)/2]
}

// Asked counts the requests for documents of key made so far, answered or
// not.
func (s *Service) Asked(key string) int { return s.faults.Count("/soap/" + key) }
