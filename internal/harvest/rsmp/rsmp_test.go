package rsmp

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/rsmp/rsmptest"
	"github.com/tenderbase/tenderbase/internal/importer"
	rsmpformat "github.com/tenderbase/tenderbase/internal/source/rsmp"
)

// member is the file of the register the releases are made of
// (testdata/README.md).
const member = "testdata/VO_RRMSPSV_0000_9965_20230511_00000000-0000-4000-8000-000000000001.xml"

// The subjects of member: an organization, whose INN each release
// replaces with its own, and an entrepreneur in every release.
const (
	memberOrg    = "2901000001"
	entrepreneur = "290100000017"
)

// The structure the releases of the tests name, 12.05.2026.
var structure = day(2026, 5, 12)

func day(y int, m time.Month, d int) time.Time {
	return time.Date(y, m, d, 0, 0, 0, 0, tenderbase.Moscow)
}

// noon is the clock of the tests: after the releases of July and August.
var noon = day(2026, 8, 20).Add(12 * time.Hour)

// quick retries at once: the faults are what is tested, not the waits.
var quick = harvesttest.Quick(1, 3)

var decoders = []importer.Decoder{rsmpformat.Format{}}

// release returns a release of the register of date: member, with its
// date and the organization's INN set to org, in a zip archive.
func release(t *testing.T, date time.Time, org string) []byte {
	t.Helper()
	b, err := releaseOf(date, org)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func releaseOf(date time.Time, org string) ([]byte, error) {
	xml, err := os.ReadFile(member)
	if err != nil {
		return nil, err
	}
	xml = bytes.ReplaceAll(xml, []byte(`ДатаСост="10.05.2023"`), []byte(`ДатаСост="`+date.Format("02.01.2006")+`"`))
	xml = bytes.ReplaceAll(xml, []byte(`ИННЮЛ="`+memberOrg+`"`), []byte(`ИННЮЛ="`+org+`"`))
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.Create(filepath.Base(member))
	if err != nil {
		return nil, err
	}
	w.Write(xml)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// The organizations of the releases of the service published.
const (
	orgMay  = "2901000002"
	orgJune = "2901000003"
	orgJuly = "2901000004"
)

// published is a service listing the releases of May, June and July 2026;
// it returns their file names.
func published(t *testing.T) (*rsmptest.Service, []string) {
	s := rsmptest.New(t)
	return s, []string{
		s.Add(day(2026, 5, 10), day(2025, 6, 10), release(t, day(2026, 5, 10), orgMay)),
		s.Add(day(2026, 6, 10), structure, release(t, day(2026, 6, 10), orgJune)),
		s.Add(day(2026, 7, 10), structure, release(t, day(2026, 7, 10), orgJuly)),
	}
}

func source(s *rsmptest.Service) *Source {
	return New(Config{Passport: s.URL(), Fetch: quick, DownloadTimeout: downloadTimeout}, nil)
}

// downloadTimeout is the tests' bound on a release's download: longer
// than the passport's, as it is in use.
const downloadTimeout = 10 * time.Second

func eachStore(t *testing.T, test func(t *testing.T, r *harvesttest.Rig)) {
	harvesttest.EachStoreAt(t, decoders, noon, test)
}

// checkOrgs fails unless the store holds the organizations inns, and each
// one's SME part is of the register's state of reported.
func checkOrgs(t *testing.T, r *harvesttest.Rig, reported time.Time, inns ...string) {
	t.Helper()
	page, err := r.Store.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindOrg, PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Time{}
	for _, rec := range page.Items {
		got[rec.Key()] = rec.(*tenderbase.Org).SMEReported
	}
	want := map[string]time.Time{}
	for _, inn := range inns {
		want[inn] = reported
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("organizations and their register states (-want +got):\n%s", diff)
	}
}

// scope is what a run resumes with: the runner's clock sets its end.
var scope = harvest.Scope{}

func TestSyncLoadsTheNewestRelease(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
		if got := []int{s.Served(files[0]), s.Served(files[1]), s.Served(files[2])}; !cmp.Equal(got, []int{0, 0, 1}) {
			t.Errorf("releases downloaded %v times, want the newest once", got)
		}
		st := r.State(t)
		if st.Partitions != 1 || st.Files != 1 || st.Inserted != 2 || st.LastError != "" || !st.Through.Equal(day(2026, 7, 10)) {
			t.Errorf("state %+v, want 1 partition, 1 file, 2 subjects, current to 2026-07-10", st)
		}
		if c, err := r.Store.Checkpoint(context.Background(), "rsmp", loaded); err != nil || c.Value != files[2] {
			t.Errorf("checkpoint %+v, %v; want %s", c, err, files[2])
		}
	})
}

