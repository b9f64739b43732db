package storetest

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// testUnfairExclusion checks that an entry of the register of unfair
// suppliers and the exclusion that names it by number are one record,
// excluded, in whichever order they arrive, and that the entry is found by
// the INN of its supplier and of a founder.
func testUnfairExclusion(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	const regNumber = "23003469"
	entry := &tenderbase.UnfairSupplier{
		RegistryNumber: regNumber, Law: "44", Version: 1, State: tenderbase.UnfairIncluded,
		IncludedAt: day(1), PublishedAt: day(1), ExcludeOn: "2026-01-02", Reason: "CANCEL_CONTRACT",
		Supplier: tenderbase.UnfairParty{Type: "U", Name: `ООО "СТРОЙМОНТАЖ"`, INN: "7404840216"},
		Founders: []tenderbase.UnfairPerson{{Name: "Петров Пётр Петрович", INN: "740400012345"}},
	}
	exclusion := &tenderbase.UnfairSupplier{
		RegistryNumber: regNumber,
		Exclusion:      &tenderbase.UnfairExclude{Date: day(9), Type: "MANUAL"},
	}
	want := *entry
	want.State = tenderbase.UnfairExcluded
	want.Exclusion = exclusion.Exclusion
	for name, order := range map[string][]tenderbase.Record{
		"entry first":     {entry, exclusion},
		"exclusion first": {exclusion, entry},
	} {
		t.Run(name, func(t *testing.T) {
			st := openStore(t, open)
			for _, r := range order {
				put(t, st, r)
			}
			got, err := st.Get(t.Context(), tenderbase.KindUnfairSupplier, regNumber)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if diff := gocmp.Diff(tenderbase.Record(&want), got); diff != "" {
				t.Errorf("merged entry (-want +got):\n%s", diff)
			}
			wantPut(t, st, tenderbase.PutResult{Unchanged: 1}, entry)
			for _, inn := range []string{"7404840216", "740400012345"} {
				page, err := st.Search(t.Context(), tenderbase.Search{
					Kind: tenderbase.KindUnfairSupplier, Where: []tenderbase.Lookup{{Field: tenderbase.LookupINN, Value: inn}},
				})
				if err != nil || page.Total != 1 {
					t.Errorf("entries of INN %s: total %d, err %v; want 1", inn, page.Total, err)
				}
			}
		})
	}
}
