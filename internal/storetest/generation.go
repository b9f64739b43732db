package storetest

import (
	"context"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// testGeneration checks the generation a page says it was read from: one
// for every page read while nothing is put, whatever it searches and
// whichever store on the same data reads it; a later one after a Put that
// changes something, by either store; the same after a Put that changes
// nothing. The export relies on it to read the next page of a walk by
// cursor only while the data stays what it was.
func testGeneration(t *testing.T, open Open) {
	first, again := open(t)
	st := closing(t, first)
	other := closing(t, again(t))
	all := tenderbase.Search{Kind: tenderbase.KindTender}
	ts := tenders()
	put(t, st, ts[0], ts[1], ts[2])
	gen := generationOf(t, st, all)
	if gen <= 0 {
		t.Fatalf("a store holding records read a page of generation %d; want one above 0", gen)
	}
	same := func(when string) {
		t.Helper()
		for name, s := range map[string]tenderbase.Search{
			"all":        all,
			"page 1":     {Kind: tenderbase.KindTender, Page: 1, PageSize: 1},
			"query":      {Kind: tenderbase.KindTender, Query: mustParse(t, "поставка", query.Kwords)},
			"lookup":     {Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: tPaper}}},
			"other kind": {Kind: tenderbase.KindComplaint},
		} {
			for who, store := range map[string]tenderbase.Store{"the store": st, "another store": other} {
				if got := generationOf(t, store, s); got != gen {
					t.Errorf("%s, search %s by %s: generation %d, want %d", when, name, who, got, gen)
				}
			}
		}
	}
	same("nothing put since")
	put(t, other, ts[0])
	same("a Put that changed nothing")
	for _, step := range []struct {
		by  tenderbase.Store
		put tenderbase.Record
		why string
	}{
		{st, ts[3], "a tender put"},
		{other, ts[4], "a tender put by another store"},
		{st, withdrawal("w-generation", ts[3].PurchaseNumber), "a tender withdrawn"},
	} {
		put(t, step.by, step.put)
		before := gen
		if gen = generationOf(t, st, all); gen <= before {
			t.Errorf("after %s: generation %d, want one above %d", step.why, gen, before)
		}
	}
}

// generationOf returns the generation of the page of s.
func generationOf(t *testing.T, st tenderbase.Store, s tenderbase.Search) int64 {
	t.Helper()
	p, err := st.Search(context.Background(), s)
	if err != nil {
		t.Fatalf("Search %s: %v", describe(s), err)
	}
	return p.Generation
}
