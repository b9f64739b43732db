package tools

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// profileFixtures are the real EIS files of internal/source/eis/testdata
// the profiles are counted from, by folder.
var profileFixtures = []string{
	"protocol/fcsProtocolOK2_0131200001017003945_16208817.xml",
	"protocol/purchaseProtocolZK_two_lots.xml",
	"contract/contract44_13_2.xml",
	"contract/contract44_2012_export.xml",
	"contract/contract44_10_2.xml",
	"unfair/unfairSupplier_14_1_21002583.xml",
}

// profileFigures are the figures of a profile a test compares.
type profileFigures struct {
	Name                          string
	Contracts                     int
	Roubles                       float64
	Suppliers, Customers, Methods []string // "inn count roubles"
	Spend                         []string // "period count roubles"
	Procedures                    *profileBids
	Rivals, Winners               []tenderbase.Rival
	Statuses                      []tenderbase.StatusCount
	Unfair, Complaints            *int
}

func figuresOfProfile(r profileResult) profileFigures {
	rows := func(gs []aggGroup) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.Key+" "+itoa(g.Figures.Count)+" "+roubles(g.Figures.Sums))
		}
		return out
	}
	f := profileFigures{Name: r.Name, Suppliers: rows(r.Suppliers), Customers: rows(r.Customers), Methods: rows(r.Methods),
		Procedures: r.Procedures, Rivals: r.Rivals, Winners: r.Winners, Statuses: r.Statuses, Unfair: r.Unfair, Complaints: r.Complaints}
	if r.Contracts != nil {
		f.Contracts, f.Roubles = r.Contracts.Count, tenderbase.Amount(tenderbase.Kopecks(sumOf(r.Contracts.Sums)))
	}
	for _, s := range r.Spend {
		f.Spend = append(f.Spend, s.Period+" "+itoa(s.Count)+" "+roubles(s.Sums))
	}
	return f
}

func sumOf(sums []aggSum) float64 {
	for _, s := range sums {
		if s.Currency == "RUB" {
			return s.Amount
		}
	}
	return 0
}

func roubles(sums []aggSum) string { return number(sumOf(sums)) }

func itoa(n int) string { return number(float64(n)) }