func TestSyncSkipsTheReleaseLoaded(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := r.Asked(t, scope, source(s), s.Requests); n != 1 || s.Requests("meta.csv") != 2 {
			t.Errorf("a second run sent %d requests, want 1: meta.csv", n)
		}
		// The release of August comes; it is the only one downloaded.
		const orgAugust = "2901000005"
		august := s.Add(day(2026, 8, 10), structure, release(t, day(2026, 8, 10), orgAugust))
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if got := []int{s.Served(files[0]), s.Served(files[1]), s.Served(files[2]), s.Served(august)}; !cmp.Equal(got, []int{0, 0, 1, 1}) {
			t.Errorf("releases downloaded %v times, want July's and August's once", got)
		}
		// The entrepreneur's SME part is August's; July's organization,
		// missing from August's register, keeps July's.
		rec, err := r.Store.Get(context.Background(), tenderbase.KindOrg, entrepreneur)
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.(*tenderbase.Org).SMEReported; !got.Equal(day(2026, 8, 10)) {
			t.Errorf("the entrepreneur's register state %s, want August's", got)
		}
		if st := r.State(t); !st.Through.Equal(day(2026, 8, 10)) || st.Partitions != 2 {
			t.Errorf("state %+v, want current to 2026-08-10 after 2 releases", st)
		}
	})
}

func TestSyncUntil(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		// Up to the end of 2026-06-30: June's release.
		if err := r.Run(t, harvest.Scope{Until: day(2026, 7, 1)}, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 6, 10), orgJune, entrepreneur)
		// Before the first release: nothing, and no error.
		if err := r.Run(t, harvest.Scope{Until: day(2026, 5, 1)}, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Served(files[0]) + s.Served(files[2]); n != 0 {
			t.Errorf("%d releases downloaded outside the scope", n)
		}
	})
}

func TestSyncThroughFaults(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		zipped := release(t, day(2026, 7, 10), orgJuly)
		s.Inject(
			fault("meta.csv", harvesttest.Status(http.StatusServiceUnavailable)),
			fault("meta.csv", harvesttest.Slow),
			fault(files[2], harvesttest.Status(http.StatusBadGateway)),
			fault(files[2], harvesttest.Truncated(string(zipped[:len(zipped)/2]))),
		)
		src := source(s)
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		if n := src.Stats().Retries; n != 4 {
			t.Errorf("%d retries, want one for each fault", n)
		}
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
		if st := r.State(t); st.LastError != "" || st.Partitions != 1 {
			t.Errorf("state %+v, want the release loaded", st)
		}
	})
}

// TestSyncWaitsForASlowRelease: a release takes longer than the
// passport may, and is waited for.
func TestSyncWaitsForASlowRelease(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		zipped := release(t, day(2026, 7, 10), orgJuly)
		s.Inject(fault(files[2], func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/zip")
			w.Write(zipped[:100])
			w.(http.Flusher).Flush()
			time.Sleep(2 * quick.Timeout)
			w.Write(zipped[100:])
		}))
		src := source(s)
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
		if n := src.Stats().Retries; n != 0 {
			t.Errorf("%d retries, want none", n)
		}
	})
}

