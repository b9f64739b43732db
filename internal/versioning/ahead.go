package versioning

import (
	"sync"
	"sync/atomic"

	"github.com/tenderbase/tenderbase"
)

// Ahead computes a value of each record of a write, such as the analysis
// of its text, on a goroutine of its own and in the records' order, while
// the store's writer goes through them. The analysis is CPU alone, and a
// writer that did it between its statements kept one core busy while the
// other waited: at 100,000 tenders into SQLite, 7 of the writer's 61
// seconds were analysis.
//
// The writer asks for a record's value when it needs it (Of): it takes
// the value computed ahead, waits for one being computed, or computes it
// itself when the goroutine has not come to the record yet, so that the
// two share the work when the writer is the faster. A nil Ahead computes
// every value when asked.
type Ahead[T any] struct {
	entries map[tenderbase.Record]*aheadEntry[T]
	stop    atomic.Bool
	done    sync.WaitGroup
}

// aheadEntry is the value of one record: claimed by whoever computes it
// first, the goroutine or the writer; ready is closed once v is set.
type aheadEntry[T any] struct {
	claimed atomic.Bool
	ready   chan struct{}
	v       T
}

// ComputeAhead starts computing f of each of records on a goroutine of
// its own. f is that goroutine's alone: it may keep state (a stemmer's
// memory of words) that no other goroutine touches. The records must not
// change until Stop.
func ComputeAhead[T any](records []tenderbase.Record, f func(tenderbase.Record) T) *Ahead[T] {
	a := &Ahead[T]{entries: make(map[tenderbase.Record]*aheadEntry[T], len(records))}
	for _, r := range records {
		if _, ok := a.entries[r]; !ok {
			a.entries[r] = &aheadEntry[T]{ready: make(chan struct{})}
		}
	}
	a.done.Go(func() {
		for _, r := range records {
			if a.stop.Load() {
				return
			}
			a.entries[r].compute(r, f)
		}
	})
	return a
}

// compute computes the entry's value with f unless another has claimed
// it, and reports whether it did.
func (e *aheadEntry[T]) compute(r tenderbase.Record, f func(tenderbase.Record) T) bool {
	if !e.claimed.CompareAndSwap(false, true) {
		return false
	}
	e.v = f(r)
	close(e.ready)
	return true
}

// Of returns the value of r: the one computed ahead, or f(r) computed now
// when nothing has begun to compute it or r is not among the records. f
// is the caller's, as ComputeAhead's is the goroutine's.
func (a *Ahead[T]) Of(r tenderbase.Record, f func(tenderbase.Record) T) T {
	if a == nil {
		return f(r)
	}
	e := a.entries[r]
	if e == nil {
		return f(r)
	}
	if !e.compute(r, f) {
		<-e.ready
	}
	return e.v
}

// Stop ends the goroutine, once the value it is computing is done, and
// waits for it. The values already computed stay readable.
func (a *Ahead[T]) Stop() {
	if a == nil {
		return
	}
	a.stop.Store(true)
	a.done.Wait()
}
