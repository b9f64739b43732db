package storetest

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Keys of the relevance records.
const (
	rSupplyOnce  = "0373200041525000101" // "поставка" once, among the objects of a long record, the newest
	rPaperOld    = "0373200041525000102" // "поставка бумаги" as its title
	rPaperNew    = "0373200041525000103" // the same title, a day later
	rGuard       = "0373200041525000104" // no "поставка"
	rSupplyTitle = "0373200041525000105" // "поставка" three times in its title
)

// RelevanceRecords are the tenders of CheckRelevance, each published on
// its own day, the least relevant last, so that no order by relevance is
// the order newest first.
func RelevanceRecords() []tenderbase.Record {
	customer := tenderbase.Party{INN: "7701000301", Name: "ГБУ «Жилищник района Хамовники»"}
	long := tenderbase.PurchaseObject{OKPD2Code: "43.91.19.110", Name: "Работы кровельные прочие: разборка старого покрытия, " +
		"устройство нового покрытия из наплавляемых материалов, поставка материалов и вывоз строительного мусора"}
	return []tenderbase.Record{
		tender(rSupplyOnce, tenderbase.Law44, 77, 106, "Ремонт кровли здания школы", customer, long),
		tender(rPaperOld, tenderbase.Law44, 77, 102, "Поставка бумаги", customer),
		tender(rPaperNew, tenderbase.Law44, 77, 103, "Поставка бумаги", customer),
		tender(rGuard, tenderbase.Law44, 77, 104, "Оказание услуг охраны", customer),
		tender(rSupplyTitle, tenderbase.Law223, 50, 105, "Поставка бумаги, поставка картриджей, поставка тонера", customer),
	}
}

// CheckRelevance checks the order of searches by relevance over a store
// holding RelevanceRecords, the same on every store: a word weighs more in
// a title than elsewhere and more said three times than once, equal scores
// come newest first, filters narrow the order without changing it, and
// pages by number and by cursor put together are the one page.
func CheckRelevance(t *testing.T, st tenderbase.Store) {
	ctx := context.Background()
	search := func(q string, f tenderbase.Filters) tenderbase.Search {
		return tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, q, query.MCP), Filters: f, Sort: tenderbase.SortRelevance}
	}
	for _, tc := range []struct {
		name string
		s    tenderbase.Search
		want []string
	}{
		{"one word", search("поставка", tenderbase.Filters{}), []string{rSupplyTitle, rPaperNew, rPaperOld, rSupplyOnce}},
		{"a form of it", search("поставки", tenderbase.Filters{}), []string{rSupplyTitle, rPaperNew, rPaperOld, rSupplyOnce}},
		{"a region", search("поставка", tenderbase.Filters{Regions: []int{77}}), []string{rPaperNew, rPaperOld, rSupplyOnce}},
		{"two words", search("поставка & бумага", tenderbase.Filters{}), []string{rSupplyTitle, rPaperNew, rPaperOld}},
		{"without a word", search("поставка & !картридж", tenderbase.Filters{}), []string{rPaperNew, rPaperOld, rSupplyOnce}},
		{"a phrase", search(`"поставка бумаги"`, tenderbase.Filters{}), []string{rSupplyTitle, rPaperNew, rPaperOld}},
	} {
		got, total := searchAll(t, st, tc.s)
		if diff := gocmp.Diff(tc.want, got); diff != "" || total != len(tc.want) {
			t.Errorf("%s: total %d (-want +got):\n%s", tc.name, total, diff)
		}
		if paged := searchPaged(t, st, tc.s, 1); !gocmp.Equal(tc.want, paged) {
			t.Errorf("%s: pages of 1 by number give %v, want %v", tc.name, paged, tc.want)
		}
		var byCursor []string
		s := tc.s
		s.PageSize = 1
		for range len(tc.want) + 1 {
			p, err := st.Search(ctx, s)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			byCursor = append(byCursor, keysOf(p.Items)...)
			if p.Next == "" {
				break
			}
			s.Cursor = p.Next
		}
		if !gocmp.Equal(tc.want, byCursor) {
			t.Errorf("%s: pages of 1 by cursor give %v, want %v", tc.name, byCursor, tc.want)
		}
	}
}
