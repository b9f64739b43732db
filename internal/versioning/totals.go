package versioning

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/tenderbase/tenderbase"
)

// maxTotals bounds the cached totals; the cache is emptied when full.
const maxTotals = 4096

// Totals caches the exact totals of searches for one generation of the
// data. Counting the matches of a common word reads all of them, while
// turning the pages of one search asks for the same total again and again.
// A generation is a number kept in the data and raised by every Put that
// changes something, in its transaction; a search reads it in the snapshot
// it counts in, so that a total cached under a generation is the total of
// every snapshot of that generation, whichever process or server wrote it.
// The cache only keeps the newest generation's totals.
type Totals struct {
	mu  sync.Mutex
	gen int64 // generation of m
	m   map[string]int
}

// NewTotals returns an empty cache.
func NewTotals() *Totals { return &Totals{m: map[string]int{}} }

// Get returns the total of key in generation gen.
func (t *Totals) Get(gen int64, key string) (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen {
		return 0, false
	}
	n, ok := t.m[key]
	return n, ok
}

// Set stores the total of key, counted in generation gen. A total of an
// older generation than the cached ones, from a search that began before a
// write, is dropped.
func (t *Totals) Set(gen int64, key string, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if gen < t.gen {
		return
	}
	if gen != t.gen || len(t.m) >= maxTotals {
		clear(t.m)
		t.gen = gen
	}
	t.m[key] = n
}

// Forget drops every cached total, so that the next search counts anew, as
// the first search after a write does.
func (t *Totals) Forget() {
	t.mu.Lock()
	defer t.mu.Unlock()
	clear(t.m)
}

// TotalKey identifies the total of a search: the whole search but for the
// place of its page (Page, PageSize, Cursor), which the total does not
// depend on. It is derived from every other field of tenderbase.Search,
// written out in full with their types, so that two searches that may
// count differently never share a key, whatever fields the search gains;
// a key made of a store's SQL and its arguments once wrote every rid bound
// of a published-date range alike. Filters and lookups are put in one
// order first, since their order changes nothing.
func TotalKey(q tenderbase.Search) string {
	q.Page, q.PageSize, q.Cursor = 0, 0, ""
	q.Filters = q.Filters.Normalize()
	slices.Sort(q.Filters.Regions)
	slices.Sort(q.Filters.Countries)
	slices.Sort(q.Filters.Laws)
	q.Where = slices.SortedFunc(slices.Values(q.Where), func(a, b tenderbase.Lookup) int {
		return cmp.Or(cmp.Compare(a.Field, b.Field), cmp.Compare(a.Value, b.Value))
	})
	return fmt.Sprintf("%#v", q)
}
