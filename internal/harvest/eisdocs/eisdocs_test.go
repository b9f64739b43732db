package eisdocs

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/eisdocs/eistest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

const fixtures = "../../source/eis/testdata/"

// day is the day the recorded service publishes, in Moscow.
var day = time.Date(2026, 11, 20, 0, 0, 0, 0, moscow)

// scope is one whole day of three regions.
var scope = harvest.Scope{Since: day, Until: day.AddDate(0, 0, 1), Regions: []int{3, 8, 77}}

var testTypes = []Type{
	{"PRIZ", "epNotificationEOK2020"}, {"PRIZ", "epNotificationEZK2020"},
	{"RJ", "complaint"}, {"RI223", "purchaseNoticeAE"},
}

// quick retries at once: the faults are what is tested, not the waits.
var quick = harvesttest.Quick(2, 4)

// dayOfDocuments returns a service publishing a day of documents: two
// archives of one partition, and one in each of three others.
func dayOfDocuments(t *testing.T) *eistest.Service {
	s := eistest.New(t, "good-token")
	d := "/2026-11-20"
	s.Add("08/PRIZ/epNotificationEOK2020"+d, fixtures+"notice/epNotificationEOK2020_0811200000126000042_1.xml")
	s.Add("08/PRIZ/epNotificationEOK2020"+d, fixtures+"notice/epNotificationEOK2020_0811200000126000057_1.xml")
	s.Add("03/PRIZ/epNotificationEZK2020"+d, fixtures+"notice/epNotificationEZK2020_0301300012426000118_3.xml")
	s.Add("77/RJ/complaint"+d, fixtures+"complaint/complaint_202400114801003_41977215.xml")
	s.Add("77/RI223/purchaseNoticeAE"+d, fixtures+"notice/purchaseNoticeAE_32514920117.xml")
	return s
}

// wantKeys are the records a day of documents holds, by kind.
var wantKeys = map[tenderbase.Kind][]string{
	tenderbase.KindTender:    {"0301300012426000118", "0811200000126000042", "0811200000126000057", "32514920117"},
	tenderbase.KindComplaint: {"202400114801003"},
}

// eachStore runs test on a fresh SQLite store and a fresh PostgreSQL one.
func eachStore(t *testing.T, test func(t *testing.T, r *harvesttest.Rig)) {
	harvesttest.EachStore(t, []importer.Decoder{eis.Format{}}, test)
}

func source(s *eistest.Service, token string) *Source {
	return New(Config{Endpoint: s.URL(), Token: token, Types: testTypes, Fetch: quick}, nil)
}

func TestSyncDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		r.CheckRecords(t, wantKeys)
		st := r.State(t)
		if st.Partitions != 12 || st.Files != 5 || st.LastError != "" || st.LastSuccess.IsZero() || st.Rejected != 0 {
			t.Errorf("state %+v, want 12 partitions, 5 files, a success", st)
		}
		if !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("through %s, want the end of the day", st.Through)
		}
		// A second run asks for nothing: every partition is completed.
		asked := s.SOAPRequests()
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		if n := s.SOAPRequests() - asked; n != 0 {
			t.Errorf("a second run sent %d requests, want 0", n)
		}
	})
}

func TestSyncThroughFaults(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		s.AddRaw("77/PRIZ/epNotificationEOK2020/2026-11-20", "epNotificationEOK2020_0177200000126000001_1_X.xml", "<export><epNotificationEOK2020><commonInfo>")
		d := "/2026-11-20"
		s.Inject(
			fault("/soap/03/PRIZ/epNotificationEOK2020"+d, harvesttest.Status(503)),
			fault("/soap/03/PRIZ/epNotificationEZK2020"+d, harvesttest.Slow),
			fault("/soap/08/PRIZ/epNotificationEOK2020"+d, garbled),
			fault("/archive/08_PRIZ_epNotificationEOK2020_2026-11-20_0", harvesttest.Status(425)),
			fault("/archive/08_PRIZ_epNotificationEOK2020_2026-11-20_1", harvesttest.Status(404)),
			fault("/archive/03_PRIZ_epNotificationEZK2020_2026-11-20_0", harvesttest.Truncated("PK\x03\x04")),
			fault("/archive/77_RJ_complaint_2026-11-20_0", harvesttest.Status(502)),
		)
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		r.CheckRecords(t, wantKeys)
		st := r.State(t)
		if st.Partitions != 12 || st.LastError != "" || st.Rejected != 1 {
			t.Errorf("state %+v, want 12 partitions, no error, 1 rejected", st)
		}
		if !strings.Contains(st.LastRejection, "epNotificationEOK2020_0177200000126000001_1_X.xml") {
			t.Errorf("last rejection %q does not name the malformed document", st.LastRejection)
		}
	})
}

