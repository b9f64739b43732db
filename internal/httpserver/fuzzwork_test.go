package httpserver_test

import (
	"context"
	"sync/atomic"

	"github.com/tenderbase/tenderbase"
)

// workCounter is the store of the fuzz targets: it counts the calls a
// request makes of it and the records it hands back, the work an input
// causes, so that a blow-up fails the input by its work rather than by
// the clock. It has the optional methods of the stores that the tools
// look for, and says what it wraps, as metrics.Store does.
type workCounter struct {
	keyedStore
	calls, records atomic.Int64
}

// work is what a request asked of a workCounter.
type work struct{ calls, records int64 }

// reset starts the count of a request's work.
func (w *workCounter) reset() {
	w.calls.Store(0)
	w.records.Store(0)
}

func (w *workCounter) done() work { return work{w.calls.Load(), w.records.Load()} }

func (w *workCounter) count(records int) {
	w.calls.Add(1)
	w.records.Add(int64(records))
}

func (w *workCounter) Put(ctx context.Context, rs []tenderbase.Record) (tenderbase.PutResult, error) {
	w.count(len(rs))
	return w.keyedStore.Put(ctx, rs)
}

func (w *workCounter) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	w.count(1)
	return w.keyedStore.Get(ctx, k, key)
}

func (w *workCounter) Versions(ctx context.Context, k tenderbase.Kind, key string) ([]tenderbase.Record, error) {
	recs, err := w.keyedStore.Versions(ctx, k, key)
	w.count(len(recs))
	return recs, err
}

func (w *workCounter) Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error) {
	p, err := w.keyedStore.Search(ctx, s)
	w.count(len(p.Items))
	return p, err
}

func (w *workCounter) GetMany(ctx context.Context, k tenderbase.Kind, keys []string) (map[string]tenderbase.Record, error) {
	recs, err := w.keyedStore.(tenderbase.ManyGetter).GetMany(ctx, k, keys)
	w.count(len(recs))
	return recs, err
}

func (w *workCounter) Changes(ctx context.Context, q tenderbase.FeedQuery) (tenderbase.FeedPage, error) {
	p, err := w.keyedStore.(tenderbase.ChangeFeed).Changes(ctx, q)
	w.count(len(p.Entries))
	return p, err
}

// standingKeeper is the stores' reading of kept tender standings, which
// the tools look for.
type standingKeeper interface {
	TenderStandings(ctx context.Context, numbers []string) (map[string]tenderbase.TenderStanding, error)
}

func (w *workCounter) TenderStandings(ctx context.Context, numbers []string) (map[string]tenderbase.TenderStanding, error) {
	w.count(len(numbers))
	return w.keyedStore.(standingKeeper).TenderStandings(ctx, numbers)
}

// Unwrap returns the wrapped store, where the tools find what it does not
// count, such as the subscriptions.
func (w *workCounter) Unwrap() tenderbase.Store { return w.keyedStore }
