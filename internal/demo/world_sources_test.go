package demo_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/source/eforms"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
	"github.com/tenderbase/tenderbase/internal/source/ocds"
	"github.com/tenderbase/tenderbase/internal/source/ted"
)

// worldFormats are the folders of the demo's world tenders, each with the
// predicate telling the tenders born of it.
var worldFormats = []struct {
	dir  string
	born func(tenderbase.Record) bool
}{
	{"ted", demo.TEDBorn},
	{"eforms", demo.EFormsBorn},
	{"ocds", demo.OCDSBorn},
}

// TestWorldImportMatchesReference imports the demo's TED XML, eForms and
// OCDS files into a real SQLite store through the importer, with the NDJSON
// format tried first as serve --demo does, and compares every world tender
// of demo.ndjson with the one imported, field by field, all fields. Nothing
// is left out of the comparison, because the generator gives each tender
// only what its format carries; what a format cannot carry is therefore
// missing from the reference as well:
//
//   - TED XML (a form F02 not divided into lots): no lots, as a notice of
//     one object without a lot number has none of its own; no updated date,
//     which only OCDS gives (the newest release merged); the url is the
//     notice's address on TED, from its URI_LIST; an award notice (F03) has
//     no deadline, documents or estimate of the whole, and its award no
//     award date, tender range or winner's size, and the contract's date
//     at midnight UTC, as F03 writes none of these;
//   - eForms: the url is the notice's page on TED, made of its publication
//     id, and the buyer profile (cbc:BuyerProfileURI) is the last of its
//     documents; every notice has a lot (LOT-0001) repeating the procedure;
//     no updated date;
//   - OCDS: no lots (tender.lots is optional and the releases have none);
//     the buyer's address ends with the country's name, which OCDS writes
//     in the address; the contract type is OCDS's category (goods, not
//     supplies);
//   - in no format a buyer's national id (reg_num): the demo's buyers have
//     none, rather than numbers that could be taken for those of the real
//     bodies they are named after.
//
// Some tenders have their results: TED (form F03) and eForms contract award
// notices of their own, OCDS award and contract releases merged into the
// process. Each of the three formats must bring in awards naming a winner
// with a name and an id, and a single-bid award among them.
func TestWorldImportMatchesReference(t *testing.T) {
	ctx := context.Background()
	store := importSources(t, ctx, []string{"ted", "eforms", "ocds"}, ndjson.Format{}, ted.Format{}, eforms.Format{}, ocds.Format{})
	ref, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	born, awarded, single := map[string]int{}, map[string]int{}, map[string]int{}
	for _, r := range ref {
		w, ok := r.(*tenderbase.WorldTender)
		if !ok {
			continue
		}
		dir := worldDir(w)
		if dir == "" {
			t.Errorf("world tender %s comes in through no format", w.ID)
			continue
		}
		born[dir]++
		rec, err := store.Get(ctx, tenderbase.KindWorldTender, w.ID)
		if err != nil {
			t.Errorf("world tender %s (%s): %v", w.ID, dir, err)
			continue
		}
		got := rec.(*tenderbase.WorldTender)
		if diff := cmp.Diff(w, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("world tender %s (%s) (-reference +imported):\n%s", w.ID, dir, diff)
		}
		for _, a := range got.Awards {
			if a.Awarded && len(a.Winners) > 0 && a.Winners[0].Name != "" && a.Winners[0].ID != "" && a.Value > 0 {
				awarded[dir]++
				if a.TendersReceived == 1 {
					single[dir]++
				}
			}
		}
	}
	for _, f := range worldFormats {
		dir := f.dir
		if awarded[dir] == 0 || single[dir] == 0 {
			t.Errorf("%s brings in %d awards with a winner, %d of them single-bid; want some of both", dir, awarded[dir], single[dir])
		}
	}
	total := 0
	for _, f := range worldFormats {
		if born[f.dir] == 0 {
			t.Errorf("no world tender comes in through %s", f.dir)
		}
		total += born[f.dir]
	}
	page, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindWorldTender})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != total {
		t.Errorf("imported %d world tenders, the reference has %d", page.Total, total)
	}
}

// worldDir returns the folder of the format w is born of, or "".
func worldDir(w *tenderbase.WorldTender) string {
	for _, f := range worldFormats {
		if f.born(w) {
			return f.dir
		}
	}
	return ""
}
