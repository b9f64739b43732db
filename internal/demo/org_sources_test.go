package demo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/source/egrul"
	"github.com/tenderbase/tenderbase/internal/source/rsmp"
)

// TestRegistersImportMatchReference imports the demo's EGRUL, EGRIP and
// SME register files into a real SQLite store through the importer, as
// serve --demo does, and compares every organization field by field with
// the reference records of demo.ndjson, but for what those files cannot
// carry:
//
//   - the contacts seen in EIS notices and contracts (the contact person,
//     e-mail, phone and postal address of a notice's contact block), and
//     the source "eis" they add: a register extract gives only the
//     registered address (an entrepreneur's, not even that: the open data
//     leave out a person's residence), and contragent.contacts reads the
//     notices' and contracts' contact blocks from those records when asked.
//
// Everything else comes in: the register part from the extracts (INN, KPP,
// OGRN, names, OKOPF form, address, region, status, registration date,
// head, OKVED codes with names, extract date), the SME part from the
// register's state (category, inclusion date, the state's date), and the
// date of the newest of the two. Among the organizations, one is run by a
// managing organization and has no head, and one has branches and a
// representative office, found by their KPPs.
func TestRegistersImportMatchReference(t *testing.T) {
	ctx := context.Background()
	store := importSources(t, ctx, []string{"egrul", "rsmp"}, egrul.Format{}, rsmp.Format{})
	ref, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	orgs, sme, entrepreneurs, managed, branched := 0, 0, 0, 0, 0
	for _, r := range ref {
		want, ok := r.(*tenderbase.Org)
		if !ok {
			continue
		}
		if !demo.EGRULBorn(want) {
			t.Errorf("org %s: not written as an EGRUL or EGRIP extract", want.INN)
		}
		got, err := store.Get(ctx, tenderbase.KindOrg, want.INN)
		if err != nil {
			t.Errorf("org %s: %v", want.INN, err)
			continue
		}
		if diff := cmp.Diff(registerCarried(want), got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("org %s (-reference +imported):\n%s", want.INN, diff)
		}
		orgs++
		if want.SME != "" {
			sme++
		}
		if want.RegisterSource == "egrip" {
			entrepreneurs++
		}
		o := got.(*tenderbase.Org)
		if len(o.Managers) > 0 && o.Managers[0].INN != "" && o.Head == "" {
			managed++
		}
		if hasBranchKinds(o) {
			branched++
			for _, b := range o.Branches {
				found, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindOrg,
					Where: []tenderbase.Lookup{{Field: tenderbase.LookupKPP, Value: b.KPP}}})
				if err != nil || found.Total != 1 {
					t.Errorf("org %s: its %s's KPP %s finds %v (%v)", o.INN, b.Kind, b.KPP, found, err)
				}
			}
		}
	}
	if orgs == 0 || sme == 0 || entrepreneurs == 0 || managed == 0 || branched == 0 {
		t.Fatalf("compared %d organizations, %d of them SMEs, %d entrepreneurs, %d run by a managing organization, %d with a branch and a representative office",
			orgs, sme, entrepreneurs, managed, branched)
	}
	page, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindOrg})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != orgs {
		t.Errorf("imported %d organizations, the reference has %d", page.Total, orgs)
	}
}

// hasBranchKinds reports whether o has a branch and a representative office,
// each with a KPP.
func hasBranchKinds(o *tenderbase.Org) bool {
	kinds := map[string]bool{}
	for _, b := range o.Branches {
		if b.KPP != "" {
			kinds[b.Kind] = true
		}
	}
	return kinds[tenderbase.BranchOffice] && kinds[tenderbase.RepresentativeOffice]
}

// registerCarried returns a copy of o with only the contacts and sources
// the registers give.
func registerCarried(o *tenderbase.Org) *tenderbase.Org {
	c := *o
	c.Contacts = slices.DeleteFunc(slices.Clone(o.Contacts), func(ct tenderbase.OrgContact) bool {
		return ct.Source != o.RegisterSource
	})
	c.Sources = slices.DeleteFunc(slices.Clone(o.Sources), func(s string) bool { return s == "eis" })
	return &c
}
