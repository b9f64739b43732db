package tools

import (
	"context"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// keeperCounter is a store that counts the calls of its TenderStandings.
type keeperCounter struct {
	*sqlite.Store
	calls int
}

func (k *keeperCounter) TenderStandings(ctx context.Context, numbers []string) (map[string]tenderbase.TenderStanding, error) {
	k.calls++
	return k.Store.TenderStandings(ctx, numbers)
}

// A search page of tenders reads their standings in one call to the store
// that keeps them, not tender by tender, however the search widens its
// query.
func TestSearchReadsStandingsAtOnce(t *testing.T) {
	tender := &tenderbase.Tender{PurchaseNumber: "0373200041525000031", Law: "44", Version: 1,
		Title: "Поставка бумаги", PublishedAt: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}
	store := &keeperCounter{Store: storeOf(t, tender)}
	set := New(store, nil)
	for _, args := range []string{`{"query": "бумага"}`, `{"query": "бумага", "exact": true}`} {
		store.calls = 0
		if _, err := call(t, set, asPlan(tenderbase.PlanCorporate), "ru.search", args); err != nil {
			t.Fatal(err)
		}
		if store.calls != 1 {
			t.Errorf("%s: TenderStandings called %d times, want 1", args, store.calls)
		}
	}
}
