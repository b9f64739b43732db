package storetest

import (
	"context"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Keys no store can hold, as tenderbase.Store says: a NUL byte, invalid
// UTF-8, and far more bytes than any key has.
var unholdable = map[string]string{
	"NUL":          "0373200041524000101\x00",
	"invalid":      "0373200041524000101\xff",
	"long":         strings.Repeat("0373200041524000101", 100),
	"invalid only": "\xc3",
}

// testUnholdable checks that a key, lookup or query term that a store
// cannot hold is found nowhere or refused, alike on every store, and never
// an internal error.
func testUnholdable(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	put(t, st, tenders()[0])
	ctx := context.Background()
	for name, key := range unholdable {
		t.Run(name, func(t *testing.T) {
			_, err := st.Get(ctx, tenderbase.KindTender, key)
			wantCode(t, "Get", err, tenderbase.ENOTFOUND)
			_, err = st.Get(ctx, tenderbase.Kind(key), tPaper)
			wantCode(t, "Get of such a kind", err, tenderbase.ENOTFOUND)
			_, err = st.Versions(ctx, tenderbase.KindTender, key)
			wantCode(t, "Versions", err, tenderbase.ENOTFOUND)
			for _, s := range unholdableSearches(t, key) {
				p, err := st.Search(ctx, s)
				want := tenderbase.Page{Page: s.Page, PageSize: s.Size(), Items: []tenderbase.Record{}}
				// Found nowhere, the page was read from no data: its
				// generation is the store's to say or not.
				if diff := gocmp.Diff(want, p, cmpopts.IgnoreFields(tenderbase.Page{}, "Generation")); err != nil || diff != "" {
					t.Errorf("Search %s: %v (-want +got):\n%s", describe(s), err, diff)
				}
			}
			term := tenderbase.TermQuery{Form: key, Stem: key}
			_, err = st.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, Query: term})
			wantCode(t, "Search of such a term", err, tenderbase.EINVALID)
		})
	}
	if msg := tenderbase.ErrorMessage(getErr(st, unholdable["NUL"])); msg != `no tender with key "0373200041524000101\x00"` {
		t.Errorf("Get of a key with a NUL byte: message %q", msg)
	}
	t.Run("Put", func(t *testing.T) { testPutUnholdable(t, st) })
}

func getErr(st tenderbase.Store, key string) error {
	_, err := st.Get(context.Background(), tenderbase.KindTender, key)
	return err
}

// unholdableSearches returns searches with a lookup of value, each of
// another shape, as each store plans them.
func unholdableSearches(t *testing.T, value string) []tenderbase.Search {
	t.Helper()
	l := tenderbase.Lookup{Field: tenderbase.LookupCustomerINN, Value: value}
	ok := tenderbase.Lookup{Field: tenderbase.LookupCustomerINN, Value: innPolyclinic}
	word := mustParse(t, "бумаги", query.MCP)
	return []tenderbase.Search{
		{Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{l}},
		{Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{ok, l}, Page: 2},
		{Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{l}, Query: word},
		{Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{{Field: value, Value: innPolyclinic}}},
		{Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{l}, Filters: tenderbase.Filters{Regions: []int{77}}},
	}
}

// testPutUnholdable checks that Put refuses a record holding text that a
// store cannot hold, naming the record and the field, and stores none of
// the records it was given.
func testPutUnholdable(t *testing.T, st tenderbase.Store) {
	tests := []struct {
		name   string
		change func(r *tenderbase.Tender)
		want   string
	}{
		{"NUL in the title", func(r *tenderbase.Tender) { r.Title = "Поставка\x00бумаги" },
			`tender "0373200041524000900": title holds a NUL byte`},
		{"invalid UTF-8 deep down", func(r *tenderbase.Tender) { r.Lots[0].Objects[0].Name = "Бумага\xe2" },
			`tender "0373200041524000900": lots[0].objects[0].name is not valid UTF-8`},
		{"NUL in the key", func(r *tenderbase.Tender) { r.PurchaseNumber += "\x00" },
			`tender "0373200041524000900\x00": purchase_number holds a NUL byte`},
		{"long key", func(r *tenderbase.Tender) { r.PurchaseNumber = unholdable["long"] },
			`tender "` + unholdable["long"][:100] + `": the key is longer than 1000 bytes`},
		{"long lookup", func(r *tenderbase.Tender) { r.Customer.INN = unholdable["long"] },
			`tender "0373200041524000900": lookup customer_inn is longer than 1000 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good := tender("0373200041524000901", tenderbase.Law44, 77, 3, "Поставка бумаги", polyclinic())
			bad := tender("0373200041524000900", tenderbase.Law44, 77, 4, "Поставка бумаги", polyclinic(),
				tenderbase.PurchaseObject{Name: "Бумага"})
			tt.change(bad)
			wantPutRefused(t, st, tt.want, good, bad)
		})
	}
	t.Run("withdrawal of a key with a NUL byte", func(t *testing.T) {
		wantPutRefused(t, st, `withdrawal "w1": target_key holds a NUL byte`, withdrawal("w1", tPaper+"\x00"))
	})
}

// wantPutRefused checks that Put of rs is an EINVALID error with message
// want, and that none of rs was stored.
func wantPutRefused(t *testing.T, st tenderbase.Store, want string, rs ...tenderbase.Record) {
	t.Helper()
	_, err := st.Put(context.Background(), rs)
	wantCode(t, "Put", err, tenderbase.EINVALID)
	if msg := tenderbase.ErrorMessage(err); msg != want {
		t.Errorf("Put: message %q, want %q", msg, want)
	}
	for _, r := range rs {
		if _, err := st.Get(context.Background(), r.Kind(), r.Key()); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
			t.Errorf("%s %q of a refused Put: Get says %v, want not found", r.Kind(), r.Key(), err)
		}
	}
}
