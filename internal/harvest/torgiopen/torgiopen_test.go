package torgiopen

import (
	"bytes"
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
	"github.com/tenderbase/tenderbase/internal/harvest/torgiopen/torgitest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/torgi"
)

const fixtures = "../../source/torgi/testdata/"

// theDay is the day the recorded service publishes, in UTC as the lists are.
var theDay = time.Date(2026, 4, 22, 0, 0, 0, 0, time.UTC)

// noon is the clock of most tests: the next day's noon, when the day has
// ended and the next one's list is not published yet.
var noon = theDay.Add(36 * time.Hour)

// scope is the whole day, asked for one region: the source takes them all.
var scope = harvest.Scope{Since: theDay, Until: theDay.AddDate(0, 0, 1), Regions: []int{77}}

// quick retries at once: the faults are what is tested, not the waits.
var quick = harvesttest.Quick(2, 4)

// The notices of the day, two lots each.
const (
	notice1 = "21000035130000000412"
	notice2 = "21000035130000000413"
	notice3 = "22000100690000000341"
)

// notice returns the open-data notice of the fixture, numbered number.
func notice(t *testing.T, number string) []byte {
	t.Helper()
	b, err := os.ReadFile(fixtures + "opendata-notice.json")
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(b, []byte(notice1), []byte(number))
}

// published is a service publishing a day: three notices among documents
// the importer does not read. It returns the notices' file names.
func published(t *testing.T, s *torgitest.Service, d time.Time, numbers ...string) []string {
	t.Helper()
	cancel, err := os.ReadFile(fixtures + "opendata-noticecancel.json")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for i, n := range numbers {
		files = append(files, s.Add(d, "notice", n, notice(t, n)))
		if i == 0 {
			s.Add(d, "noticeCancel", n, cancel)
			s.Add(d, "clarifications", n, []byte(`{"exportObject": {"structuredObject": {"clarifications": {}}}}`))
		}
	}
	return files
}

func dayOfNotices(t *testing.T) (*torgitest.Service, []string) {
	s := torgitest.New(t)
	return s, published(t, s, theDay, notice1, notice2, notice3)
}

// lotsOf returns the keys of the lots of notices.
func lotsOf(numbers ...string) []string {
	var keys []string
	for _, n := range numbers {
		keys = append(keys, n+"_1", n+"_2")
	}
	slices.Sort(keys)
	return keys
}

// decoders read what the service publishes.
var decoders = []importer.Decoder{torgi.Format{}}

// eachStore runs test on a fresh SQLite store and a fresh PostgreSQL one,
// at noon.
func eachStore(t *testing.T, test func(t *testing.T, r *harvesttest.Rig)) {
	harvesttest.EachStoreAt(t, decoders, noon, test)
}

func source(s *torgitest.Service) *Source {
	return New(Config{DataSet: s.URL(), Fetch: quick}, nil)
}

// checkLots fails unless the store holds the lots, each once.
func checkLots(t *testing.T, r *harvesttest.Rig, want []string) {
	t.Helper()
	r.CheckRecords(t, map[tenderbase.Kind][]string{tenderbase.KindLot: want})
}

func TestSyncDay(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, _ := dayOfNotices(t)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		st := r.State(t)
		// The day and its three notices; the list itself, for the
		// cancellation of the first notice it names.
		if st.Partitions != 4 || st.Files != 4 || st.Inserted != 7 || st.Rejected != 0 || st.LastError != "" || st.LastSuccess.IsZero() {
			t.Errorf("state %+v, want 4 partitions, 4 files, 6 lots and an event, a success", st)
		}
		for key, want := range map[string]string{notice1 + "_2": "cancelled noticeCancel", notice2 + "_2": "active PUBLISHED"} {
			rec, err := r.Store.Get(t.Context(), tenderbase.KindLot, key)
			if err != nil {
				t.Fatal(err)
			}
			if l := rec.(*tenderbase.Lot); l.Status+" "+l.SourceStatus != want {
				t.Errorf("lot %s is %s (%s), want %s", key, l.Status, l.SourceStatus, want)
			}
		}
		if !st.Through.Equal(theDay.AddDate(0, 0, 1)) {
			t.Errorf("through %s, want the end of the day", st.Through)
		}
		if n := s.Requests("docs/"); n != 3 {
			t.Errorf("%d documents asked for, want the 3 notices only", n)
		}
		// A second run asks for nothing: the day is completed.
		asked := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 0 {
			t.Errorf("a second run sent %d requests, want 0", n)
		}
	})
}