func TestSyncBrokenReleaseFails(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		zipped := release(t, day(2026, 7, 10), orgJuly)
		// Every attempt of the run gets the archive with its end cut off:
		// no central directory.
		broken := fault(files[2], func(w http.ResponseWriter, _ *http.Request) { w.Write(zipped[:len(zipped)-30]) })
		s.Inject(broken, broken, broken)
		r.RunFails(t, scope, source(s), files[2], "not a whole ZIP archive")
		st := r.State(t)
		if !strings.Contains(st.LastError, files[2]) || st.Partitions != 0 || !st.Through.IsZero() {
			t.Errorf("state %+v, want the release's error and nothing loaded", st)
		}
		checkOrgs(t, r, time.Time{})
		// The next run loads it.
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
	})
}

func TestSyncFromThePage(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		s.NoMeta = true
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
		if s.Requests("meta.csv") != 1 || s.Served(files[2]) != 1 {
			t.Errorf("meta.csv asked %d times, July's release served %d times; want once each", s.Requests("meta.csv"), s.Served(files[2]))
		}
	})
}

func TestSyncRefusesAnotherHost(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := rsmptest.New(t)
		other := rsmptest.New(t)
		file := other.Add(day(2026, 7, 10), structure, release(t, day(2026, 7, 10), orgJuly))
		s.Inject(fault("meta.csv", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, "property,value\r\n"+file+","+other.URL()+file+"\r\n")
		}))
		r.RunFails(t, scope, source(s), "is not on")
		if other.Requests("") != 0 {
			t.Error("the sync asked another host")
		}
	})
}

func TestSyncPassportWithoutReleases(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := rsmptest.New(t)
		r.RunFails(t, scope, source(s), "lists no data-<date>-structure-<date>.zip release")
	})
}

// TestSyncPublishedSamples serves the published archives of
// ../shared/data/rsmp as releases: each loads as import loads it.
func TestSyncPublishedSamples(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "data", "rsmp", "PavelSyomin__ru-smb-companies")
	sample, err := os.ReadFile(filepath.Join(dir, "data-test-sme-2.zip"))
	if err != nil {
		t.Skipf("the published samples are not here (%v)", err)
	}
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := rsmptest.New(t)
		s.Add(day(2023, 5, 10), day(2022, 3, 10), sample)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		st := r.State(t)
		if st.Files != 1 || st.Records != 2700 || st.Rejected != 0 || !st.Through.Equal(day(2023, 5, 10)) {
			t.Errorf("state %+v, want the 2700 documents of the 3 members read, none rejected", st)
		}
	})
}

func TestReleaseNames(t *testing.T) {
	base, _ := url.Parse("https://www.nalog.gov.ru/opendata/7707329152-rsmp/")
	for _, tc := range []struct {
		href string
		want time.Time // zero: no release
	}{
		{"https://file.nalog.ru/opendata/7707329152-rsmp/data-10072026-structure-12052026.zip", day(2026, 7, 10)},
		{"https://file.nalog.ru/opendata/7707329152-rsmp/data-10012022-structure-10082021.zip", day(2022, 1, 10)},
		{"data-20260910-structure-20220801.zip", day(2026, 9, 10)},
		{"https://file.nalog.ru/opendata/7707329152-rsmp/structure-12052026.xsd", time.Time{}},
		{"data-99999999-structure-12052026.zip", time.Time{}},
		{"data-10072026-structure-12052026.csv", time.Time{}},
	} {
		a, ok := parseArchive(base, tc.href)
		if ok != !tc.want.IsZero() || !a.date.Equal(tc.want) {
			t.Errorf("%s: %s, %v; want %s", tc.href, a.date, ok, tc.want)
		}
	}
}

