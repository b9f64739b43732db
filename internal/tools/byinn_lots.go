package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// maxLotItems is how many lots of each role contragent.byInn lists; the
// counts cover them all.
const maxLotItems = 10

// lotActivity is contragent.byInn's section of property auctions: the lots
// selling the INN's property as a debtor, and those it organized.
type lotActivity struct {
	AsDebtor    int        `json:"as_debtor" jsonschema:"Lots selling the INN's property: a bankrupt's estate announced on fedresurs, or seized property whose owner the lot names by INN."`
	AsOrganizer int        `json:"as_organizer" jsonschema:"Lots the INN organized, or announced as the arbitration manager of a bankruptcy."`
	Items       []lotEntry `json:"items" jsonschema:"The newest lots of each role, at most 10 of each; torgi.detail gives one whole."`
}

// lotEntry is one lot as contragent.byInn lists it.
type lotEntry struct {
	ID          string    `json:"id" jsonschema:"The lot's id, for torgi.detail."`
	Role        string    `json:"role" jsonschema:"debtor or organizer."`
	Source      string    `json:"source,omitempty" jsonschema:"torgi.gov.ru or fedresurs."`
	Title       string    `json:"title"`
	Status      string    `json:"status,omitempty" jsonschema:"active, suspended (its procedure stopped), completed, failed or cancelled."`
	StartPrice  float64   `json:"start_price,omitempty"`
	Currency    string    `json:"currency,omitempty"`
	Outcome     string    `json:"outcome,omitempty" jsonschema:"sold, failed or cancelled, once the trade ended."`
	AuctionDate time.Time `json:"auction_date,omitzero"`
	PublishedAt time.Time `json:"published_at,omitzero"`
}

// lotsAggregates are contragent.byInn's counts of the lots naming inn.
func (s *Set) lotsAggregates(ctx context.Context, into *lotActivity) []aggregate {
	into.Items = []lotEntry{}
	role := func(name string, n *int) func(tenderbase.Search) (tenderbase.Record, error) {
		return func(srch tenderbase.Search) (tenderbase.Record, error) {
			return s.listLots(ctx, srch, name, n, into)
		}
	}
	return []aggregate{
		{"lots.as_debtor", tenderbase.KindLot, tenderbase.LookupINN, role("debtor", &into.AsDebtor)},
		{"lots.as_organizer", tenderbase.KindLot, tenderbase.LookupOrganizerINN, role("organizer", &into.AsOrganizer)},
	}
}

// listLots counts the lots srch finds into n, lists the newest of them in
// the section, and returns the newest.
func (s *Set) listLots(ctx context.Context, srch tenderbase.Search, role string, n *int, into *lotActivity) (tenderbase.Record, error) {
	srch.PageSize = maxLotItems
	page, err := s.store.Search(ctx, srch)
	if err != nil {
		return nil, fmt.Errorf("lots by %v: %w", srch.Where, err)
	}
	*n = page.Total
	for _, r := range page.Items {
		l, ok := r.(*tenderbase.Lot)
		if !ok {
			continue
		}
		e := lotEntry{ID: l.ID, Role: role, Source: l.Source, Title: l.Title, Status: lotState(l), StartPrice: l.StartPrice,
			Currency: l.Currency, AuctionDate: l.AuctionDate, PublishedAt: l.PublishedAt}
		if l.Result != nil {
			e.Outcome = l.Result.Outcome
		}
		into.Items = append(into.Items, e)
	}
	if len(page.Items) == 0 {
		return nil, nil
	}
	return page.Items[0], nil
}
