package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// awardedWorldTender is an award notice of two lots, one won by a company
// whose VAT number the notice writes with spaces, on a single bid.
func awardedWorldTender() *tenderbase.WorldTender {
	return &tenderbase.WorldTender{
		ID: "ted:123456-2024", Source: "ted", Country: 276, Title: "Schulverpflegung Los 1 und 2",
		Buyer: tenderbase.Party{Name: "Stadt Würzburg"}, Value: 500000, Currency: "EUR",
		AwardedValue: 410000, AwardedCurrency: "EUR", PublishedAt: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC),
		Awards: []tenderbase.WorldAward{
			{LotID: "1", Awarded: true, Value: 250000, Currency: "EUR", TendersReceived: 1,
				Winners: []tenderbase.WorldWinner{{Name: "Frischküche Mainfranken GmbH", ID: "DE 811 128 135", Country: 276, SME: true}}},
			{LotID: "2", Awarded: true, Value: 160000, Currency: "EUR", TendersReceived: 4,
				Winners: []tenderbase.WorldWinner{{Name: "Catering Nord AG", ID: "DE299999999", Country: 276}}},
		},
	}
}

// TestWorldAwards checks, on both stores, that a world tender's award is
// found by a winner's id however the notice spaced it, and by the winner's
// name, and that its summary names the winners, the total awarded beside
// the estimate, and the fewest tenders a lot received.
func TestWorldAwards(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := store.Put(context.Background(), []tenderbase.Record{awardedWorldTender()}); err != nil {
				t.Fatal(err)
			}
			set := New(store, nil)
			for _, args := range []string{`{"winner_id": "de811128135"}`, `{"winner_id": "DE-811-128-135"}`, `{"query": "Frischküche"}`} {
				p, out := decodeCall[struct {
					Total int `json:"total"`
				}](t, set, tenderbase.PlanCorporate, "world.search", args)
				if p.Total != 1 {
					t.Errorf("%s: %d found, want the award notice", args, p.Total)
				}
				var sum struct {
					Items []worldHit `json:"items"`
				}
				if err := json.Unmarshal(out.Summary, &sum); err != nil {
					t.Fatal(err)
				}
				if len(sum.Items) != 1 {
					continue
				}
				want := worldHit{Winners: []string{"Frischküche Mainfranken GmbH (DE 811 128 135)", "Catering Nord AG (DE299999999)"},
					Awarded: 410000, AwardedCurrency: "EUR", Price: 500000, Currency: "EUR", FewestTenders: 1}
				got := sum.Items[0]
				got = worldHit{Winners: got.Winners, Awarded: got.Awarded, AwardedCurrency: got.AwardedCurrency,
					Price: got.Price, Currency: got.Currency, FewestTenders: got.FewestTenders}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: summary (-want +got):\n%s", args, diff)
				}
				for _, s := range []string{"estimated 500000 EUR", "won by Frischküche", "awarded 410000 EUR", "fewest tenders 1"} {
					if !strings.Contains(out.Text, s) {
						t.Errorf("%s: the text lacks %q:\n%s", args, s, out.Text)
					}
				}
			}
			p, _ := decodeCall[struct {
				Total int `json:"total"`
			}](t, set, tenderbase.PlanCorporate, "world.search", `{"winner_id": "DE811128136"}`)
			if p.Total != 0 {
				t.Errorf("another id found %d", p.Total)
			}
		})
	}
}
