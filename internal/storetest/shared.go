package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// testSharedData checks that a store sees at once what another store on the
// same data wrote, as a server sees an import run by another process: the
// totals it counted before, and may have cached, must not outlive the write.
func testSharedData(t *testing.T, open Open) {
	first, again := open(t)
	server := closing(t, first)
	importer := closing(t, again(t))

	var keys []string // newest first
	putPaper := func(st tenderbase.Store, from, to int) {
		t.Helper()
		var rs []tenderbase.Record
		for d := from; d <= to; d++ {
			key := fmt.Sprintf("03732000415240%05d", d)
			rs = append(rs, tender(key, tenderbase.Law44, 77, d, "Поставка бумаги для офисной техники", polyclinic()))
			keys = slices.Insert(keys, 0, key)
		}
		put(t, st, rs...)
	}
	searches := sharedSearches(t)
	check := func(st tenderbase.Store, when string) {
		t.Helper()
		for name, s := range searches {
			if diff := gocmp.Diff(keys, pagesOf(t, st, s)); diff != "" {
				t.Errorf("%s, search %s, page by page (-want +got):\n%s", when, name, diff)
			}
		}
	}

	putPaper(server, 1, 2)
	check(server, "2 tenders put here")
	check(importer, "2 tenders put by the other store")
	putPaper(importer, 3, 32)
	check(server, "30 more put by the other store")
	put(t, server, withdrawal("w1", keys[0]))
	keys = keys[1:]
	check(importer, "one withdrawn by the other store")
}

// sharedSearches returns searches that every tender of testSharedData
// matches, one for each way a store may find and count them.
func sharedSearches(t *testing.T) map[string]tenderbase.Search {
	t.Helper()
	customer := []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: innPolyclinic}}
	word := mustParse(t, "бумаги", query.MCP)
	return map[string]tenderbase.Search{
		"list":         {Kind: tenderbase.KindTender},
		"word":         {Kind: tenderbase.KindTender, Query: word},
		"mixed phrase": {Kind: tenderbase.KindTender, Query: mustParse(t, `"=поставка бумаги"`, query.MCP)},
		"filter":       {Kind: tenderbase.KindTender, Filters: tenderbase.Filters{Regions: []int{77}}},
		"lookup":       {Kind: tenderbase.KindTender, Where: customer},
		"lookup, word": {Kind: tenderbase.KindTender, Query: word, Where: customer},
	}
}

// pagesOf returns the keys of every page of s, 20 a page, and checks that
// every page says the same total, the number of keys.
func pagesOf(t *testing.T, st tenderbase.Store, s tenderbase.Search) []string {
	t.Helper()
	s.PageSize = 20
	var keys []string
	totals := map[int]bool{}
	for s.Page = 0; s.Page == 0 || len(keys) == s.Page*s.PageSize; s.Page++ {
		p, err := st.Search(context.Background(), s)
		if err != nil {
			t.Fatalf("Search %s, page %d: %v", describe(s), s.Page, err)
		}
		totals[p.Total] = true
		keys = append(keys, keysOf(p.Items)...)
	}
	if len(totals) != 1 || !totals[len(keys)] {
		t.Errorf("Search %s: pages say totals %v, and hold %d records", describe(s), totals, len(keys))
	}
	return keys
}

// CheckPutAfterReindex checks that a store writing on after another
// process indexed the same data anew (a new build's analysis, which gives
// every record a new doc) writes its postings from the data as it is now,
// not as its own last write left it: reindex makes the other process do
// so while server stays open.
func CheckPutAfterReindex(t *testing.T, server tenderbase.Store, reindex func(t *testing.T)) {
	t.Helper()
	// Put out of date order, so that the re-index, in date order, gives
	// the records other docs than their first.
	put(t, server,
		tender("0373200041524000003", tenderbase.Law44, 77, 3, "Бумага", polyclinic()),
		tender("0373200041524000001", tenderbase.Law44, 77, 1, "Мебель", polyclinic()),
		tender("0373200041524000002", tenderbase.Law44, 77, 2, "Краска", polyclinic()))
	reindex(t)
	put(t, server, tender("0373200041524000004", tenderbase.Law44, 77, 4, "Бумага и мебель", polyclinic()))
	for text, want := range map[string][]string{
		"мебель":          {"0373200041524000004", "0373200041524000001"},
		"мебель !краска":  {"0373200041524000004", "0373200041524000001"},
		"бумага":          {"0373200041524000004", "0373200041524000003"},
		"бумага !мебель":  {"0373200041524000003"},
		"краска | мебель": {"0373200041524000004", "0373200041524000002", "0373200041524000001"},
	} {
		s := tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, text, query.MCP)}
		if diff := gocmp.Diff(want, pagesOf(t, server, s)); diff != "" {
			t.Errorf("search %q after the re-index (-want +got):\n%s", text, diff)
		}
	}
}