func TestSyncThroughFaults(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := dayOfNotices(t)
		bad := s.Add(theDay, "notice", "21000035130000000499", []byte(`{"exportObject": {"structuredObject": {"notice": {"commonInfo": {"noticeNumber": "2100`))
		s.Inject(
			fault(torgitest.ListFile(theDay), harvesttest.Unavailable),
			fault(torgitest.ListFile(theDay), harvesttest.Status(http.StatusTooManyRequests)),
			fault("docs/"+files[0], harvesttest.Slow),
			fault("docs/"+files[0], page),
			fault("docs/"+files[1], harvesttest.Truncated(`{"exportObject": {"structuredObject": {"notice": {`)),
			fault("docs/"+files[2], harvesttest.Status(http.StatusBadGateway)),
		)
		src := source(s)
		if err := r.Runner.Run(context.Background(), scope, []harvest.Source{src}); err != nil {
			t.Fatal(err)
		}
		if n := src.Stats().Retries; n != 6 {
			t.Errorf("%d retries, want one for each fault", n)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		st := r.State(t)
		if st.Partitions != 5 || st.LastError != "" || st.Rejected != 1 || !st.Through.Equal(theDay.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want 5 partitions, no error, 1 rejected, the day current", st)
		}
		if !strings.Contains(st.LastRejection, bad) {
			t.Errorf("last rejection %q does not name the malformed notice %s", st.LastRejection, bad)
		}
	})
}

// A day that fails is set aside: it holds the data back no longer, and the
// next run tries it again.
func TestSyncFailingDayIsSetAside(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := torgitest.New(t)
		before := theDay.AddDate(0, 0, -1)
		published(t, s, before, notice1)
		published(t, s, theDay, notice2, notice3)
		garbage := fault(torgitest.ListFile(before), func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"listObjects": [{"documentType": "notice", "regNum"`)
		})
		s.Inject(garbage, garbage, garbage, garbage) // every attempt of one run
		two := harvest.Scope{Since: before, Until: theDay.AddDate(0, 0, 1)}
		err := r.Runner.Run(context.Background(), two, []harvest.Source{source(s)})
		if err == nil || !strings.Contains(err.Error(), "1 of 2 days failed") || !strings.Contains(err.Error(), "not a whole JSON list") {
			t.Fatalf("run: %v, want one day failed for its list", err)
		}
		st := r.State(t)
		if !strings.Contains(st.LastError, before.Format(time.DateOnly)) || st.Partitions != 3 || !st.Through.Equal(theDay.AddDate(0, 0, 1)) {
			t.Errorf("state %+v, want the failed day named, the other day and its 2 notices completed, current past the failed day", st)
		}
		if st.SetAside != 1 || !strings.HasPrefix(st.LastSetAside, before.Format(time.DateOnly)+": ") {
			t.Errorf("state %+v, want the failed day set aside", st)
		}
		checkLots(t, r, lotsOf(notice2, notice3))
		asked := s.Requests("")
		if err := r.Runner.Run(context.Background(), two, []harvest.Source{source(s)}); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 2 {
			t.Errorf("the next run sent %d requests, want 2: the failed day's list and its notice", n)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		if st := r.State(t); st.LastError != "" || !st.Through.Equal(theDay.AddDate(0, 0, 1)) || st.SetAside != 0 {
			t.Errorf("state after the next run %+v", st)
		}
	})
}

func TestSyncStopsAtADayNotPublished(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, _ := dayOfNotices(t)
		// The day after has ended 12 hours ago; its list is not there yet.
		r.Runner.Now = func() time.Time { return noon.AddDate(0, 0, 1) }
		three := harvest.Scope{Since: theDay, Until: theDay.AddDate(0, 0, 3)}
		if err := r.Runner.Run(context.Background(), three, []harvest.Source{source(s)}); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		if st := r.State(t); !st.Through.Equal(theDay.AddDate(0, 0, 1)) || st.LastError != "" {
			t.Errorf("state %+v, want current to the end of the published day", st)
		}
		if n := s.Requests(torgitest.ListFile(theDay.AddDate(0, 0, 2))); n != 0 {
			t.Errorf("the walk asked for the list after the one not published")
		}
	})
}

func TestSyncMissingDayIsAnError(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, _ := dayOfNotices(t)
		// The day before ended 36 hours ago: its list should be there.
		two := harvest.Scope{Since: theDay.AddDate(0, 0, -1), Until: theDay.AddDate(0, 0, 1)}
		err := r.Runner.Run(context.Background(), two, []harvest.Source{source(s)})
		if err == nil || !strings.Contains(err.Error(), "404") {
			t.Fatalf("run: %v, want the missing list", err)
		}
		// The walk went on.
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
	})
}

func TestSyncResumesAfterInterruption(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := dayOfNotices(t)
		ctx, cancel := context.WithCancel(context.Background())
		// The second notice hangs until the run is interrupted.
		s.Inject(fault("docs/"+files[1], func(w http.ResponseWriter, req *http.Request) {
			cancel()
			<-req.Context().Done()
		}))
		err := r.Runner.Run(ctx, scope, []harvest.Source{source(s)})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run: %v", err)
		}
		if st := r.State(t); st.LastError != "interrupted" || st.Partitions != 1 {
			t.Errorf("state %+v, want interrupted after the first notice", st)
		}
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		for i, f := range files {
			if n := s.Served(f); n != 1 {
				t.Errorf("notice %d was downloaded whole %d times, want once", i+1, n)
			}
		}
		// The list is imported on each run, for its events.
		if st := r.State(t); st.Partitions != 4 || st.Files != 5 || st.Inserted != 7 {
			t.Errorf("state %+v over both runs, want 4 partitions, 5 files, 6 lots and an event", st)
		}
		asked := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 0 {
			t.Errorf("a run after the day was completed sent %d requests, want 0", n)
		}
	})
}

// dyingLog is a sync log whose process dies, as far as the sync can tell,
// when it is to record a partition: after the import of its notice, before
// the checkpoint.
type dyingLog struct {
	tenderbase.SyncLog
	partition string
}

func (l dyingLog) SetCheckpoint(ctx context.Context, c tenderbase.Checkpoint) error {
	if strings.HasPrefix(c.Partition, l.partition) {
		return errors.New("killed")
	}
	return l.SyncLog.SetCheckpoint(ctx, c)
}

func TestSyncKilledBetweenImportAndCheckpoint(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := dayOfNotices(t)
		r.Runner.Log = dyingLog{r.Store, "notice/" + notice2 + "/"}
		if err := r.Run(t, scope, source(s)); err == nil || !strings.Contains(err.Error(), "killed") {
			t.Fatalf("run: %v, want killed", err)
		}
		r.Runner.Log = r.Store
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		// The notice imported and not recorded is imported again, as
		// unchanged; no other is.
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		if got := []int{s.Served(files[0]), s.Served(files[1]), s.Served(files[2])}; !slices.Equal(got, []int{1, 2, 1}) {
			t.Errorf("notices downloaded %v times, want [1 2 1]", got)
		}
		if st := r.State(t); st.Partitions != 4 || st.Files != 6 || st.Inserted != 7 {
			t.Errorf("state %+v, want 4 partitions, 6 files read (the list twice), 6 lots and an event", st)
		}
	})
}

func TestSyncToday(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, _ := dayOfNotices(t)
		r.Runner.Now = func() time.Time { return theDay.Add(15 * time.Hour) }
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		if st := r.State(t); st.Partitions != 3 || !st.Through.IsZero() {
			t.Errorf("state %+v, want the 3 notices completed and not the day, which goes on", st)
		}
		// The next run asks for the list again, and downloads only what
		// it did not import.
		const later = "22000100690000000342"
		s.Add(theDay, "notice", later, notice(t, later))
		asked := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 2 {
			t.Errorf("the next run sent %d requests, want 2: the list and the new notice", n)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3, later))
	})
}

func TestSyncRefusesAnotherHost(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := torgitest.New(t)
		other := torgitest.New(t)
		// A list of one service naming a document of the other.
		name := other.Add(theDay, "notice", notice1, notice(t, notice1))
		s.Inject(fault(torgitest.ListFile(theDay), func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"listObjects": [{"documentType": "notice", "regNum": "`+notice1+`", "href": "`+other.URL()+`/docs/`+name+`"}]}`)
		}))
		err := r.Run(t, scope, source(s))
		if err == nil || !strings.Contains(err.Error(), "is not on") {
			t.Fatalf("run: %v, want the href refused", err)
		}
		if other.Requests("") != 0 {
			t.Error("the sync asked another host")
		}
	})
}

