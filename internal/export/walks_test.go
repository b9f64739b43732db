package export

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// walkStores opens each store the walks are tested on, empty: SQLite, and
// PostgreSQL where it is reachable (required with
// TENDERBASE_REQUIRE_POSTGRES=1).
var walkStores = map[string]func(t *testing.T) tenderbase.Store{
	"sqlite": func(t *testing.T) tenderbase.Store {
		s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "walks.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	},
	"postgres": func(t *testing.T) tenderbase.Store {
		s, err := postgres.Open(t.Context(), pgtest.URL(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	},
}

// TestWalks walks the complaints of the export page by page, as its
// clients do, with a Walks, and checks every page against the same page
// found without one, by its number alone and with the results read one
// search a complaint, as the export found pages before it had Walks: the
// same records, total and outcomes, also when complaints are put between
// two pages, which moves every page after them.
func TestWalks(t *testing.T) {
	for name, open := range walkStores {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			putWalked(t, store, 0, 23)
			for i, tc := range []struct {
				name   string
				query  string
				plan   tenderbase.Plan
				rowCap int
				// cursors is how many searches by cursor the walk makes:
				// pages 1 and 2, and 4 unless it lies past the row cap,
				// and 3, whose cursor fails.
				cursors int64
			}{
				{"all", "mode=fasEIS&per_page=4", tenderbase.PlanCorporate, 0, 4},
				{"one customer", "mode=fasEIS&per_page=1&fasCustomerInn=" + walked[0].CustomerINN, tenderbase.PlanCorporate, 0, 4},
				{"row cap", "mode=fasEIS&per_page=4", tenderbase.PlanGuru, 10, 2},
				{"free", "mode=fasEIS&per_page=3", tenderbase.PlanFree, 0, 4},
			} {
				t.Run(tc.name, func(t *testing.T) {
					walker := &walkChecker{t: t, store: &cursorCounter{Store: store}, walks: &Walks{}, query: tc.query, plan: tc.plan, rowCap: tc.rowCap}
					for page := range 3 {
						walker.check(page)
					}
					if got := walker.store.byCursor.Load(); got != 2 {
						t.Errorf("pages 1 and 2 made %d searches by cursor, want 2", got)
					}
					// Newer complaints come first: every page after
					// them moves, and its cursor is stale.
					putWalked(t, store, 100+4*i, 2)
					walker.check(3)
					walker.check(4)
					if got := walker.store.byCursor.Load(); got != tc.cursors {
						t.Errorf("the walk made %d searches by cursor, want %d", got, tc.cursors)
					}
					walker.check(6) // a jump: by number
					walker.check(2) // back: by number
				})
			}
		})
	}
}

// walkChecker walks one request's pages through walks and checks each.
type walkChecker struct {
	t      *testing.T
	store  *cursorCounter
	walks  *Walks
	query  string
	plan   tenderbase.Plan
	rowCap int
}

// check finds page through the walks and without them, and compares.
func (w *walkChecker) check(page int) {
	w.t.Helper()
	q := parseRequest(w.t, fmt.Sprintf("%s&page=%d", w.query, page))
	ctx := context.Background()
	got, err := w.walks.Find(ctx, w.store, q, w.plan, w.rowCap)
	if err != nil {
		w.t.Fatalf("page %d: %v", page, err)
	}
	want, err := Find(ctx, searchOnly{w.store.Store}, q, w.plan, w.rowCap)
	if err != nil {
		w.t.Fatalf("page %d by number: %v", page, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		w.t.Errorf("page %d (-by number +walked):\n%s", page, diff)
	}
	if len(got.Records) == 0 && !got.PastCap {
		w.t.Errorf("page %d is empty: the test walks too far", page)
	}
}

func parseRequest(t *testing.T, query string) Request {
	t.Helper()
	values, err := ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Parse(values)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return q
}

// cursorCounter counts the searches by cursor, and passes Related on.
type cursorCounter struct {
	tenderbase.Store
	byCursor atomic.Int64
}

func (c *cursorCounter) Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error) {
	if s.Cursor != "" {
		c.byCursor.Add(1)
	}
	return c.Store.Search(ctx, s)
}

func (c *cursorCounter) Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error) {
	return c.Store.(relatedReader).Related(ctx, k, field, values)
}

// searchOnly is a store that only searches: the export reads the results
// of its complaints one search a complaint.
type searchOnly struct{ tenderbase.Store }

// walked are the complaints the walks read: one of every three with a
// check result, one of every five with two (the later one counts), and
// every fourth of the same customer as the first.
var walked = demoComplaints(200)

func demoComplaints(n int) []*tenderbase.Complaint {
	var cs []*tenderbase.Complaint
	for c := range demo.Complaints(7, n) {
		cs = append(cs, c)
	}
	for i, c := range cs {
		if i%4 == 0 {
			c.CustomerINN = cs[0].CustomerINN
		}
	}
	return cs
}

// putWalked puts n complaints of walked from the i-th, dated after every
// complaint put before them, and their results.
func putWalked(t *testing.T, store tenderbase.Store, from, n int) {
	t.Helper()
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(from) * 24 * time.Hour)
	var recs []tenderbase.Record
	for i := from; i < from+n; i++ {
		c := *walked[i]
		c.DatePubl = base.Add(time.Duration(i-from) * time.Hour)
		recs = append(recs, &c)
		for j := range 1 + i%5/4 {
			if i%3 == 0 || j > 0 {
				recs = append(recs, &tenderbase.ComplaintResult{CheckResultNumber: fmt.Sprintf("r%d-%d", i, j), ComplaintNumber: c.ComplaintNumber,
					VersionNumber: 1, PublishDate: c.DatePubl.Add(time.Duration(j+1) * time.Hour), ComplaintResult: fmt.Sprintf("outcome %d of %d", j, i)})
			}
		}
	}
	if _, err := store.Put(context.Background(), recs); err != nil {
		t.Fatal(err)
	}
}

// TestWalksForget checks that Walks keeps the MaxWalks walks used last and
// forgets the one used longest ago, and that it learns nothing from a last
// page or a page whose generation the store does not say.
func TestWalksForget(t *testing.T) {
	var w Walks
	key := func(i int) walkKey { return walkKey{search: fmt.Sprint(i)} }
	next := func(i int) walkKey { return walkKey{search: fmt.Sprint(i), page: 1} }
	for i := range MaxWalks {
		w.learn(key(i), tenderbase.Page{Next: "c", Generation: 1})
	}
	if _, ok := w.start(next(0)); !ok {
		t.Fatal("the first walk is forgotten before the memo is full")
	}
	// Walk 0 was used last; walk 1 is the one used longest ago.
	w.learn(key(MaxWalks), tenderbase.Page{Next: "c", Generation: 1})
	for i, want := range map[int]bool{0: true, 1: false, 2: true, MaxWalks: true} {
		if _, ok := w.start(next(i)); ok != want {
			t.Errorf("walk %d remembered: %v, want %v", i, ok, want)
		}
	}
	w.learn(key(-1), tenderbase.Page{Generation: 1})
	w.learn(key(-2), tenderbase.Page{Next: "c"})
	for _, i := range []int{-1, -2} {
		if _, ok := w.start(next(i)); ok {
			t.Errorf("walk %d remembered", i)
		}
	}
}
