package storetest

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

const vKey = "0373200041524000500"

// version returns one version of a tender that the version tests change.
func version(v, d int, title string) *tenderbase.Tender {
	t := tender(vKey, tenderbase.Law44, 77, d, title, polyclinic())
	t.Version = v
	return t
}

// testVersions checks how Put treats newer, older, equal and corrected
// versions of one record, each on a fresh store.
func testVersions(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	t.Run("newer replaces", func(t *testing.T) {
		st := openStore(t, open)
		v1, v2 := version(1, 10, "Поставка бумаги"), version(2, 10, "Поставка картриджей")
		wantPut(t, st, tenderbase.PutResult{Inserted: 1}, v1)
		wantPut(t, st, tenderbase.PutResult{Replaced: 1}, v2)
		wantCurrent(t, st, v2, v1, v2)
		wantFound(t, st, "бумаги")
		wantFound(t, st, "картриджей", vKey)
	})
	t.Run("older arriving later is kept apart", func(t *testing.T) {
		st := openStore(t, open)
		v2, v3 := version(2, 10, "Поставка бумаги"), version(3, 10, "Поставка картриджей")
		wantPut(t, st, tenderbase.PutResult{Inserted: 1}, v3)
		wantPut(t, st, tenderbase.PutResult{Older: 1}, v2)
		wantCurrent(t, st, v3, v2, v3)
		wantFound(t, st, "бумаги")
		wantFound(t, st, "картриджей", vKey)
		wantPut(t, st, tenderbase.PutResult{Unchanged: 2}, v2, v3)
	})
	t.Run("identical is unchanged", func(t *testing.T) {
		st := openStore(t, open)
		v1, v2 := version(1, 10, "Поставка бумаги"), version(2, 11, "Поставка картриджей")
		wantPut(t, st, tenderbase.PutResult{Inserted: 1}, v1)
		wantPut(t, st, tenderbase.PutResult{Unchanged: 1}, version(1, 10, "Поставка бумаги"))
		wantCurrent(t, st, v1, v1)
		wantPut(t, st, tenderbase.PutResult{Replaced: 1}, v2)
		wantPut(t, st, tenderbase.PutResult{Unchanged: 2}, v1, v2)
		wantCurrent(t, st, v2, v1, v2)
	})
	t.Run("same revision corrects", func(t *testing.T) {
		st := openStore(t, open)
		v1, fixed := version(1, 10, "Поставка бумаги"), version(1, 10, "Поставка картриджей")
		wantPut(t, st, tenderbase.PutResult{Inserted: 1}, v1)
		wantPut(t, st, tenderbase.PutResult{Replaced: 1}, fixed)
		wantCurrent(t, st, fixed, fixed)
		wantFound(t, st, "бумаги")
		wantFound(t, st, "картриджей", vKey)
	})
	t.Run("versions in one batch", func(t *testing.T) {
		st := openStore(t, open)
		v1, v2 := version(1, 10, "Поставка бумаги"), version(2, 10, "Поставка картриджей")
		wantPut(t, st, tenderbase.PutResult{Inserted: 1, Replaced: 1}, v1, v2)
		wantCurrent(t, st, v2, v1, v2)
		st = openStore(t, open)
		wantPut(t, st, tenderbase.PutResult{Inserted: 1, Older: 1}, v2, v1)
		wantCurrent(t, st, v2, v1, v2)
		wantFound(t, st, "бумаги")
	})
	t.Run("new date moves the record", func(t *testing.T) {
		st := openStore(t, open)
		other := tender("0373200041524000501", tenderbase.Law44, 77, 11, "Поставка мебели", polyclinic())
		wantPut(t, st, tenderbase.PutResult{Inserted: 2}, version(1, 10, "Поставка бумаги"), other)
		wantFound(t, st, "поставка", other.PurchaseNumber, vKey)
		wantPut(t, st, tenderbase.PutResult{Replaced: 1}, version(2, 12, "Поставка бумаги"))
		wantFound(t, st, "поставка", vKey, other.PurchaseNumber)
		wantPut(t, st, tenderbase.PutResult{Replaced: 1}, version(3, 9, "Поставка бумаги"))
		wantFound(t, st, "поставка", other.PurchaseNumber, vKey)
	})
	t.Run("lookup of an older version", testOlderLookup(open, false))
	t.Run("lookup of an older version stored later", testOlderLookup(open, true))
}

