package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/redflags"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// flagFiles are the published EIS files the flags are worked out from by
// hand, and the complaint fixtures of internal/source/eis (in the published
// shape, validated against the schemes).
var flagFiles = []string{
	// 0111100000217000017: an auction's three protocols, two applications.
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF1_0111100000217000017_15516465.xml",
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF2_0111100000217000017_15528232.xml",
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF3_0111100000217000017_15585361.xml",
	// 0111100000217000018: the protocol of a single application.
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEFSingleApp_0111100000217000018_15537445.xml",
	// 31907777345: a 223-FZ quotation with one application, no winner marked.
	"eis223/andreiSaw__zakupki/34752044.xml",
	// 31704807799: a 223-FZ purchase from a single supplier, 6829105817.
	"eis223/Khudim__ZakupkiParser/purchaseProtocolPAEP_Tambovskaya_obl_20170217_000000_20170217_235959_daily_001.xml",
	// 0162300017925000067: version 2 of a 2025 auction's notice.
	"eis44-notices/ISErmakov__zakupkigovru/epNotificationEF2020_0162300017925000067_2_019A7BC4EB52714896AE2D0A22FCA5A1.xml",
}

// complaintFiles are the complaint of 0336200008720000154, found unfounded,
// that finding cancelled by a court and the complaint found founded anew.
var complaintFiles = []string{
	"complaint_202000151401234_25180436.xml",
	"complaint_202000151401234_25201977.xml",
	"checkResult_202000151400871_25233410.xml",
	"checkResultCancel_202000151400871_25498302.xml",
	"checkResult_202000151401577_25519826.xml",
}

// importFlagFiles imports the files of the flags into store as `tenderbase
// import` reads them, skipping the test when the shared data is absent.
func importFlagFiles(t *testing.T, store tenderbase.Store) {
	t.Helper()
	var paths []string
	for _, f := range flagFiles {
		paths = append(paths, filepath.Join(sharedData, f))
	}
	if _, err := os.Stat(paths[0]); err != nil {
		t.Skipf("%s is absent (%v): the shared data folder (../shared/data) is not beside this checkout", paths[0], err)
	}
	for _, f := range complaintFiles {
		paths = append(paths, filepath.Join("..", "source", "eis", "testdata", "complaint", f))
	}
	sum, err := importer.Import(context.Background(), store, paths, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
	if err != nil || sum.Rejected != 0 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
}

// flagWant is what a test checks of one flag.
type flagWant struct {
	State   string
	Because []string
	Missing string
}

// TestFlagsOfPublishedTenders checks the flags of tenders whose published
// files are stored, worked out by hand from those files, on both stores.
func TestFlagsOfPublishedTenders(t *testing.T) {
	const noWinner = "no protocol of the tender names a winner and no contract names a supplier"
	assumed := "the placing method is not stored: a competitive procedure is assumed"
	tests := []struct {
		number string
		fired  int
		want   map[string]flagWant
	}{
		// EF1 and EF2 name applications 1 and 2 by journal number, EF3
		// (2017-10-19) both with INNs; 1660086239 is ranked first.
		{"0111100000217000017", 0, map[string]flagWant{
			"single_bid":             {redflags.NotFired, []string{"2 applications in protocol 0111100000217000017-3 (fcsProtocolEF3) of 2017-10-19", assumed}, ""},
			"price_close_to_initial": {redflags.CannotTell, []string{}, "no notice of the tender is stored: its initial price is unknown"},
			"winner_new":             {redflags.CannotTell, []string{}, "no register card (EGRUL/EGRIP) with a registration date is stored for INN 1660086239"},
			"winner_unfair":          {redflags.NotFired, []string{"INN 1660086239: no stored entry of the register names it as supplier"}, ""},
		}},
		// fcsProtocolEFSingleApp of 2017-10-13: one application, of
		// 1660291887.
		{"0111100000217000018", 1, map[string]flagWant{
			"single_bid":      {redflags.Fired, []string{"1 application in protocol 0111100000217000018-1 (fcsProtocolEFSingleApp) of 2017-10-13", assumed}, ""},
			"winner_bankrupt": {redflags.NotFired, []string{"INN 1660291887: no stored fedresurs lot names it as a debtor; no register card stored"}, ""},
			"short_deadline":  {redflags.CannotTell, []string{}, "no notice of the tender is stored"},
		}},
		// One application (3162, 462 000.00) with winnerIndication F: no
		// winner is named.
		{"31907777345", 1, map[string]flagWant{
			"single_bid":    {redflags.Fired, []string{"1 application in protocol 31907777345-02 (purchaseProtocolSummingupZKESMBO, lot 1) of 2019-04-26", assumed}, ""},
			"winner_unfair": {redflags.CannotTell, []string{}, noWinner},
		}},
		// purchaseCodeName "Закупка у единственного поставщика", one
		// application (1, of 6829105817): no bidding, so no single bid.
		{"31704807799", 0, map[string]flagWant{
			"single_bid":    {redflags.NotFired, []string{"a purchase from a single supplier (protocol 31704807799-01, purchaseProtocolPAEP): no bidding to count"}, ""},
			"winner_unfair": {redflags.NotFired, []string{"INN 6829105817: no stored entry of the register names it as supplier"}, ""},
		}},
		// versionNumber 2, startDT 2025-11-12T11:46:23+05:00, no protocol.
		{"0162300017925000067", 0, map[string]flagWant{
			"many_amendments": {redflags.NotFired, []string{"notice version 2: 1 amendment (1 version stored)"}, ""},
			"short_deadline": {redflags.CannotTell, []string{}, "placed on 2025-11-12: the minimum in force then is not quoted here " +
				"(only 44-FZ art. 63 in its wordings of 18.06.2017-31.12.2021; the wording of 360-FZ in force since 2022-01-01 was not found published)"},
			"single_bid":             {redflags.CannotTell, []string{}, "no stored protocol of the tender names its applications"},
			"price_close_to_initial": {redflags.CannotTell, []string{}, "no contract of the tender, and no winner's offer in its protocols, states a price in the notice's currency"},
		}},
		// Check 202000151400871 found the complaint unfounded and was
		// cancelled; check 202000151401577 of 2020-09-01 found it founded.
		{"0336200008720000154", 1, map[string]flagWant{
			"complaints_upheld": {redflags.Fired, []string{"check 202000151401577 of 2020-09-01 on complaint 202000151401234: founded"}, ""},
		}},
	}
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			importFlagFiles(t, store)
			set := New(store, nil)
			for _, tt := range tests {
				res := callFlags(t, set, asPlan(tenderbase.PlanStandard), tt.number)
				if res.Fired != tt.fired {
					t.Errorf("%s: %d fired, want %d: %+v", tt.number, res.Fired, tt.fired, res.Flags)
				}
				for rule, want := range tt.want {
					f := flagNamed(t, res, rule)
					if diff := gocmp.Diff(want, flagWant{f.State, f.Because, f.Missing}); diff != "" {
						t.Errorf("%s %s (-want +got):\n%s", tt.number, rule, diff)
					}
				}
			}
		})
	}
}