func TestWalk(t *testing.T) {
	moscow := time.FixedZone("MSK", 3*60*60)
	for _, tc := range []struct {
		name  string
		scope harvest.Scope
		want  []string
	}{
		{"a UTC day", harvest.Scope{Since: theDay, Until: theDay.AddDate(0, 0, 1)}, []string{"2026-04-22"}},
		{"a Moscow day takes the end of the UTC day before",
			harvest.Scope{Since: time.Date(2026, 4, 22, 0, 0, 0, 0, moscow), Until: time.Date(2026, 4, 23, 0, 0, 0, 0, moscow)},
			[]string{"2026-04-21", "2026-04-22"}},
		{"up to now", harvest.Scope{Since: theDay.Add(-time.Hour), Until: theDay.Add(time.Hour)}, []string{"2026-04-21", "2026-04-22"}},
		{"nothing", harvest.Scope{Since: theDay, Until: theDay}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range walk(tc.scope) {
				got = append(got, d.name())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("days (-want +got):\n%s", diff)
			}
		})
	}
	if got, want := (day{theDay}).listFile(DefaultStructure), "data-20260422T0000-20260423T0000-structure-20240401.json"; got != want {
		t.Errorf("list file %s, want %s", got, want)
	}
}

func fault(prefix string, do func(http.ResponseWriter, *http.Request)) torgitest.Fault {
	return torgitest.Fault{Prefix: prefix, Do: do}
}

// page answers a document with a page of the portal.
func page(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, "<!DOCTYPE html><html><head><title>ГИС Торги</title></head><body></body></html>")
}
