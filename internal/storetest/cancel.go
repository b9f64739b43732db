package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// cancelTenders is how many tenders the cancel test searches through.
const cancelTenders = 3000

// testCancel checks that a search whose context is cancelled, before it
// starts or while it checks thousands of candidates in Go, returns the
// context's error and stops, and that a cancelled Put stores nothing.
func testCancel(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	putMany(t, st)
	// A phrase of an exact word and a stemmed one is checked in Go by the
	// SQLite store; the PostgreSQL store checks phrases in Go when the kind
	// has a record whose positions its index cannot keep all of, which the
	// long tender is. The last page is asked for, so that every candidate is
	// checked even when the total is known.
	s := tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, `"=поставка товаров"`, query.MCP),
		Page: cancelTenders / tenderbase.DefaultPageSize}

	p, err := st.Search(context.Background(), s)
	if err != nil || p.Total != cancelTenders+1 || len(p.Items) != 1 {
		t.Fatalf("Search: total %d, %d on the last page, error %v; want %d found", p.Total, len(p.Items), err, cancelTenders+1)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = st.Search(ctx, s)
	wantCancelled(t, "Search with a cancelled context", err, context.Canceled)

	// Cancelled a tenth of the way through its candidates, the search
	// stops there: it returns the context's error, and asks the context
	// little more once it has seen it cancelled. Counted, not timed, so
	// that a slow machine cannot fail it.
	trip := newTripContext(cancelTenders / 10)
	_, err = st.Search(trip, s)
	wantCancelled(t, "Search cancelled while it checks candidates", err, context.Canceled)
	if after := trip.asked.Load() - cancelTenders/10; after > 20 {
		t.Errorf("Search cancelled while it checks candidates asked the context %d more times after it was cancelled, "+
			"as if it went on through its candidates", after)
	}

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	late := tender("0373200041524009999", tenderbase.Law44, 77, 1, "Поставка товаров", polyclinic())
	_, err = st.Put(ctx, []tenderbase.Record{late})
	wantCancelled(t, "Put with a cancelled context", err, context.Canceled)
	if _, err := st.Get(context.Background(), tenderbase.KindTender, late.PurchaseNumber); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("Get of the tender of a cancelled Put: %v, want not found", err)
	}
}

// putMany stores cancelTenders short tenders and one long one, all of which
// say "поставка товаров".
func putMany(t *testing.T, st tenderbase.Store) {
	t.Helper()
	var rs []tenderbase.Record
	for i := range cancelTenders {
		rs = append(rs, tender(fmt.Sprintf("0373200041524%06d", i), tenderbase.Law44, 77, i%300,
			fmt.Sprintf("Поставка товаров для нужд учреждения № %d", i), polyclinic()))
		if len(rs) == 1000 {
			put(t, st, rs...)
			rs = nil
		}
	}
	long := tender("0373200041524100000", tenderbase.Law44, 77, 1,
		strings.Repeat("Поставка товаров ", 300), polyclinic())
	put(t, st, append(rs, long)...)
}

func wantCancelled(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: error %v, want %v", what, err, want)
	}
}

// tripContext is a context that its own questions cancel: the first calls
// of Err find it live, and from then on it is cancelled, so that a test
// cancels work in the middle without a clock. The stores ask ctx.Err()
// for every candidate they check in Go.
type tripContext struct {
	context.Context
	live  int64        // the calls of Err that find it live
	asked atomic.Int64 // the calls of Err so far
	done  chan struct{}
	once  sync.Once
}

func newTripContext(live int64) *tripContext {
	return &tripContext{Context: context.Background(), live: live, done: make(chan struct{})}
}

func (c *tripContext) Done() <-chan struct{} { return c.done }

func (c *tripContext) Err() error {
	if c.asked.Add(1) <= c.live {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}
