package postgres

import (
	"fmt"
	"sync"
)

// maxTotals bounds the cached totals; the cache is emptied when full.
const maxTotals = 4096

// totals caches the exact totals of searches for one generation of the
// data (table generation). Counting the matches of a common word reads all
// of them, while turning the pages of one search asks for the same total
// again and again. A search reads the generation in the snapshot it counts
// in, so a total cached under a generation is the total of every snapshot
// of that generation, on every server.
type totals struct {
	mu  sync.Mutex
	gen int64 // generation of m
	m   map[string]int
}

func newTotals() *totals { return &totals{m: map[string]int{}} }

// get returns the total of key in generation gen.
func (t *totals) get(gen int64, key string) (int, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen != gen {
		return 0, false
	}
	n, ok := t.m[key]
	return n, ok
}

// set stores the total of key, counted in generation gen. A total of an
// older generation than the cached ones, from a search that began before
// a write, is dropped.
func (t *totals) set(gen int64, key string, n int) {
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

// totalKey identifies the count of a selection: its conditions and their
// arguments.
func (sel selection) totalKey() string {
	where, args := sel.where(false)
	return fmt.Sprintf("%s\x00%q", where, args)
}
