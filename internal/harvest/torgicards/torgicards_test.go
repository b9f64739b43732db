package torgicards

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/torgicards/cardstest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/torgi"
)

const fixtures = "../../source/torgi/testdata/"

// theDay is the day most cards are published; noon is the clock.
var (
	theDay = time.Date(2026, 4, 22, 0, 0, 0, 0, time.UTC)
	noon   = theDay.Add(12 * time.Hour)
)

// scope asks for the cards published since theDay began.
var scope = harvest.Scope{Since: theDay, Until: noon}

// quick retries at once: the faults are what is tested, not the waits.
var quick = harvesttest.Quick(1, 5)

var decoders = []importer.Decoder{torgi.Format{}}

// eachStore runs test on a fresh SQLite store and a fresh PostgreSQL one,
// at noon.
func eachStore(t *testing.T, test func(t *testing.T, r *harvesttest.Rig)) {
	harvesttest.EachStoreAt(t, decoders, noon, test)
}

func source(s *cardstest.Service) *Source {
	return New(Config{BaseURL: s.URL(), Fetch: quick}, nil)
}

// publish publishes count notices of region, of two lots each, a minute
// apart from first, and returns their cards' ids, newest first.
func publish(t *testing.T, s *cardstest.Service, first time.Time, count, region int) []string {
	t.Helper()
	template, err := os.ReadFile(fixtures + "lotcard-229fz.json")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range count {
		at := first.Add(time.Duration(i) * time.Minute)
		notice := fmt.Sprintf("22%03d%015d", region, at.Unix())
		// The service gives the lots of a moment in the order added.
		ids = append([]string{s.Add(template, notice, 1, at, region), s.Add(template, notice, 2, at, region)}, ids...)
	}
	return ids
}

// checkLots fails unless the store holds the lots, each once.
func checkLots(t *testing.T, r *harvesttest.Rig, want ...[]string) {
	t.Helper()
	keys := slices.Sorted(slices.Values(slices.Concat(want...)))
	r.CheckRecords(t, map[tenderbase.Kind][]string{tenderbase.KindLot: keys})
}

// cursor returns the value of a checkpoint, or "" without one.
func cursor(t *testing.T, r *harvesttest.Rig, partition string) string {
	t.Helper()
	c, err := r.Store.Checkpoint(context.Background(), "torgi-cards", partition)
	if tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return c.Value
}

// markOf returns the cursor a walk that met card id of moment at first
// writes.
func markOf(at time.Time, id string) string { return mark{at: at, id: id}.String() }

func TestSyncNewestFirstUntilKnown(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		older := publish(t, s, theDay.Add(-4*time.Hour), 6, 23)
		today := publish(t, s, theDay.Add(time.Hour), 9, 23)
		// The first run stops at the first card published before Since,
		// on page 1, and imports that page whole.
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, today, older[:2])
		if n := s.Requests(""); n != 2 {
			t.Errorf("%d requests, want pages 0 and 1", n)
		}
		st := r.State(t)
		if st.Partitions != 1 || st.Files != 2 || st.LastError != "" || !st.Through.Equal(noon) {
			t.Errorf("state %+v, want 1 partition, 2 files, current to the start of the walk", st)
		}
		if got, want := cursor(t, r, "cursor"), markOf(theDay.Add(time.Hour+8*time.Minute), today[0]); got != want {
			t.Errorf("cursor %q, want %q", got, want)
		}
		// Nothing new: the next run asks the first page only.
		asked := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 1 {
			t.Errorf("a run with nothing new sent %d requests, want 1", n)
		}
		// Twelve new cards: the run reads down to the cursor, on page 1.
		later := publish(t, s, theDay.Add(11*time.Hour), 6, 23)
		asked = s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 2 {
			t.Errorf("a run after 12 new cards sent %d requests, want 2", n)
		}
		checkLots(t, r, later, today, older[:2])
		if got, want := cursor(t, r, "cursor"), markOf(theDay.Add(11*time.Hour+5*time.Minute), later[0]); got != want {
			t.Errorf("cursor %q, want %q", got, want)
		}
	})
}

func TestSyncThroughFaults(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		cards := publish(t, s, theDay.Add(time.Hour), 9, 23)
		s.Inject(
			fault(cardstest.Key(0, 0), harvesttest.Unavailable),
			fault(cardstest.Key(0, 0), harvesttest.Slow),
			fault(cardstest.Key(0, 1), cutShort),
			fault(cardstest.Key(0, 1), harvesttest.Truncated(`{"content": [{"id": "`)),
			fault(cardstest.Key(0, 1), portal),
			fault(cardstest.Key(0, 1), empty),
		)
		src := source(s)
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		if n := src.Stats().Retries; n != 6 {
			t.Errorf("%d retries, want one for each fault", n)
		}
		checkLots(t, r, cards)
		if st := r.State(t); st.Partitions != 1 || st.Files != 2 || st.LastError != "" || !st.Through.Equal(noon) {
			t.Errorf("state %+v, want the walk complete in 2 pages", st)
		}
	})
}

