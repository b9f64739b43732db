package tools

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// Both stores read the states they keep for a whole page at once, so that
// ru.search does not derive them tender by tender.
var _ = []standingKeeper{(*sqlite.Store)(nil), (*postgres.Store)(nil)}

// demoStores returns both stores, each loaded with the demo dataset.
func demoStores(t *testing.T) map[string]tenderbase.Store {
	t.Helper()
	stores := bothStores(t)
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range stores {
		if _, err := s.Put(context.Background(), recs); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return stores
}

// statePage is the part of a ru.search answer the state tests read.
type statePage struct {
	Total int `json:"total"`
	Items []struct {
		PurchaseNumber string `json:"purchase_number"`
		State          string `json:"state"`
	} `json:"items"`
}

// searchStates pages through ru.search with args (a JSON object's members
// without braces) and returns the state each item shows, and the total.
func searchStates(t *testing.T, set *Set, args string) (map[string]string, int) {
	t.Helper()
	got := map[string]string{}
	total := -1
	for page := 0; total < 0 || page*tenderbase.DefaultPageSize < total; page++ {
		p, _ := decodeCall[statePage](t, set, tenderbase.PlanCorporate, "ru.search", fmt.Sprintf(`{%s, "page": %d}`, args, page))
		total = p.Total
		for _, it := range p.Items {
			got[it.PurchaseNumber] = it.State
		}
	}
	return got, total
}

// TestSearchShowsDerivedState checks, on both stores, that ru.search shows
// of every demo tender the state ru.detail derives, and selects tenders by
// it with exact totals; a protocol or event put later moves the tender.
func TestSearchShowsDerivedState(t *testing.T) {
	ctx := context.Background()
	for name, store := range demoStores(t) {
		t.Run(name, func(t *testing.T) {
			set := New(store, nil)
			all, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, PageSize: tenderbase.MaxPageSize})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			counts := map[string]int{}
			for _, r := range all.Items {
				want[r.Key()] = detailState(t, set, r.Key()).State
				counts[want[r.Key()]]++
			}
			wantCounts := map[string]int{tenderbase.TenderCompleted: 81, tenderbase.TenderFailed: 18, tenderbase.TenderCancelled: 1}
			if diff := cmp.Diff(wantCounts, counts); diff != "" {
				t.Errorf("states of the demo tenders by ru.detail (-want +got):\n%s", diff)
			}
			for _, number := range []string{"0162307330524391275", "32371456824", "32493281398"} {
				got, total := searchStates(t, set, `"query": "`+number+`"`)
				if diff := cmp.Diff(map[string]string{number: want[number]}, got); diff != "" || total != 1 {
					t.Errorf("ru.search %s: total %d, states (-want +got):\n%s", number, total, diff)
				}
				byNum, _ := decodeCall[struct {
					Tender struct{ State string } `json:"tender"`
				}](t, set, tenderbase.PlanFree, "ru.contractByNum", `{"tend_num": "`+number+`"}`)
				if byNum.Tender.State != want[number] {
					t.Errorf("ru.contractByNum %s: state %q, want %q", number, byNum.Tender.State, want[number])
				}
			}
			for _, state := range tenderbase.TenderStates {
				got, total := searchStates(t, set, `"query": "`+broadQuery+`", "state": "`+state+`"`)
				wantIn := map[string]string{}
				for n, s := range want {
					if s == state {
						wantIn[n] = s
					}
				}
				if diff := cmp.Diff(wantIn, got); diff != "" || total != len(wantIn) {
					t.Errorf("ru.search state %s: total %d, want %d; (-want +got):\n%s", state, total, len(wantIn), diff)
				}
			}
			cancelLater(t, store, "0162307330524391275")
			got, total := searchStates(t, set, `"query": "`+broadQuery+`", "state": "cancelled"`)
			if got["0162307330524391275"] != tenderbase.TenderCancelled || total != 2 {
				t.Errorf("after a cancellation: ru.search state cancelled gives %d tenders: %v", total, got)
			}
			if _, total := searchStates(t, set, `"query": "`+broadQuery+`", "state": "completed"`); total != 80 {
				t.Errorf("after a cancellation: ru.search state completed gives %d tenders, want 80", total)
			}
		})
	}
}

// broadQuery matches every demo tender: by its customer, an institution, or
// its placing method, electronic.
const broadQuery = "учреждение | электронной"

// cancelLater puts a cancellation of the tender with the number.
func cancelLater(t *testing.T, store tenderbase.Store, number string) {
	t.Helper()
	_, err := store.Put(context.Background(), []tenderbase.Record{&tenderbase.TenderEvent{
		ID: "cancel-" + number, PurchaseNumber: number, Type: tenderbase.EventCancellation,
		Document: "fcsNotificationCancel", PublishedAt: day(28),
	}})
	if err != nil {
		t.Fatal(err)
	}
}