// TestFlagsOfTheDemo checks flags of demo tenders that fire, from the
// records the demo publishes for them.
func TestFlagsOfTheDemo(t *testing.T) {
	ctx := asPlan(tenderbase.PlanGuru)
	// 0362064093423626283: its final protocol of 2023-03-26 names one
	// application; check 202347292518 of 2023-03-18 found complaint
	// 2023036792273 founded.
	res := callFlags(t, demoSet, ctx, "0362064093423626283")
	for rule, want := range map[string]flagWant{
		"single_bid":        {redflags.Fired, []string{"1 application in protocol 0362064093423626283-1 (epProtocolEF2020Final) of 2023-03-26"}, ""},
		"complaints_upheld": {redflags.Fired, []string{"check 202347292518 of 2023-03-18 on complaint 2023036792273: founded"}, ""},
	} {
		f := flagNamed(t, res, rule)
		if diff := gocmp.Diff(want, flagWant{f.State, f.Because, f.Missing}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", rule, diff)
		}
	}
	// 0252701370223223318: its winner 6606740188 was included in the
	// register on 2023-03-14 (entry 23003001) and won on 2023-04-24.
	f := flagNamed(t, callFlags(t, demoSet, ctx, "0252701370223223318"), "winner_unfair")
	if want := []string{"entry 23003001 (included 2023-03-14) barred INN 6606740188 on 2023-04-24, when it won"}; f.State != redflags.Fired || !gocmp.Equal(want, f.Because) {
		t.Errorf("winner_unfair: %s %q, want fired %q", f.State, f.Because, want)
	}
}

func TestFlagsRefusals(t *testing.T) {
	_, err := call(t, demoSet, asPlan(tenderbase.PlanFree), "ru.flags", `{"tend_num":"0362064093423626283"}`)
	if errorCode(err) != tenderbase.EFORBIDDEN {
		t.Errorf("free plan: %v, want forbidden", err)
	}
	_, err = call(t, demoSet, asPlan(tenderbase.PlanStandard), "ru.flags", `{"tend_num":"0000000000000000000"}`)
	if errorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("unknown number: %v, want not found", err)
	}
	_, err = call(t, demoSet, asPlan(tenderbase.PlanStandard), "ru.flags", `{"tend_num":" "}`)
	if errorCode(err) != "argument" {
		t.Errorf("empty number: %v, want an argument error", err)
	}
}

func callFlags(t *testing.T, set *Set, ctx context.Context, number string) FlagsAnswer {
	t.Helper()
	out, err := call(t, set, ctx, "ru.flags", `{"tend_num":"`+number+`"}`)
	if err != nil {
		t.Fatalf("ru.flags %s: %v", number, err)
	}
	var res FlagsAnswer
	if err := json.Unmarshal(out.Value, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func flagNamed(t *testing.T, res FlagsAnswer, rule string) redflags.Flag {
	t.Helper()
	for _, f := range res.Flags {
		if f.Rule == rule {
			return f
		}
	}
	t.Fatalf("%s: no flag %s", res.PurchaseNumber, rule)
	return redflags.Flag{}
}
