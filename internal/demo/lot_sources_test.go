package demo_test

import (
	"context"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/source/efrsb"
	"github.com/tenderbase/tenderbase/internal/source/torgi"
)

// TestLotImportMatchesReference imports the demo's torgi.gov.ru documents
// and fedresurs messages into a real SQLite store through the importer, as
// serve --demo does, and compares every lot the store returns, its
// documents merged, with the reference lot of demo.ndjson, field by field.
// The reference lots are made as those documents give them, so nothing is
// left out of the comparison; what each format cannot carry is absent from
// the reference instead (lotLeftOut checks that it is):
//
//   - a torgi.gov.ru lot has no manager, case number or price reduction
//     (these are bankruptcy terms) and no trade number (a platform's); its
//     holder is empty, the demo's organizers selling property they hold;
//     its seized property's owner is a name in words (DA_owner_*), without
//     an INN; its result has no winner, date or message, as the card
//     gives only its status and final price; and it has no Updated date,
//     neither the notice nor the card saying when it last changed;
//   - a fedresurs lot has no organizer (the platform's BiddingInvitation
//     names the trade organizer, and the demo writes the manager's
//     messages only), no address, characteristics or files (a message
//     describes the property in words), no trade number (the platform's)
//     and no price reduction (no sample message shows where an
//     AuctionLot gives it); its manager has no OGRN and its debtor no KPP
//     (the messages name neither), and its winner no OGRN, as the
//     TradeResult names a winning person by INN.
func TestLotImportMatchesReference(t *testing.T) {
	ctx := context.Background()
	store := importSources(t, ctx, []string{"torgi", "fedresurs"}, torgi.Format{}, efrsb.Format{})
	ref, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range ref {
		l, ok := r.(*tenderbase.Lot)
		if !ok {
			continue
		}
		if left := lotLeftOut(l); len(left) > 0 {
			t.Errorf("reference lot %s has %v, which its documents cannot carry", l.ID, left)
		}
		compareGet(t, ctx, store, l, nil)
		counts[l.Source]++
	}
	if counts[tenderbase.LotSourceTorgi] == 0 || counts[tenderbase.LotSourceFedresurs] == 0 {
		t.Fatalf("compared %v lots by source", counts)
	}
	page, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindLot})
	if err != nil {
		t.Fatal(err)
	}
	if want := counts[tenderbase.LotSourceTorgi] + counts[tenderbase.LotSourceFedresurs]; page.Total != want {
		t.Errorf("imported %d lots, the reference has %d", page.Total, want)
	}
}

// lotLeftOut names the fields of reference lot l that its source's
// documents cannot carry but l has.
func lotLeftOut(l *tenderbase.Lot) []string {
	var left []string
	has := func(name string, set bool) {
		if set {
			left = append(left, name)
		}
	}
	has("trade number", l.TradeNumber != "")
	has("price reduction", l.PriceReduction != "")
	switch l.Source {
	case tenderbase.LotSourceTorgi:
		has("manager", l.Manager != tenderbase.Party{})
		has("case number", l.CaseNumber != "")
		has("holder", l.Holder != tenderbase.Party{})
		has("debtor's INN", l.Debtor.INN != "")
		has("updated", !l.Updated.IsZero())
		has("result's winner, date or message", l.Result != nil &&
			(l.Result.Winner != tenderbase.Party{} || !l.Result.PublishedAt.IsZero() || l.Result.Message != ""))
	case tenderbase.LotSourceFedresurs:
		has("organizer", l.Organizer != tenderbase.Party{})
		has("address", l.Address != "")
		has("properties", len(l.Properties) > 0)
		has("attachments", len(l.Attachments) > 0)
		has("manager's OGRN", l.Manager.OGRN != "")
		has("debtor's KPP", l.Debtor.KPP != "")
		has("winner's OGRN", l.Result != nil && l.Result.Winner.OGRN != "")
	default:
		has("source "+l.Source, true)
	}
	return left
}
