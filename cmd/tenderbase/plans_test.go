package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// realPurchasePlan is the real 223-FZ purchase plan of the shared data
// beside the project, when it is there.
const realPurchasePlan = "../../../shared/data/eis223/Homyakin__ZakupkiParser/purchasePlan_test.xml"

// The import writes the positions of the plans it reads, on either store:
// the four of the 44-FZ plan-schedule fixture and, where the shared data
// is, the 191 of the real 223-FZ purchase plan; they are found by the
// plan's number, a position's number and its IKZ, and a second import
// changes nothing.
func TestImportPlans(t *testing.T) {
	for _, store := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "store.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.URL(t) }},
	} {
		t.Run(store.name, func(t *testing.T) {
			db, dir := store.db(t), t.TempDir()
			copyFile(t, eisFixtures+"plan/tenderPlan2020_202501623000201001_3.xml", dir, "tenderPlan2020.xml")
			want, plans := "Read 4 records from 1 file: 4 inserted", map[string]int{"202501623000201001": 4}
			if _, err := os.Stat(realPurchasePlan); err == nil {
				copyFile(t, realPurchasePlan, dir, "purchasePlan.xml")
				want, plans["2180316803"] = "Read 195 records from 2 files: 195 inserted", 191
			}
			if got := runCLI(t, nil, "import", "--db", db, dir); got.code != 0 || !strings.Contains(got.stdout, want) {
				t.Fatalf("import: exit %d, want %q\n%s%s", got.code, want, got.stdout, got.stderr)
			}
			if got := runCLI(t, nil, "import", "--db", db, dir); got.code != 0 || !strings.Contains(got.stdout, ": 0 inserted, 0 replaced, 0 kept as older versions, ") {
				t.Errorf("second import: exit %d\n%s%s", got.code, got.stdout, got.stderr)
			}
			st, err := openStore(t.Context(), storeConfig{DB: db}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			count := func(field, value string) int {
				t.Helper()
				page, err := st.Search(t.Context(), tenderbase.Search{Kind: tenderbase.KindPlannedPurchase, Where: []tenderbase.Lookup{{Field: field, Value: value}}})
				if err != nil {
					t.Fatal(err)
				}
				return page.Total
			}
			for plan, n := range plans {
				if got := count(tenderbase.LookupPlanNumber, plan); got != n {
					t.Errorf("positions of plan %s: %d, want %d", plan, got, n)
				}
			}
			if count(tenderbase.LookupPlanPosition, "202501623000201001000002") != 1 || count(tenderbase.LookupIKZ, "252665812345066580100100020000000244") != 1 {
				t.Error("position 202501623000201001000002 is not found by its number and its IKZ")
			}
			rec, err := st.Get(t.Context(), tenderbase.KindPlannedPurchase, "202501623000201001000002")
			if p, ok := rec.(*tenderbase.PlannedPurchase); err != nil || !ok || p.Status != tenderbase.PlannedChanged || p.MaxPrice != 2745000.5 {
				t.Errorf("position 202501623000201001000002: %+v, %v; want it changed, for 2745000.5", rec, err)
			}
		})
	}
}