// TestProfilesFromEISFiles imports real EIS protocols, contracts and an
// unfair-supplier entry and reads profiles through analytics.profile, on
// both stores. Every figure is counted by hand from the files:
//
//   - 3662098451 (fcsProtocolOK2_0131200001017003945): lot 1 names it
//     with appRating 2 and 3664123590 with appRating 1 (the winner); lot 2
//     names it with appRating 1 and 3665011872. So 2 procedures, won 1
//     (lot 2), lost 1 (lot 1, to 3664123590), a win rate of 50%; rivals
//     3664123590 (met 1, won 1, over it 1) before 3665011872 (met 1, won
//     0); who won where it did not: 3664123590 alone. No contract.
//   - 7447259016 (purchaseProtocolZK_two_lots, 31704958210): lot 1 names
//     7404061530, it, 7415083327 and a foreign bidder without INN; lot 2
//     names it and "Участник 5", INN 0000000000, a placeholder. It is
//     the winner of both: 2 procedures, won 2, lost 0; rivals 7404061530
//     and 7415083327, met once each (by INN on a tie); no one won over it.
//   - 6163041287, customer: contract44_13_2 (3616304128724000015, signed
//     2024-03-18, 598,400.00 RUB, first supplier 6168104632) and
//     contract44_2012_export (0358300123412000047, signed 2012-04-06,
//     412,500.50 RUB, supplier 6165098421): 2 contracts, 1,010,900.50 RUB;
//     suppliers by count, then by sum; spend 2024 and 2012 (2024-Q1 and
//     2012-Q2 by quarter); no notice or complaint stored.
//   - 616511472903, the second supplier of 3616304128724000015
//     (currentContractStage EC: completed): 1 contract of 598,400 RUB,
//     customer 6163041287, status completed, in no protocol; no name, as
//     the facts name a contract's first supplier only.
//   - 7804561238, the supplier of contract44_10_2 (12,480,000.00 RUB,
//     stage ET: terminated) for 7708503727.
//   - 7728456123, the unfair supplier of unfairSupplier_14_1_21002583: 1
//     entry, no contract.
func TestProfilesFromEISFiles(t *testing.T) {
	zero, one := 0, 1
	rival := func(inn string, met, won, over int) tenderbase.Rival {
		return tenderbase.Rival{INN: inn, Met: met, Won: won, WonOver: over}
	}
	tests := []struct {
		args string
		want profileFigures
	}{
		{`{"inn": "3662098451"}`, profileFigures{Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ВОРОНЕЖМЕДСЕРВИС"`,
			Procedures: &profileBids{Count: 2, Won: 1, Lost: 1, WinRatePct: 50},
			Rivals:     []tenderbase.Rival{rival("3664123590", 1, 1, 1), rival("3665011872", 1, 0, 0)},
			Winners:    []tenderbase.Rival{rival("3664123590", 1, 1, 1)}, Statuses: []tenderbase.StatusCount{}, Unfair: &zero}},
		{`{"inn": "7447259016", "role": "supplier"}`, profileFigures{Name: `ООО "УРАЛОФИСТОРГ"`,
			Procedures: &profileBids{Count: 2, Won: 2, WinRatePct: 100},
			Rivals:     []tenderbase.Rival{rival("7404061530", 1, 0, 0), rival("7415083327", 1, 0, 0)},
			Winners:    []tenderbase.Rival{}, Statuses: []tenderbase.StatusCount{}, Unfair: &zero}},
		{`{"inn": "6163041287"}`, profileFigures{Name: `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ ГОРОДА РОСТОВА-НА-ДОНУ "ШКОЛА № 14"`,
			Contracts: 2, Roubles: 1010900.5, Suppliers: []string{"6168104632 1 598400", "6165098421 1 412500.5"},
			Spend: []string{"2024 1 598400", "2012 1 412500.5"}, Complaints: &zero}},
		{`{"inn": "6163041287", "by": "quarter", "top": 1}`, profileFigures{Name: `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ ГОРОДА РОСТОВА-НА-ДОНУ "ШКОЛА № 14"`,
			Contracts: 2, Roubles: 1010900.5, Suppliers: []string{"6168104632 1 598400"},
			Spend: []string{"2024-Q1 1 598400", "2012-Q2 1 412500.5"}, Complaints: &zero}},
		{`{"inn": "6163041287", "from": "2024-01-01", "to": "2024-03-18"}`, profileFigures{Name: `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ ГОРОДА РОСТОВА-НА-ДОНУ "ШКОЛА № 14"`,
			Contracts: 1, Roubles: 598400, Suppliers: []string{"6168104632 1 598400"}, Spend: []string{"2024 1 598400"}, Complaints: &zero}},
		{`{"inn": "616511472903", "role": "supplier"}`, profileFigures{
			Contracts: 1, Roubles: 598400, Customers: []string{"6163041287 1 598400"}, Procedures: &profileBids{},
			Rivals: []tenderbase.Rival{}, Winners: []tenderbase.Rival{}, Statuses: []tenderbase.StatusCount{{Status: "completed", Count: 1}}, Unfair: &zero}},
		{`{"inn": "7804561238"}`, profileFigures{Name: `АКЦИОНЕРНОЕ ОБЩЕСТВО "ВЫЧИСЛИТЕЛЬНЫЕ СИСТЕМЫ СЕВЕРО-ЗАПАДА"`,
			Contracts: 1, Roubles: 12480000, Customers: []string{"7708503727 1 12480000"}, Procedures: &profileBids{},
			Rivals: []tenderbase.Rival{}, Winners: []tenderbase.Rival{}, Statuses: []tenderbase.StatusCount{{Status: "terminated", Count: 1}}, Unfair: &zero}},
		{`{"inn": "7728456123", "role": "supplier"}`, profileFigures{Procedures: &profileBids{},
			Rivals: []tenderbase.Rival{}, Winners: []tenderbase.Rival{}, Statuses: []tenderbase.StatusCount{}, Unfair: &one}},
	}
	ctx := asPlan(tenderbase.PlanGuru)
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			var paths []string
			for _, f := range profileFixtures {
				paths = append(paths, filepath.Join("..", "source", "eis", "testdata", f))
			}
			sum, err := importer.Import(t.Context(), store, paths, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
			if err != nil || sum.Rejected != 0 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			set := New(store, nil)
			for _, tc := range tests {
				out, err := call(t, set, ctx, "analytics.profile", tc.args)
				if err != nil {
					t.Fatalf("%s: %v", tc.args, err)
				}
				var got profileResult
				if err := json.Unmarshal(out.Value, &got); err != nil {
					t.Fatal(err)
				}
				names := gocmp.FilterPath(func(p gocmp.Path) bool { return p.Last().String() == ".Name" && len(p) > 2 }, gocmp.Ignore())
				if diff := gocmp.Diff(tc.want, figuresOfProfile(got), names, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s (-want +got):\n%s", tc.args, diff)
				}
				if !strings.Contains(out.Text, "Profile of "+got.INN) || !strings.Contains(out.Text, "Next: ") {
					t.Errorf("%s: the text does not say whose profile and what next:\n%s", tc.args, out.Text)
				}
			}
		})
	}
}

// TestProfilePlans checks the plan rule of analytics.profile, that of
// analytics.aggregate: free is refused, standard lists 20 rows at most,
// and a bad INN or period is an argument error.
func TestProfilePlans(t *testing.T) {
	for _, c := range []struct {
		plan tenderbase.Plan
		args string
		kind string
		arg  bool
	}{
		{tenderbase.PlanFree, `{"inn": "6163041287"}`, tenderbase.EFORBIDDEN, false},
		{tenderbase.PlanStandard, `{"inn": "6163041287", "top": 21}`, "", true},
		{tenderbase.PlanGuru, `{"inn": "61630412"}`, tenderbase.EINVALID, false},
		{tenderbase.PlanGuru, `{"inn": "6163041287", "from": "2024-13-01"}`, "", true},
		{tenderbase.PlanGuru, `{"inn": "6163041287", "from": "2024-02-01", "to": "2024-01-01"}`, tenderbase.EINVALID, false},
		{tenderbase.PlanGuru, `{"inn": "6163041287", "role": "broker"}`, tenderbase.EINVALID, false},
	} {
		_, err := call(t, demoSet, asPlan(c.plan), "analytics.profile", c.args)
		var argErr *ArgumentError
		switch {
		case err == nil:
			t.Errorf("%s %s: no error", c.plan, c.args)
		case c.arg && !errors.As(err, &argErr):
			t.Errorf("%s %s: %v, want an argument error", c.plan, c.args, err)
		case !c.arg && tenderbase.ErrorCode(err) != c.kind:
			t.Errorf("%s %s: %v, want %s", c.plan, c.args, err, c.kind)
		}
	}
	if _, err := call(t, demoSet, asPlan(tenderbase.PlanStandard), "analytics.profile", `{"inn": "6163041287", "top": 20}`); err != nil {
		t.Errorf("standard, top 20: %v", err)
	}
}
