package versioning

import (
	"cmp"
	"sync"
)

// maxTotals bounds the cached totals; the cache is emptied when full.
const maxTotals = 4096

// Totals caches the exact totals of searches for one generation of the
// data. Counting the matches of a common word reads all of them, while
// turning the pages of one search asks for the same total again and again.
// Each store says what a generation is and when a total may be cached
// under one; the cache only keeps the newest generation's totals.
type Totals[G cmp.Ordered] struct {
	mu  sync.Mutex
	gen G // generation of m
	m   map[string]int
}

// NewTotals returns an empty cache.
func NewTotals[G cmp.Ordered]() *Totals[G] { return &Totals[G]{m: map[string]int{}} }

// Get returns the total of key in generation gen.
func (t *Totals[G]) Get(gen G, key string) (int, bool) {
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
func (t *Totals[G]) Set(gen G, key string, n int) {
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
