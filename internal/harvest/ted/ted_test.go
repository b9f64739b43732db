package ted

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/ted/tedtest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eforms"
	tedxml "github.com/tenderbase/tenderbase/internal/source/ted"
)

// theDay is a Monday the recorded service publishes notices on.
var theDay = time.Date(2024, 4, 22, 0, 0, 0, 0, time.UTC)

// noon is the clock of most tests: the next day's noon, when the day has
// settled.
var noon = theDay.Add(36 * time.Hour)

// scope is the whole day.
var scope = harvest.Scope{Since: theDay, Until: theDay.AddDate(0, 0, 1)}

// quick retries at once: the faults are what is tested, not the waits.
var quick = harvesttest.Quick(1, 4)

// published is a notice of the recorded service: the fixture it serves
// (eForms or TED XML, the readers' own) and the world tender it holds.
type published struct{ number, fixture, key string }

// The notices of theDay: two in eForms, two in TED XML R2.0.9.
var (
	eformsCN  = published{"740217-2023", "../../source/eforms/testdata/cn-21-00740217-2023.xml", "eforms:00740217-2023"}
	eformsCAN = published{"191536-2024", "../../source/eforms/testdata/can-29-00191536-2024.xml", "eforms:00191536-2024"}
	tedCN     = published{"905678-2022", "../../source/ted/testdata/f02-original.xml", "ted:905678-2022"}
	tedCAN    = published{"901234-2018", "../../source/ted/testdata/f06-award.xml", "ted:901234-2018"}
)

var dayOfNotices = []published{eformsCN, tedCN, eformsCAN, tedCAN}

// publish adds the notices to the service on day.
func publish(t *testing.T, s *tedtest.Service, day time.Time, notices ...published) {
	t.Helper()
	for _, n := range notices {
		b, err := os.ReadFile(n.fixture)
		if err != nil {
			t.Fatal(err)
		}
		s.Add(day, n.number, b)
	}
}

func keys(notices ...published) []string {
	var k []string
	for _, n := range notices {
		k = append(k, n.key)
	}
	slices.Sort(k)
	return k
}

// decoders read what TED publishes, as the import does.
var decoders = []importer.Decoder{tedxml.Format{}, eforms.Format{}}

func eachStore(t *testing.T, test func(t *testing.T, r *harvesttest.Rig)) {
	harvesttest.EachStoreAt(t, decoders, noon, test)
}

// source reads the service three notices a page, so that a day of four
// takes two pages and the page after.
func source(s *tedtest.Service) *Source {
	return New(Config{Search: s.URL(), PageSize: 3, Fetch: quick}, nil)
}

// checkOnce fails unless the store holds the notices' tenders, each once,
// and each notice was downloaded whole once.
func checkOnce(t *testing.T, r *harvesttest.Rig, s *tedtest.Service, notices ...published) {
	t.Helper()
	checkTenders(t, r, keys(notices...))
	for _, n := range notices {
		if got := s.Served(n.number); got != 1 {
			t.Errorf("notice %s served whole %d times, want once", n.number, got)
		}
	}
}

func checkTenders(t *testing.T, r *harvesttest.Rig, want []string) {
	t.Helper()
	r.CheckRecords(t, map[tenderbase.Kind][]string{tenderbase.KindWorldTender: want})
}

func TestSyncDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		publish(t, s, theDay, dayOfNotices...)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkTenders(t, r, keys(dayOfNotices...))
		st := r.State(t)
		if st.Partitions != 5 || st.Files != 4 || st.Inserted != 4 || st.Rejected != 0 || st.LastError != "" {
			t.Errorf("state %+v, want the day and its 4 notices, 4 tenders, a success", st)
		}
		if !st.Through.Equal(theDay.AddDate(0, 0, 1)) {
			t.Errorf("through %s, want the end of the day", st.Through)
		}
		// Two pages of three and one: the token of the first is sent
		// with the second.
		asked := s.Searches()
		want := tedtest.Request{Query: "publication-date>=20240422 AND publication-date<=20240422", Fields: fields, Limit: 3, Scope: "ALL", PaginationMode: "ITERATION"}
		if len(asked) != 2 || !cmp.Equal(asked[0], want) || asked[1].IterationNextToken == "" {
			t.Errorf("searches %+v, want two pages of %+v, the second with the first's token", asked, want)
		}
		before := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - before; n != 0 {
			t.Errorf("a second run sent %d requests, want 0: the day is completed", n)
		}
	})
}

func TestSyncEmptyDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		sunday := theDay.AddDate(0, 0, -1)
		publish(t, s, theDay, eformsCN)
		two := harvest.Scope{Since: sunday, Until: theDay.AddDate(0, 0, 1)}
		if err := r.Run(t, two, source(s)); err != nil {
			t.Fatal(err)
		}
		checkTenders(t, r, keys(eformsCN))
		st := r.State(t)
		if st.Partitions != 3 || !st.Through.Equal(theDay.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want both days and the notice completed, current to the end of Monday", st)
		}
		if n := s.Requests("search/20240421"); n != 1 {
			t.Errorf("the Sunday was searched %d times, want once", n)
		}
	})
}

func TestSyncThroughFaults(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		publish(t, s, theDay, dayOfNotices...)
		s.Inject(
			fault("search/20240422", tooMany),
			fault("search/20240422", harvesttest.Status(http.StatusServiceUnavailable)),
			fault("search/20240422", timedOut),
			fault("notice/"+eformsCN.number, harvesttest.Slow),
			fault("notice/"+tedCN.number, harvesttest.Truncated(`<?xml version="1.0" encoding="UTF-8"?><TED_EXPORT`)),
			fault("notice/"+eformsCAN.number, harvesttest.Status(http.StatusBadGateway)),
		)
		src := source(s)
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		if n := src.Stats().Retries; n != 6 {
			t.Errorf("%d retries, want one for each fault", n)
		}
		checkTenders(t, r, keys(dayOfNotices...))
		if st := r.State(t); st.Partitions != 5 || st.LastError != "" || !st.Through.Equal(theDay.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want the day completed despite the faults", st)
		}
	})
}

func TestSyncMalformedAnswerFailsTheDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		before := theDay.AddDate(0, 0, -3) // the Friday
		publish(t, s, before, tedCN)
		publish(t, s, theDay, eformsCN)
		// The Friday is answered with a page of the site, every attempt.
		for range 4 {
			s.Inject(fault("search/20240419", page))
		}
		days := harvest.Scope{Since: before, Until: theDay.AddDate(0, 0, 1)}
		err := r.Run(t, days, source(s))
		if err == nil || !strings.Contains(err.Error(), "1 of 4 days failed") || !strings.Contains(err.Error(), "not a whole JSON answer of the search") ||
			!strings.Contains(err.Error(), "2024-04-19") {
			t.Fatalf("run: %v, want the Friday failed for its answer, by name", err)
		}
		checkTenders(t, r, keys(eformsCN))
		// The Friday is set aside: the days after it are current.
		if st := r.State(t); !st.Through.Equal(theDay.AddDate(0, 0, 1)) || !strings.Contains(st.LastError, "not a whole JSON answer") ||
			st.SetAside != 1 || !strings.HasPrefix(st.LastSetAside, "2024-04-19: ") {
			t.Errorf("state %+v, want the Friday set aside, the error told, the later days current", st)
		}
		asked := s.Requests("")
		if err := r.Run(t, days, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 2 {
			t.Errorf("the next run sent %d requests, want 2: the Friday's search and its notice", n)
		}
		checkTenders(t, r, keys(eformsCN, tedCN))
		if st := r.State(t); st.LastError != "" || !st.Through.Equal(theDay.AddDate(0, 0, 1)) || st.SetAside != 0 {
			t.Errorf("state after the next run %+v", st)
		}
	})
}

func TestSyncAnswerWithoutNotices(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		publish(t, s, theDay, eformsCN)
		for range 4 {
			s.Inject(fault("search/20240422", func(w http.ResponseWriter, _ *http.Request) {
				io.WriteString(w, `{"totalNoticeCount": 1, "timedOut": false}`)
			}))
		}
		err := r.Run(t, scope, source(s))
		if err == nil || !strings.Contains(err.Error(), "without notices") || !strings.Contains(err.Error(), "after 4 attempts") {
			t.Fatalf("run: %v, want the answer refused after every attempt", err)
		}
		checkTenders(t, r, nil)
	})
}

func TestSyncRefusesAnswerOfAnotherDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		// A search that ignored its query would answer notices of any day.
		s.Inject(fault("search/20240422", oneNotice("1-2024", "2024-01-02+01:00", s.Server.URL)))
		err := r.Run(t, scope, source(s))
		if err == nil || !strings.Contains(err.Error(), `published on "2024-01-02+01:00", not 2024-04-22`) {
			t.Fatalf("run: %v, want the notice of another day refused", err)
		}
		if n := s.Requests("notice/"); n != 0 {
			t.Errorf("%d notices downloaded, want none", n)
		}
	})
}