func TestSyncFailedWalkIsRedone(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		cards := publish(t, s, theDay.Add(time.Hour), 9, 23)
		// Page 1 answers an empty body to every attempt, as page 1000 does:
		// it is not taken for the end of the search.
		for range quick.Attempts {
			s.Inject(fault(cardstest.Key(0, 1), empty))
		}
		err := r.Run(t, scope, source(s))
		if err == nil || !strings.Contains(err.Error(), "page 1") || !strings.Contains(err.Error(), "not a whole search page") {
			t.Fatalf("run: %v, want page 1 failed", err)
		}
		st := r.State(t)
		if st.Partitions != 0 || !st.Through.IsZero() || !strings.Contains(st.LastError, "page 1") || cursor(t, r, "cursor") != "" {
			t.Errorf("state %+v, want no cursor, nothing current, the failed search named", st)
		}
		checkLots(t, r, cards[:10])
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, cards)
		if st := r.State(t); st.Partitions != 1 || st.LastError != "" || !st.Through.Equal(noon) {
			t.Errorf("state after the next run %+v", st)
		}
	})
}

func TestSyncInterruptedThenResumes(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		older := publish(t, s, theDay.Add(-time.Hour), 3, 23)
		cards := publish(t, s, theDay.Add(time.Hour), 9, 23)
		ctx, cancel := context.WithCancel(context.Background())
		s.Inject(fault(cardstest.Key(0, 1), func(w http.ResponseWriter, req *http.Request) {
			cancel()
			<-req.Context().Done()
		}))
		err := r.Runner.Run(ctx, scope, []harvest.Source{source(s)})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted run: %v", err)
		}
		if st := r.State(t); st.LastError != "interrupted" || st.Partitions != 0 || cursor(t, r, "cursor") != "" {
			t.Errorf("state %+v, want interrupted with no cursor", st)
		}
		checkLots(t, r, cards[:10])
		// The next run walks from the newest again; page 0 changes nothing.
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, cards, older[:2])
		asked := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 1 {
			t.Errorf("a run after a complete walk sent %d requests, want 1", n)
		}
	})
}

// dyingLog is a sync log whose process dies, as far as the sync can tell,
// when it is to write the cursor: after the pages were imported.
type dyingLog struct{ tenderbase.SyncLog }

func (dyingLog) SetCheckpoint(context.Context, tenderbase.Checkpoint) error {
	return errors.New("killed")
}

func TestSyncKilledBeforeTheCursor(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		cards := publish(t, s, theDay.Add(time.Hour), 7, 23)
		r.Runner.Log = dyingLog{r.Store}
		if err := r.Run(t, scope, source(s)); err == nil || !strings.Contains(err.Error(), "killed") {
			t.Fatalf("run: %v, want killed", err)
		}
		r.Runner.Log = r.Store
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, cards)
		if st := r.State(t); st.Files != 4 || st.Inserted != 14 || st.Partitions != 1 {
			t.Errorf("state %+v, want both pages read twice, 14 lots stored once", st)
		}
	})
}

func TestSyncStopsAtTheLastPageGiven(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		cards := publish(t, s, theDay.Add(time.Hour), 20, 23)
		// The search gives two pages here, as torgi.gov.ru gives 1000: the
		// walk does not ask the next, which would answer an empty body.
		src := New(Config{BaseURL: s.URL(), Fetch: quick, MaxPages: 2}, nil)
		if err := r.Run(t, scope, src); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests(cardstest.Key(0, 2)); n != 0 {
			t.Errorf("page 2 asked %d times, want never", n)
		}
		checkLots(t, r, cards[:20])
		if got, want := cursor(t, r, "cursor"), markOf(theDay.Add(time.Hour+19*time.Minute), cards[0]); got != want {
			t.Errorf("cursor %q, want %q", got, want)
		}
	})
}

func TestSyncStopsAtTheServicesLastPage(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		s.Pages = 2 // the last says so, as page 999 of torgi.gov.ru does
		cards := publish(t, s, theDay.Add(time.Hour), 20, 23)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests(cardstest.Key(0, 2)); n != 0 {
			t.Errorf("page 2 asked %d times, want never", n)
		}
		checkLots(t, r, cards[:20])
		if st := r.State(t); st.Partitions != 1 || !st.Through.Equal(noon) {
			t.Errorf("state %+v, want the walk complete", st)
		}
	})
}