func TestSyncFailingPartitionIsSetAside(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		down := fault("/soap/77/RJ/complaint/2026-11-20", harvesttest.Status(500))
		s.Inject(down, down, down, down) // every attempt of one run
		err := r.Run(t, scope, source(s, "good-token"))
		if err == nil || !strings.Contains(err.Error(), "1 of 12 partitions failed, set aside") {
			t.Fatalf("run: %v, want one partition failed and set aside", err)
		}
		st := r.State(t)
		if !strings.Contains(st.LastError, "77/RJ/complaint/2026-11-20") || st.LastErrorAt.IsZero() || st.Partitions != 11 {
			t.Errorf("state %+v, want the failed partition named and 11 completed", st)
		}
		if st.SetAside != 1 || !strings.HasPrefix(st.LastSetAside, "77/RJ/complaint/2026-11-20: ") || !strings.Contains(st.LastSetAside, "500") {
			t.Errorf("state %+v, want the partition set aside named with its error", st)
		}
		// The partition set aside holds nothing back: the day is current.
		if !st.Through.Equal(day.AddDate(0, 0, 1)) {
			t.Errorf("through %s, want the end of the day", st.Through)
		}
		aside, err := harvest.SetAside(context.Background(), r.Store, "eis", 10)
		if err != nil || len(aside) != 1 || aside[0].Partition != "77/RJ/complaint/2026-11-20" || aside[0].Tries != 1 {
			t.Errorf("set aside %+v, %v; want the failed partition, tried once", aside, err)
		}
		asked := s.SOAPRequests()
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		if n := s.SOAPRequests() - asked; n != 1 {
			t.Errorf("the next run sent %d requests, want 1 for the failed partition", n)
		}
		r.CheckRecords(t, wantKeys)
		if st := r.State(t); st.LastError != "" || st.Partitions != 12 || st.SetAside != 0 || st.LastSetAside != "" {
			t.Errorf("state after the next run %+v, want every partition completed and none set aside", st)
		}
	})
}

// An archive that can never be read does not freeze the source: its
// partition is set aside, the data is current past it day after day, and
// it is tried again the next run, then once a day, for a week; then given
// up.
func TestSyncPartitionFailingEveryDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		bad := "77/RJ/complaint/2026-11-20"
		s.AddDamaged(bad, fixtures+"complaint/complaint_202400114801003_41977215.xml")
		now := day.AddDate(0, 0, 1).Add(12 * time.Hour) // 2026-11-21 12:00 MSK
		r.Runner.Now = func() time.Time { return now }
		resume := harvest.Scope{Regions: []int{77}}
		for i, run := range []struct {
			after    time.Duration // since the run before
			asked    int           // requests for the bad partition
			err      bool
			setAside int64
			givenUp  int64
		}{
			{0, 1, true, 1, 0},               // set aside
			{24 * time.Hour, 1, false, 1, 0}, // in the walk again: the day before where the data is current
			{24 * time.Hour, 1, false, 1, 0}, // out of the walk, tried a day after
			{6 * time.Hour, 0, false, 1, 0},  // not a day yet
			{18 * time.Hour, 1, false, 1, 0}, // a day after
			{24 * time.Hour, 1, false, 1, 0},
			{24 * time.Hour, 1, false, 1, 0},
			{24 * time.Hour, 1, false, 1, 0},
			{24 * time.Hour, 1, false, 0, 1}, // a week after its first failure: given up
			{24 * time.Hour, 0, false, 0, 1},
		} {
			now = now.Add(run.after)
			asked := s.Asked(bad)
			err := r.Run(t, resume, source(s, "good-token"))
			if (err != nil) != run.err {
				t.Fatalf("run %d at %s: %v, want an error %v", i, now, err, run.err)
			}
			if n := s.Asked(bad) - asked; n != run.asked {
				t.Errorf("run %d at %s asked for the bad partition %d times, want %d", i, now, n, run.asked)
			}
			st := r.State(t)
			if st.SetAside != run.setAside || st.GivenUp != run.givenUp {
				t.Errorf("run %d: %d set aside, %d given up; want %d, %d", i, st.SetAside, st.GivenUp, run.setAside, run.givenUp)
			}
			// Current to the end of the last hour the service answers,
			// the one that began 3 hours ago.
			if want := now.Add(-2 * time.Hour).Truncate(time.Hour); !st.Through.Equal(want) {
				t.Errorf("run %d at %s: current to %s, want %s", i, now, st.Through, want)
			}
		}
		if st := r.State(t); !strings.Contains(st.LastGivenUp, bad) || !strings.Contains(st.LastGivenUp, "not a whole ZIP archive") {
			t.Errorf("last given up %q, want the partition and its error", st.LastGivenUp)
		}
	})
}

