package storetest

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// testBatch checks that a Put of many records does what a Put of each in
// turn does, whatever a store does to put them faster: the same result,
// the same records in the same order, found by the same words. The batch
// mixes what a store may insert together (new keys, several in one
// second) with what it may not: a key twice, a key stored before, a key
// withdrawn in the same batch.
func testBatch(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	stored := tender("0373200041524000901", tenderbase.Law44, 77, 3, "Поставка мебели", polyclinic())
	batch := []tenderbase.Record{
		tender("0373200041524000902", tenderbase.Law44, 77, 5, "Поставка бумаги офисной", polyclinic()),
		tender("0373200041524000903", tenderbase.Law44, 50, 5, "Поставка картриджей", polyclinic()), // the same second
		version(1, 6, "Ремонт кровли"),
		stored, // unchanged
		tender("0373200041524000904", tenderbase.Law223, 16, 7, "Поставка бумаги для принтеров", polyclinic()),
		version(2, 8, "Ремонт кровли и фасада"), // the same key again, moved to another day
		withdrawal("w1", "0373200041524000904"),
		tender("0373200041524000905", tenderbase.Law44, 77, 5, "Услуги уборки", polyclinic()), // the same second again
	}
	together, oneByOne := openStore(t, open), openStore(t, open)
	put(t, together, stored)
	put(t, oneByOne, stored)
	got := put(t, together, batch...)
	var want tenderbase.PutResult
	for _, r := range batch {
		want.Add(put(t, oneByOne, r))
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("Put of the batch (-one by one +together):\n%s", diff)
	}
	for _, s := range []tenderbase.Search{
		{Kind: tenderbase.KindTender},
		{Kind: tenderbase.KindTender, Query: mustParse(t, "поставка", query.MCP)},
		{Kind: tenderbase.KindTender, Query: mustParse(t, `"поставка бумаги"`, query.MCP)},
		{Kind: tenderbase.KindTender, Query: mustParse(t, "кровли", query.MCP)},
		{Kind: tenderbase.KindTender, Query: mustParse(t, "фасада", query.MCP)},
		{Kind: tenderbase.KindTender, Filters: tenderbase.Filters{Regions: []int{77}}},
		{Kind: tenderbase.KindWithdrawal},
	} {
		wantKeys, wantTotal := searchAll(t, oneByOne, s)
		gotKeys, gotTotal := searchAll(t, together, s)
		if diff := gocmp.Diff(wantKeys, gotKeys); diff != "" || gotTotal != wantTotal {
			t.Errorf("search %+v: total %d, want %d (-one by one +together):\n%s", s, gotTotal, wantTotal, diff)
		}
	}
}