func TestSyncResumesAfterInterruption(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		publish(t, s, theDay, dayOfNotices...)
		ctx, cancel := context.WithCancel(context.Background())
		s.Inject(fault("notice/"+eformsCAN.number, func(w http.ResponseWriter, req *http.Request) {
			cancel()
			<-req.Context().Done()
		}))
		if err := r.Runner.Run(ctx, scope, []harvest.Source{source(s)}); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run: %v", err)
		}
		if st := r.State(t); st.LastError != "interrupted" || st.Partitions != 2 {
			t.Errorf("state %+v, want interrupted after two notices", st)
		}
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOnce(t, r, s, dayOfNotices...)
	})
}

func TestSyncDayNotSettled(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		publish(t, s, theDay, eformsCN, tedCN)
		r.Runner.Now = func() time.Time { return theDay.Add(30 * time.Hour) }
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if st := r.State(t); st.Partitions != 2 || !st.Through.IsZero() {
			t.Errorf("state %+v, want the notices completed and not the day", st)
		}
		publish(t, s, theDay, tedCAN)
		asked := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 2 {
			t.Errorf("the next run sent %d requests, want 2: the day's search and the new notice", n)
		}
		checkTenders(t, r, keys(eformsCN, tedCN, tedCAN))
	})
}

func TestSyncStartsAtStart(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		friday := theDay.AddDate(0, 0, -3)
		publish(t, s, friday.AddDate(0, 0, -1), eformsCAN) // before the start
		publish(t, s, friday, tedCN)
		publish(t, s, theDay, eformsCN)
		src := New(Config{Search: s.URL(), Start: friday, Fetch: quick}, nil)
		// A run that resumes from yesterday, never having completed a
		// day, begins at the start.
		resume := harvest.Scope{Since: theDay, Until: theDay.AddDate(0, 0, 1)}
		if err := r.Run(t, resume, src); err != nil {
			t.Fatal(err)
		}
		checkTenders(t, r, keys(tedCN, eformsCN))
		// A scope from before the start does not go before it.
		early := harvest.Scope{Since: friday.AddDate(0, 0, -7), Until: theDay.AddDate(0, 0, 1)}
		if err := r.Run(t, early, src); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("search/20240418"); n != 0 {
			t.Errorf("the day before the start was searched %d times", n)
		}
		checkTenders(t, r, keys(tedCN, eformsCN))
	})
}

func TestSyncRefusesAnotherHost(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		other := tedtest.New(t)
		publish(t, other, theDay, eformsCN)
		s.Inject(fault("search/20240422", oneNotice(eformsCN.number, "2024-04-22+02:00", other.Server.URL)))
		err := r.Run(t, scope, source(s))
		if err == nil || !strings.Contains(err.Error(), "is not on") {
			t.Fatalf("run: %v, want the link refused", err)
		}
		if other.Requests("") != 0 {
			t.Error("the sync asked another host")
		}
	})
}

func TestNoticeURL(t *testing.T) {
	r := &run{}
	for _, tc := range []struct {
		search, link string
		ok           bool
	}{
		{DefaultSearch, "https://ted.europa.eu/en/notice/740217-2023/xml", true},
		{DefaultSearch, "https://api.ted.europa.eu/en/notice/740217-2023/xml", true},
		{DefaultSearch, "https://example.org/en/notice/740217-2023/xml", false},
		{DefaultSearch, "https://eforms.ted.europa.eu/x", false},
		{DefaultSearch, "ftp://ted.europa.eu/x", false},
	} {
		r.search, _ = harvest.ParseAddress("TED search", tc.search)
		if _, err := r.noticeURL(tc.link); (err == nil) != tc.ok {
			t.Errorf("noticeURL(%s) from %s: %v, want ok %v", tc.link, tc.search, err, tc.ok)
		}
	}
}

func fault(prefix string, do func(http.ResponseWriter, *http.Request)) tedtest.Fault {
	return tedtest.Fault{Prefix: prefix, Do: do}
}

// tooMany answers as a rate limit does, asking for no wait.
func tooMany(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Retry-After", "0")
	w.WriteHeader(http.StatusTooManyRequests)
}

// timedOut answers a search that ran out of time, as the answer's timedOut
// says.
func timedOut(w http.ResponseWriter, _ *http.Request) {
	io.WriteString(w, `{"notices": [], "totalNoticeCount": 0, "iterationNextToken": null, "timedOut": true}`)
}

// page answers with a page of the site.
func page(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, "<!DOCTYPE html><html><head><title>TED</title></head><body></body></html>")
}

// oneNotice answers a search with one notice, published on date, whose XML
// is on host.
func oneNotice(number, date, host string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, `{"notices": [{"publication-number": "`+number+`", "publication-date": "`+date+`", "links": {"xml": {"MUL": "`+
			host+`/en/notice/`+number+`/xml"}}}], "totalNoticeCount": 1, "iterationNextToken": "t", "timedOut": false}`)
	}
}