func TestSyncRefusedToken(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		err := r.Run(t, scope, source(s, "expired-token"))
		if !errors.Is(err, ErrToken) {
			t.Fatalf("run with a refused token: %v, want ErrToken", err)
		}
		st := r.State(t)
		if !strings.Contains(st.LastError, "error 5") || st.Partitions != 0 {
			t.Errorf("state %+v, want the token error and nothing completed", st)
		}
		if s.SOAPRequests() != 1 {
			t.Errorf("%d requests with a refused token, want 1", s.SOAPRequests())
		}
		if strings.Contains(st.LastError, "expired-token") {
			t.Errorf("the status shows the token: %q", st.LastError)
		}
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		r.CheckRecords(t, wantKeys)
	})
}

func TestSyncResumesAfterInterruption(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		ctx, cancel := context.WithCancel(context.Background())
		// The second archive of region 08 hangs until the run is interrupted.
		s.Inject(fault("/archive/08_PRIZ_epNotificationEOK2020_2026-11-20_1", func(w http.ResponseWriter, req *http.Request) {
			cancel()
			<-req.Context().Done()
		}))
		err := r.Runner.Run(ctx, scope, []harvest.Source{source(s, "good-token")})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run: %v", err)
		}
		if st := r.State(t); st.LastError != "interrupted" {
			t.Errorf("state %+v, want interrupted", st)
		}
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		r.CheckRecords(t, wantKeys)
		if st := r.State(t); st.Partitions != 12 {
			t.Errorf("%d partitions completed over both runs, want 12", st.Partitions)
		}
	})
}

