package storetest

import (
	"context"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// withdrawal returns a withdrawal of the version test's tender, or of
// another key.
func withdrawal(id, key string) *tenderbase.Withdrawal {
	return &tenderbase.Withdrawal{
		ID: id, TargetKind: tenderbase.KindTender, TargetKey: key,
		Document: "checkResultCancel", PublishedAt: day(20), Reason: "Отменено",
	}
}

// testWithdrawals checks that a withdrawn record is found by neither Search
// nor Get, whichever order the record and its withdrawal arrive in.
func testWithdrawals(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	other := tender("0373200041524000700", tenderbase.Law44, 77, 12, "Поставка мебели", polyclinic())
	t.Run("withdrawn is gone", func(t *testing.T) {
		st := openStore(t, open)
		v1 := version(1, 10, "Поставка бумаги")
		wantPut(t, st, tenderbase.PutResult{Inserted: 2}, v1, other)
		wantFound(t, st, "поставка", other.PurchaseNumber, vKey)
		wantListed(t, st, tenderbase.KindTender, other.PurchaseNumber, vKey)
		wantPut(t, st, tenderbase.PutResult{Inserted: 1}, withdrawal("w1", vKey))
		wantWithdrawn(t, st, v1)
		wantFound(t, st, "поставка", other.PurchaseNumber)
		wantListed(t, st, tenderbase.KindTender, other.PurchaseNumber)
		wantListed(t, st, tenderbase.KindWithdrawal, "w1")
	})
	t.Run("target arriving later is never current", func(t *testing.T) {
		st := openStore(t, open)
		v1 := version(1, 10, "Поставка бумаги")
		wantPut(t, st, tenderbase.PutResult{Inserted: 2}, withdrawal("w1", vKey), other)
		wantPut(t, st, tenderbase.PutResult{Older: 1}, v1)
		wantWithdrawn(t, st, v1)
		wantFound(t, st, "поставка", other.PurchaseNumber)
		wantListed(t, st, tenderbase.KindTender, other.PurchaseNumber)
	})
	t.Run("re-put stays withdrawn", func(t *testing.T) {
		st := openStore(t, open)
		v1, v2 := version(1, 10, "Поставка бумаги"), version(2, 11, "Поставка картриджей")
		wantPut(t, st, tenderbase.PutResult{Inserted: 2}, v1, withdrawal("w1", vKey))
		wantPut(t, st, tenderbase.PutResult{Unchanged: 2}, v1, withdrawal("w1", vKey))
		wantPut(t, st, tenderbase.PutResult{Older: 1}, v2)
		wantWithdrawn(t, st, v1, v2)
		wantFound(t, st, "картриджей")
		wantListed(t, st, tenderbase.KindTender)
	})
	t.Run("unknown target or kind is harmless", func(t *testing.T) {
		st := openStore(t, open)
		w := withdrawal("w1", "0000000000000000000")
		planet := withdrawal("w2", other.PurchaseNumber)
		planet.TargetKind, planet.PublishedAt = "planet", day(19)
		wantPut(t, st, tenderbase.PutResult{Inserted: 3}, other, w, planet)
		wantFound(t, st, "поставка", other.PurchaseNumber)
		wantListed(t, st, tenderbase.KindWithdrawal, "w1", "w2")
		if diff := gocmp.Diff(tenderbase.Record(w), get(t, st, tenderbase.KindWithdrawal, "w1"), sameRecord); diff != "" {
			t.Errorf("Get of the withdrawal (-want +got):\n%s", diff)
		}
	})
}

// wantWithdrawn checks that the version test's tender is not found by Get
// but keeps its versions.
func wantWithdrawn(t *testing.T, st tenderbase.Store, versions ...tenderbase.Record) {
	t.Helper()
	_, err := st.Get(context.Background(), tenderbase.KindTender, vKey)
	if tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND || !strings.Contains(err.Error(), "withdrawn") {
		t.Errorf("Get of a withdrawn record: %v, want %s saying it was withdrawn", err, tenderbase.ENOTFOUND)
	}
	vs, err := st.Versions(context.Background(), tenderbase.KindTender, vKey)
	if err != nil {
		t.Fatalf("Versions: %v", err)
	}
	if diff := gocmp.Diff(versions, vs, sameRecord); diff != "" {
		t.Errorf("Versions (-want +got):\n%s", diff)
	}
	where := []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: vKey}}
	if got, total := searchAll(t, st, tenderbase.Search{Kind: tenderbase.KindTender, Where: where}); total != 0 {
		t.Errorf("search by purchase number found %v", got)
	}
}

// wantListed checks the keys, newest first, and the exact total of the
// listing of every record of kind k.
func wantListed(t *testing.T, st tenderbase.Store, k tenderbase.Kind, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	got, total := searchAll(t, st, tenderbase.Search{Kind: k})
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("listing of %s (-want +got):\n%s", k, diff)
	}
	if total != len(want) {
		t.Errorf("listing of %s: total %d, want %d", k, total, len(want))
	}
}
