package storetest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// complaintFixtures is where the EIS adapter's real complaint files are,
// seen from a store's package (internal/<store>): published files of
// the EIS FTP, with their provenance beside the adapter's tests
// (internal/source/eis).
var complaintFixtures = filepath.Join("..", "source", "eis", "testdata", "complaint")

// RealComplaintFiles are the real complaints and check results, in the
// order they were published:
//   - complaint 202000151401234 against purchase 0336200008720000154
//     (customer INN 6905037125), versions 1 and 2; its check
//     202000151400871 of 2020-07-14 found it not founded
//     (COMPLAINT_NO_VIOLATIONS), a checkResultCancel withdrew that check,
//     and check 202000151401577 of 2020-09-02 found it founded
//     (COMPLAINT_VIOLATIONS);
//   - complaint 202400114801003 against 0311300012424000061 (customer
//     INN 1659028440), found founded by check 202400114800412;
//   - the complaint group 202400100300214: complaints 202400100300215
//     against 0348300052424000133 and 202400100300216 against
//     0373100041224000087, which no stored check decides.
var RealComplaintFiles = []string{
	"complaint_202000151401234_25180436.xml",
	"complaint_202000151401234_25201977.xml",
	"checkResult_202000151400871_25233410.xml",
	"checkResultCancel_202000151400871_25498302.xml",
	"checkResult_202000151401577_25519826.xml",
	"complaint_202400114801003_41977215.xml",
	"checkResult_202400114800412_42118937.xml",
	"complaintGroup_202400100300214_42055160.xml",
}

// RealComplaints decodes RealComplaintFiles.
func RealComplaints(t *testing.T) []tenderbase.Record {
	t.Helper()
	var out []tenderbase.Record
	for _, name := range RealComplaintFiles {
		f, err := os.Open(filepath.Join(complaintFixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		err = eis.Format{}.Decode(name, f, func(_ int, r tenderbase.Record, err error) error {
			if err != nil {
				return err
			}
			out = append(out, r)
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatalf("decode %s: %v", name, err)
		}
	}
	return out
}

// ComplainedNotices are notices under the purchase numbers of
// RealComplaintFiles (no notice of them is among the fixtures), of the
// customers the complaints name, and the two purchases of the group of
// one customer, 7701000001; one more notice of that customer has no
// complaint. Each has a contract, and 0348300052424000133 two.
func ComplainedNotices() []tenderbase.Record {
	notice := func(number, inn string, price float64, d int) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: number, Law: tenderbase.Law44, Version: 1, Title: "Поставка",
			PlacingMethodCode: "EA20", Customer: tenderbase.Party{INN: inn}, MaxPrice: price, Currency: "RUB", PublishedAt: day(d)}
	}
	contract := func(reg, number, inn string, d int) *tenderbase.Contract {
		return &tenderbase.Contract{RegNumber: reg, Law: tenderbase.Law44, Version: 1, PurchaseNumber: number, Customer: tenderbase.Party{INN: inn},
			Price: 100_000, Currency: "RUB", Suppliers: []tenderbase.Party{{INN: "7702000002"}}, SignedAt: day(d), PublishedAt: day(d)}
	}
	return []tenderbase.Record{
		notice("0336200008720000154", "6905037125", 1_000_000, 1),
		notice("0311300012424000061", "1659028440", 1_000_000, 2),
		notice("0348300052424000133", "7701000001", 1_000_000, 3),
		notice("0373100041224000087", "7701000001", 1_000_000, 4),
		notice("0373100041224000999", "7701000001", 1_000_000, 5),
		contract("2770100000124000001", "0348300052424000133", "7701000001", 10),
		contract("2770100000124000002", "0348300052424000133", "7701000001", 11),
		contract("2770100000124000003", "0373100041224000087", "7701000001", 12),
		contract("2165900000124000001", "0311300012424000061", "1659028440", 13),
	}
}

// testRealComplaints checks the complaints of aggregates against the real
// complaint files, counted by hand from them (RealComplaintFiles).
func testRealComplaints(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	put(t, st, ComplainedNotices()...)
	put(t, st, RealComplaints(t)...)
	tenders := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByCustomer})
	// 6905037125: complaint 202000151401234, decided by the newest check
	// in force, 202000151401577: founded. 1659028440: 202400114801003,
	// founded. 7701000001: the group's two complaints, undecided; its
	// third notice has none. In all: 4 complaints, 2 upheld, 2 pending.
	want := map[string]*tenderbase.Complaints{
		"6905037125": {Count: 1, Upheld: 1},
		"1659028440": {Count: 1, Upheld: 1},
		"7701000001": {Count: 2, Pending: 2},
	}
	for _, g := range tenders.Groups {
		if diff := gocmp.Diff(want[g.Key], g.Complaints); diff != "" {
			t.Errorf("tenders of customer %s: complaints (-want +got):\n%s", g.Key, diff)
		}
	}
	if diff := gocmp.Diff(&tenderbase.Complaints{Count: 4, Upheld: 2, Pending: 2}, tenders.Total.Complaints); diff != "" {
		t.Errorf("tenders: complaints in all (-want +got):\n%s", diff)
	}
	// The contracts: 0348300052424000133 has two, whose purchase's
	// complaint counts once; with 0373100041224000087's, 7701000001's
	// contracts have 2 complaints, and 0311300012424000061's contract 1.
	contracts := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindContract}, By: tenderbase.ByCustomer})
	if diff := gocmp.Diff(&tenderbase.Complaints{Count: 3, Upheld: 1, Pending: 2}, contracts.Total.Complaints); diff != "" {
		t.Errorf("contracts: complaints in all (-want +got):\n%s", diff)
	}
	if i := indexOfGroup(contracts.Groups, "7701000001"); i < 0 || contracts.Groups[i].Count != 3 ||
		!gocmp.Equal(contracts.Groups[i].Complaints, &tenderbase.Complaints{Count: 2, Pending: 2}) {
		t.Errorf("contracts of 7701000001: want 3 contracts with 2 pending complaints, got %+v", contracts.Groups)
	}
	// A search narrows the purchases whose complaints count: the
	// customer 6905037125 alone.
	one := tenderbase.Search{Kind: tenderbase.KindTender, Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "6905037125"}}}
	if got := aggregate(t, st, tenderbase.Aggregation{Search: one, By: tenderbase.ByRegion}).Total.Complaints; !gocmp.Equal(got, &tenderbase.Complaints{Count: 1, Upheld: 1}) {
		t.Errorf("tenders of 6905037125: want 1 complaint upheld, got %+v", got)
	}
	// The founding check withdrawn too: with the check before it
	// withdrawn already, no check in force decides the complaint.
	put(t, st, &tenderbase.Withdrawal{ID: "agg-cw1", TargetKind: tenderbase.KindComplaintResult, TargetKey: "202000151401577",
		Document: "checkResultCancel", PublishedAt: day(40)})
	if got := aggregate(t, st, tenderbase.Aggregation{Search: one, By: tenderbase.ByRegion}).Total.Complaints; !gocmp.Equal(got, &tenderbase.Complaints{Count: 1, Pending: 1}) {
		t.Errorf("tenders of 6905037125 with both checks withdrawn: want 1 complaint pending, got %+v", got)
	}
}

