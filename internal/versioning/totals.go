package versioning

import "sync"

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