func TestReadMeta(t *testing.T) {
	base, _ := url.Parse("https://www.nalog.gov.ru/opendata/7707329152-rsmp/meta.csv")
	meta := "\ufeffproperty,value\r\nstandardversion,http://opendata.gosmonitor.ru/standard/3.0\r\nidentifier,7707329152-rsmp\r\n" +
		`title,"Единый реестр субъектов малого и среднего предпринимательства"` + "\r\n" +
		"data-10082026-structure-12052026.zip,https://file.nalog.ru/opendata/7707329152-rsmp/data-10082026-structure-12052026.zip\r\n" +
		"data-10122025-structure-10062025.zip,https://file.nalog.ru/opendata/7707329152-rsmp/data-10122025-structure-10062025.zip\r\n" +
		"data-10072026-structure-12052026.zip,https://file.nalog.ru/opendata/7707329152-rsmp/data-10072026-structure-12052026.zip\r\n" +
		"structure-12052026.xsd,https://file.nalog.ru/opendata/7707329152-rsmp/structure-12052026.xsd\r\n"
	got, err := readMeta(base, []byte(meta))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, a := range got {
		files = append(files, a.file)
	}
	want := []string{"data-10122025-structure-10062025.zip", "data-10072026-structure-12052026.zip", "data-10082026-structure-12052026.zip"}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("releases, oldest first (-want +got):\n%s", diff)
	}
	if _, err := readMeta(base, []byte("<html><body>Страница не найдена</body></html>")); err == nil {
		t.Error("a web page read as meta.csv")
	}
}

func fault(prefix string, do func(http.ResponseWriter, *http.Request)) rsmptest.Fault {
	return rsmptest.Fault{Prefix: prefix, Do: do}
}

// TestSyncReadsAReleasePastTheImportBound loads a release that unpacks to
// more than the import's bound of one archive: a real release unpacks to
// some 25 GB, past the 4 GiB default, and is read whole all the same.
func TestSyncReadsAReleasePastTheImportBound(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := rsmptest.New(t)
		s.Add(day(2026, 7, 10), structure, release(t, day(2026, 7, 10), orgJuly))
		unpacked := fileSize(t, member)
		r.Runner.Limits = importer.Limits{MaxArchiveBytes: unpacked / 2}
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
		// The source's own bound holds.
		s2 := rsmptest.New(t)
		s2.Add(day(2026, 8, 10), structure, release(t, day(2026, 8, 10), "2901000005"))
		src := New(Config{Passport: s2.URL(), Fetch: quick, MaxUnpacked: unpacked / 2}, nil)
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		if st := r.State(t); st.Rejected != 1 || !strings.Contains(st.LastRejection, "--max-archive-bytes") {
			t.Errorf("state %+v, want the member past the source's bound skipped", st)
		}
	})
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A release that can never be read is downloaded again by the next run,
// then once a day, not by every run: each attempt is some 2 GB of the tax
// service's. The next release, once published, is loaded and the broken
// one is no longer missing.
func TestSyncBrokenReleaseOnceADay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		s.Faults().Inject(harvesttest.Fault{Prefix: files[2], Do: brokenJuly, Every: true})
		now := noon
		r.Runner.Now = func() time.Time { return now }
		for i, run := range []struct {
			after     time.Duration // since the run before
			downloads int           // of the broken release, quick's 3 an attempt
		}{
			{0, 3},                // set aside
			{15 * time.Minute, 3}, // the next run
			{time.Hour, 0},        // not a day since
			{23 * time.Hour, 3},   // a day since
			{15 * time.Minute, 0},
		} {
			now = now.Add(run.after)
			before := s.Requests(files[2])
			err := r.Run(t, scope, source(s))
			if (err != nil) != (i == 0) {
				t.Fatalf("run %d: %v, want an error in the first run only", i, err)
			}
			if n := s.Requests(files[2]) - before; n != run.downloads {
				t.Errorf("run %d at %s downloaded the broken release %d times, want %d", i, now, n, run.downloads)
			}
			if st := r.State(t); st.SetAside != 1 || !strings.HasPrefix(st.LastSetAside, files[2]+": ") {
				t.Errorf("run %d: state %+v, want the release set aside and named", i, st)
			}
		}
		checkOrgs(t, r, time.Time{})
		august := s.Add(day(2026, 8, 10), structure, release(t, day(2026, 8, 10), orgJuly))
		now = now.Add(time.Hour)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 8, 10), orgJuly, entrepreneur)
		if st := r.State(t); st.SetAside != 0 || !st.Through.Equal(day(2026, 8, 10)) || st.LastError != "" {
			t.Errorf("state after %s %+v, want it loaded and nothing set aside", august, st)
		}
	})
}