func TestSyncRegions(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		moscow := publish(t, s, theDay.Add(time.Hour), 3, 77)
		oblast := publish(t, s, theDay.Add(2*time.Hour), 2, 50)
		publish(t, s, theDay.Add(3*time.Hour), 4, 23)
		regions := harvest.Scope{Since: theDay, Regions: []int{77, 50}}
		if err := r.Run(t, regions, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, moscow, oblast)
		if s.Requests("all/") != 0 || s.Requests("77/") != 1 || s.Requests("50/") != 1 {
			t.Errorf("requests: all %d, 77 %d, 50 %d; want one page of each region", s.Requests("all/"), s.Requests("77/"), s.Requests("50/"))
		}
		if cursor(t, r, "cursor/77") == "" || cursor(t, r, "cursor/50") == "" || cursor(t, r, "cursor") != "" {
			t.Error("want a cursor for each region and none for all")
		}
		if st := r.State(t); st.Partitions != 2 || !st.Through.Equal(noon) {
			t.Errorf("state %+v", st)
		}
	})
}

func TestSyncRegionIgnored(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := cardstest.New(t)
		s.IgnoreRegion = true
		publish(t, s, theDay.Add(time.Hour), 3, 77)
		publish(t, s, theDay.Add(2*time.Hour), 2, 23)
		err := r.Run(t, harvest.Scope{Since: theDay, Regions: []int{77}}, source(s))
		if err == nil || !strings.Contains(err.Error(), "ignored dynSubjRF=77") {
			t.Fatalf("run: %v, want the filter found ignored", err)
		}
		checkLots(t, r, nil)
		if st := r.State(t); !st.Through.IsZero() || cursor(t, r, "cursor/77") != "" {
			t.Errorf("state %+v, want nothing current and no cursor", st)
		}
	})
}

func TestBound(t *testing.T) {
	at := theDay.Add(time.Hour)
	card := func(id string, published time.Time) cardRef {
		return cardRef{ID: id, FirstPublished: published.Format(time.RFC3339Nano)}
	}
	known := &mark{at: at, id: "1_1"}
	for _, tc := range []struct {
		name  string
		b     bound
		cards []cardRef
		want  bool
	}{
		{"newer cards", bound{cursor: known}, []cardRef{card("2_1", at.Add(time.Second))}, false},
		{"the cursor's card", bound{cursor: known}, []cardRef{card("2_1", at.Add(time.Second)), card("1_1", at)}, true},
		{"another card of the same moment", bound{cursor: known}, []cardRef{card("1_2", at)}, false},
		{"an older card", bound{cursor: known}, []cardRef{card("0_1", at.Add(-time.Millisecond))}, true},
		{"an undated card", bound{cursor: known}, []cardRef{{ID: "0_1"}}, false},
		{"dated by createDate", bound{cursor: known}, []cardRef{{ID: "0_1", CreateDate: "2026-04-21T09:02:11.101+00:00"}}, true},
		{"since, not reached", bound{since: at}, []cardRef{card("1_1", at)}, false},
		{"since, reached", bound{since: at}, []cardRef{card("0_1", at.Add(-time.Second))}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.reached(tc.cards); got != tc.want {
				t.Errorf("reached = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMark(t *testing.T) {
	m := mark{at: time.Date(2026, 4, 22, 10, 15, 0, 123e6, time.UTC), id: "23000042610000000031_3"}
	if got, want := m.String(), "2026-04-22T10:15:00.123Z 23000042610000000031_3"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	back, err := parseMark(m.String())
	if err != nil || !back.at.Equal(m.at) || back.id != m.id {
		t.Errorf("parseMark = %v, %v", back, err)
	}
	for _, bad := range []string{"", "2026-04-22", "yesterday 1_1", "2026-04-22T10:15:00Z "} {
		if _, err := parseMark(bad); err == nil {
			t.Errorf("parseMark(%q) took it", bad)
		}
	}
}

func TestReadPage(t *testing.T) {
	b, err := os.ReadFile(fixtures + "lotcards-search.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := readPage(strings.NewReader(string(b)))
	if err != nil || len(p.cards) != 3 || p.totalPages != 1000 || p.last || p.cards[0].ID != "23000042610000000031_3" {
		t.Fatalf("readPage: %+v, %v", p, err)
	}
	for _, bad := range []string{"", `{"content": [{"id": "1_1"}`, `{"totalPages": 0}`, "<html></html>"} {
		if _, err := readPage(strings.NewReader(bad)); err == nil {
			t.Errorf("readPage(%q) took it", bad)
		}
	}
}

func fault(prefix string, do func(http.ResponseWriter, *http.Request)) cardstest.Fault {
	return cardstest.Fault{Prefix: prefix, Do: do}
}

// cutShort ends a page in the middle, with no length announced: only the
// page's parse can tell.
func cutShort(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"pageable": {"pageNumber": 1}, "content": [{"id": "22023001776848400_1", "lotStatus": "PUBL`)
}

// portal answers with a page of the portal, 200 in HTML.
func portal(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, "<!DOCTYPE html><html><head><title>ГИС Торги</title></head><body></body></html>")
}

// empty answers 200 with an empty body, as the search does for page 1000.
func empty(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
}