// testOlderLookup checks that the complaint id of an older version finds the
// current record, whichever version was stored first.
func testOlderLookup(open func(t *testing.T) tenderbase.Store, olderLater bool) func(t *testing.T) {
	return func(t *testing.T) {
		st := openStore(t, open)
		v1 := complaints()[0].(*tenderbase.Complaint)
		v2 := complaints()[0].(*tenderbase.Complaint)
		v2.VersionNumber, v2.ComplaintID, v2.Text = 2, "3100099", "Жалоба отозвана заявителем"
		if olderLater {
			wantPut(t, st, tenderbase.PutResult{Inserted: 1}, v2)
			wantPut(t, st, tenderbase.PutResult{Older: 1}, v1)
		} else {
			wantPut(t, st, tenderbase.PutResult{Inserted: 1}, v1)
			wantPut(t, st, tenderbase.PutResult{Replaced: 1}, v2)
		}
		for _, tc := range []struct {
			id, query string
			want      []string
		}{
			{v1.ComplaintID, "", []string{kRoad}},
			{v2.ComplaintID, "", []string{kRoad}},
			{v1.ComplaintID, "отозвана", []string{kRoad}},
			{v1.ComplaintID, "опыта", nil},
			{"3100000", "", nil},
		} {
			s := tenderbase.Search{Kind: tenderbase.KindComplaint,
				Where: []tenderbase.Lookup{{Field: tenderbase.LookupComplaintID, Value: tc.id}}}
			if tc.query != "" {
				s.Query = mustParse(t, tc.query, query.MCP)
			}
			p, err := st.Search(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff(tc.want, keysOf(p.Items), sameRecord); diff != "" {
				t.Errorf("complaint id %s, query %q (-want +got):\n%s", tc.id, tc.query, diff)
			}
			for _, r := range p.Items {
				if diff := gocmp.Diff(tenderbase.Record(v2), r, sameRecord); diff != "" {
					t.Errorf("complaint id %s: the item is not the current version (-want +got):\n%s", tc.id, diff)
				}
			}
		}
	}
}

// testTies checks that records of one date come later-stored first, and that
// re-putting an identical record does not move it.
func testTies(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	a := tender("0373200041524000601", tenderbase.Law44, 77, 10, "Поставка бумаги", polyclinic())
	b := tender("0373200041524000602", tenderbase.Law44, 77, 10, "Поставка мебели", polyclinic())
	c := tender("0373200041524000603", tenderbase.Law44, 77, 10, "Поставка стульев", polyclinic())
	wantPut(t, st, tenderbase.PutResult{Inserted: 1}, a)
	wantPut(t, st, tenderbase.PutResult{Inserted: 1}, b)
	wantPut(t, st, tenderbase.PutResult{Inserted: 1}, c)
	want := []string{c.PurchaseNumber, b.PurchaseNumber, a.PurchaseNumber}
	wantFound(t, st, "поставка", want...)
	wantPut(t, st, tenderbase.PutResult{Unchanged: 1}, tender(a.PurchaseNumber, tenderbase.Law44, 77, 10, "Поставка бумаги", polyclinic()))
	wantFound(t, st, "поставка", want...)
	var paged []string
	for page := range 4 {
		p, err := st.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindTender, Page: page, PageSize: 1})
		if err != nil {
			t.Fatal(err)
		}
		paged = append(paged, keysOf(p.Items)...)
	}
	if diff := gocmp.Diff(want, paged); diff != "" {
		t.Errorf("pages of one record (-want +got):\n%s", diff)
	}
	// A write that holds two versions of a record and another record of
	// the same second sorts them as one Put after another: a keeps the
	// place its first version took, b was stored after it.
	t.Run("two versions in one write", func(t *testing.T) {
		a1 := tender(a.PurchaseNumber, tenderbase.Law44, 77, 10, "Поставка бумаги", polyclinic())
		a2 := tender(a.PurchaseNumber, tenderbase.Law44, 77, 10, "Поставка бумаги и картриджей", polyclinic())
		a2.Version = 2
		st := openStore(t, open)
		wantPut(t, st, tenderbase.PutResult{Inserted: 1}, a1)
		wantPut(t, st, tenderbase.PutResult{Inserted: 1}, b)
		wantPut(t, st, tenderbase.PutResult{Replaced: 1}, a2)
		wantFound(t, st, "поставка", b.PurchaseNumber, a.PurchaseNumber)
		st = openStore(t, open)
		wantPut(t, st, tenderbase.PutResult{Inserted: 3, Replaced: 1}, a1, b, a2, c)
		wantFound(t, st, "поставка", c.PurchaseNumber, b.PurchaseNumber, a.PurchaseNumber)
		st = openStore(t, open)
		wantPut(t, st, tenderbase.PutResult{Inserted: 3, Replaced: 1}, b, a1, a2, c)
		wantFound(t, st, "поставка", c.PurchaseNumber, a.PurchaseNumber, b.PurchaseNumber)
	})
}

func wantPut(t *testing.T, st tenderbase.Store, want tenderbase.PutResult, rs ...tenderbase.Record) {
	t.Helper()
	if diff := gocmp.Diff(want, put(t, st, rs...)); diff != "" {
		t.Errorf("Put (-want +got):\n%s", diff)
	}
}

// wantCurrent checks Get and Versions of the version test's tender.
func wantCurrent(t *testing.T, st tenderbase.Store, current tenderbase.Record, versions ...tenderbase.Record) {
	t.Helper()
	got := get(t, st, tenderbase.KindTender, vKey)
	if diff := gocmp.Diff(current, got, sameRecord); diff != "" {
		t.Errorf("Get (-want +got):\n%s", diff)
	}
	vs, err := st.Versions(context.Background(), tenderbase.KindTender, vKey)
	if err != nil {
		t.Fatalf("Versions: %v", err)
	}
	if diff := gocmp.Diff(versions, vs, sameRecord); diff != "" {
		t.Errorf("Versions (-want +got):\n%s", diff)
	}
}

// wantFound checks the tenders a query finds, newest first, and the total.
func wantFound(t *testing.T, st tenderbase.Store, text string, want ...string) {
	t.Helper()
	got, total := searchAll(t, st, tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, text, query.MCP)})
	if diff := gocmp.Diff(want, got, sameRecord); diff != "" {
		t.Errorf("search %q (-want +got):\n%s", text, diff)
	}
	if total != len(want) {
		t.Errorf("search %q: total %d, want %d", text, total, len(want))
	}
}