func TestSyncByPurchaseNumber(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := eistest.New(t, "good-token")
		s.Add("0811200000126000042/PRIZ", fixtures+"notice/epNotificationEOK2020_0811200000126000042_1.xml")
		src := New(Config{Endpoint: s.URL(), Token: "good-token", Purchases: []string{"0811200000126000042"}, Fetch: quick}, nil)
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Store.Get(context.Background(), tenderbase.KindTender, "0811200000126000042"); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPartitionsOfToday(t *testing.T) {
	src := New(Config{Types: []Type{{"PRIZ", "epNotificationEF2020"}}}, nil)
	job := harvest.Scope{Since: day, Until: day.AddDate(0, 0, 1).Add(5*time.Hour + 30*time.Minute), Regions: []int{77}}
	var names []string
	for _, p := range src.partitions(&harvest.Job{Scope: job}) {
		names = append(names, p.name())
	}
	want := []string{"77/PRIZ/epNotificationEF2020/2026-11-20",
		"77/PRIZ/epNotificationEF2020/2026-11-21T00", "77/PRIZ/epNotificationEF2020/2026-11-21T01", "77/PRIZ/epNotificationEF2020/2026-11-21T02"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("partitions at 05:30 (-want +got):\n%s", diff)
	}
}

func garbled(w http.ResponseWriter, _ *http.Request) {
	io.WriteString(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ns2:getDocsBy`)
}

func fault(prefix string, do func(http.ResponseWriter, *http.Request)) eistest.Fault {
	return eistest.Fault{Prefix: prefix, Do: do}
}

// The files of documentation a notice lists are downloaded and their text
// is searchable in the notice's docs; a file the file store refuses is
// counted, and leaves its doc without text.
func TestSyncDocumentation(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := eistest.New(t, "good-token")
		notice, err := os.ReadFile(fixtures + "notice/epNotificationEOK2020_0811200000126000042_1.xml")
		if err != nil {
			t.Fatal(err)
		}
		docx, err := os.ReadFile("../../doctext/testdata/docx.docx")
		if err != nil {
			t.Fatal(err)
		}
		s.AddFile("contract.docx", "application/octet-stream", docx)
		s.AddFile("estimate.zip", "text/html; charset=utf-8", []byte("<html>Доступ ограничен</html>"))
		text := strings.NewReplacer(
			"https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=8B21D4E07C3A4F9B9E5D1A6C2F0B7E33", s.FileURL("contract.docx"),
			"https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=3F0C7A19D2E84B55A1C6E0B7D94F2A10", s.FileURL("estimate.zip"),
		).Replace(string(notice))
		s.AddRaw("08/PRIZ/epNotificationEOK2020/2026-11-20", "epNotificationEOK2020_0811200000126000042_1_A.xml", text)
		r.Runner.Documents = &harvest.Documents{Client: fetch.New("documents", quick, nil, nil)}
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		page, err := r.Store.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindDoc,
			Query: mustParse(t, "гидроизоляция"), PageSize: 10})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 || page.Items[0].(*tenderbase.Doc).FileName != "Проект контракта.docx" {
			t.Errorf("docs with a word of the file: %d, want the contract's", page.Total)
		}
		st := r.State(t)
		if st.Documents != 1 || st.DocumentsFailed != 1 || !strings.Contains(st.LastDocumentError, "sent text/html, not the file") {
			t.Errorf("state %+v, want 1 file read and the web page refused", st)
		}

		// The next run, with nothing new to fetch, tries the refused file
		// again: the file store gives it now.
		archive, err := os.ReadFile("../../doctext/testdata/ziputf8.zip")
		if err != nil {
			t.Fatal(err)
		}
		s.AddFile("estimate.zip", "application/zip", archive)
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		page, err = r.Store.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindDoc,
			Query: mustParse(t, "шумоизоляция"), PageSize: 10})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 1 || page.Items[0].(*tenderbase.Doc).FileName != "Проектно-сметная документация.zip" {
			t.Errorf("docs with a word of the archive tried again: %d, want the estimate's", page.Total)
		}
		pending, err := r.Store.Checkpoints(context.Background(), "eis", "texts/", 10)
		if err != nil || len(pending) != 0 {
			t.Errorf("files still to try: %v, %v; want none", pending, err)
		}
		if st := r.State(t); st.Documents != 2 {
			t.Errorf("state %+v, want 2 files read in all", st)
		}
	})
}

func mustParse(t *testing.T, text string) tenderbase.Query {
	t.Helper()
	q, err := query.Parse(text, query.MCP)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// A file the file store never gives is tried by five runs, then given up.
func TestSyncDocumentationGivenUp(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := eistest.New(t, "good-token")
		notice, err := os.ReadFile(fixtures + "notice/epNotificationEZK2020_0301300012426000118_3.xml")
		if err != nil {
			t.Fatal(err)
		}
		text := regexp.MustCompile(`https://zakupki\.gov\.ru/[^<]*`).ReplaceAllString(string(notice), s.FileURL("gone.pdf"))
		s.AddRaw("03/PRIZ/epNotificationEZK2020/2026-11-20", "epNotificationEZK2020_0301300012426000118_3_A.xml", text)
		r.Runner.Documents = &harvest.Documents{Client: fetch.New("documents", quick, nil, nil)}
		for run := 1; run <= 6; run++ {
			if err := r.Run(t, scope, source(s, "good-token")); err != nil {
				t.Fatal(err)
			}
			pending, err := r.Store.Checkpoints(context.Background(), "eis", "texts/", 10)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: 1, false: 0}[run < 5]; len(pending) != want {
				t.Errorf("after run %d: %d files to try again, want %d", run, len(pending), want)
			}
		}
		if st := r.State(t); st.DocumentsFailed != 5 || !strings.Contains(st.LastDocumentError, "404") {
			t.Errorf("state %+v, want 5 failed attempts of the missing file", st)
		}
	})
}

