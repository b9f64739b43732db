package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// cancelTenders is how many tenders the cancel test searches through.
const cancelTenders = 3000

// testCancel checks that a search whose context is cancelled, before it
// starts or while it checks thousands of candidates in Go, returns the
// context's error at once, and that a cancelled Put stores nothing.
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

	start := time.Now()
	p, err := st.Search(context.Background(), s)
	if err != nil || p.Total != cancelTenders+1 || len(p.Items) != 1 {
		t.Fatalf("Search: total %d, %d on the last page, error %v; want %d found", p.Total, len(p.Items), err, cancelTenders+1)
	}
	whole := time.Since(start)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = st.Search(ctx, s)
	wantCancelled(t, "Search with a cancelled context", err, context.Canceled)

	ctx, cancel = context.WithTimeout(context.Background(), whole/10)
	defer cancel()
	start = time.Now()
	_, err = st.Search(ctx, s)
	elapsed := time.Since(start)
	wantCancelled(t, "Search that times out", err, context.DeadlineExceeded)
	t.Logf("the whole search took %v; timed out after %v, it returned after %v", whole, whole/10, elapsed)
	if slack := max(whole/2, 50*time.Millisecond); elapsed > whole/10+slack {
		t.Errorf("Search that times out after %v returned after %v, more than %v later; the whole search takes %v",
			whole/10, elapsed, slack, whole)
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