// OldComplaintRecords are ComplainedNotices and RealComplaints as a
// database written before complaints had facts holds them: one version a
// record (the complaint's second) and no withdrawal.
func OldComplaintRecords(t *testing.T) []tenderbase.Record {
	var recs []tenderbase.Record
	at := map[string]int{}
	for _, r := range append(ComplainedNotices(), RealComplaints(t)...) {
		id := string(r.Kind()) + " " + r.Key()
		switch i, seen := at[id]; {
		case r.Kind() == tenderbase.KindWithdrawal:
		case seen:
			recs[i] = r
		default:
			at[id] = len(recs)
			recs = append(recs, r)
		}
	}
	return recs
}

// CheckOldComplaints checks a store opened on OldComplaintRecords: its
// aggregates count the complaints, and a tender is found by who placed
// it.
func CheckOldComplaints(t *testing.T, st tenderbase.Store) {
	t.Helper()
	// Without the withdrawal, the newest check of 202000151401234
	// (founded) decides it still: 2 upheld, the group's 2 pending.
	got := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByCustomer})
	if diff := gocmp.Diff(&tenderbase.Complaints{Count: 4, Upheld: 2, Pending: 2}, got.Total.Complaints); diff != "" {
		t.Errorf("complaints of the old database's tenders (-want +got):\n%s", diff)
	}
	page, err := st.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindTender, PageSize: 10,
		Where: []tenderbase.Lookup{{Field: tenderbase.LookupPlacerINN, Value: "7701000001"}}})
	if err != nil || page.Total != 3 {
		t.Errorf("tenders placed by 7701000001: want 3, got %d (%v)", page.Total, err)
	}
}