// An archive wrapped in gzip is unwrapped and read; a body that is neither
// a ZIP nor gzip is still refused as a corrupt archive, asked for again.
func TestSyncGzippedArchive(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := eistest.New(t, "good-token")
		s.AddGzipped("08/PRIZ/epNotificationEOK2020/2026-11-20", fixtures+"notice/epNotificationEOK2020_0811200000126000042_1.xml")
		s.Add("03/PRIZ/epNotificationEZK2020/2026-11-20", fixtures+"notice/epNotificationEZK2020_0301300012426000118_3.xml")
		garbage := func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "neither a ZIP nor gzip") }
		s.Inject(fault("/archive/03_PRIZ_epNotificationEZK2020_2026-11-20_0", garbage))
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		r.CheckRecords(t, map[tenderbase.Kind][]string{tenderbase.KindTender: {"0301300012426000118", "0811200000126000042"}})
		if n := s.Downloads("03_PRIZ_epNotificationEZK2020_2026-11-20_0"); n != 2 {
			t.Errorf("the archive answered with garbage was asked %d times, want 2", n)
		}
	})
}

// A body that is neither is refused with the error of a corrupt archive.
func TestCheckDownloadRefusesWhatIsNoArchive(t *testing.T) {
	src := New(Config{}, nil)
	for _, body := range []string{"neither a ZIP nor gzip", "\x1f\x8bnot gzip", "PK\x03\x04 cut"} {
		_, err := src.checkDownload(strings.NewReader(body), int64(len(body)), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), "not a whole") {
			t.Errorf("%q: %v, want it refused as not a whole archive", body, err)
		}
	}
}

// A download the EIS blocked is waited for, as long as the service asks,
// counted in the status, and not taken for a corrupt archive: the archive
// is downloaded once the wait is over.
func TestSyncBlockedDownloadIsWaitedFor(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		s.Inject(fault("/archive/08_PRIZ_epNotificationEOK2020_2026-11-20_1", eistest.Blocked),
			fault("/archive/08_PRIZ_epNotificationEOK2020_2026-11-20_1", eistest.Blocked))
		src := source(s, "good-token")
		var waits []time.Duration
		src.cfg.wait = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		r.CheckRecords(t, wantKeys)
		if diff := cmp.Diff([]time.Duration{DefaultBlockedWait, DefaultBlockedWait}, waits); diff != "" {
			t.Errorf("waits (-want +got):\n%s", diff)
		}
		if st := r.State(t); st.Throttled != 2 || st.Partitions != 12 || st.LastError != "" {
			t.Errorf("state %+v, want 2 downloads throttled and every partition completed", st)
		}
		// Each block is one request: none is retried as a corrupt archive.
		if n := s.Downloads("08_PRIZ_epNotificationEOK2020_2026-11-20_1"); n != 3 {
			t.Errorf("the blocked archive was asked %d times, want 3", n)
		}
	})
}

// A download blocked every time fails its partition after blockedTries
// waits of the configured length, saying why.
func TestSyncDownloadBlockedEveryTime(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		for range blockedTries {
			s.Inject(fault("/archive/77_RJ_complaint_2026-11-20_0", eistest.Blocked))
		}
		cfg := Config{Endpoint: s.URL(), Token: "good-token", Types: testTypes, Fetch: quick, BlockedWait: time.Millisecond}
		var waits []time.Duration
		cfg.wait = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
		err := r.Run(t, scope, New(cfg, nil))
		if err == nil || !strings.Contains(err.Error(), "blocked") {
			t.Fatalf("run: %v, want the block named", err)
		}
		if diff := cmp.Diff([]time.Duration{time.Millisecond, time.Millisecond}, waits); diff != "" {
			t.Errorf("waits (-want +got):\n%s", diff)
		}
		if st := r.State(t); st.Throttled != 3 || strings.Contains(st.LastError, "not a whole ZIP") {
			t.Errorf("state %+v, want 3 blocks counted, none taken for a corrupt archive", st)
		}
	})
}
