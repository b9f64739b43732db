package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// winnerResult is the output of ru.contractByNum.
type winnerResult struct {
	PurchaseNumber string                   `json:"purchase_number" jsonschema:"The tender's purchase number."`
	Tender         *tenderSummary           `json:"tender" jsonschema:"The tender's notice in brief, or null when only its protocols or contracts are known."`
	Winners        []tenderbase.Participant `json:"winners" jsonschema:"Who won, with their offers: the winners (or else those ranked 1) of the newest protocol of each lot that names any, or else of the notice's own participants; null when the plan does not show winners."`
	Protocols      []json.RawMessage        `json:"protocols" jsonschema:"The tender's protocols, newest first, with their participants, failures and reasons."`
	Contracts      []json.RawMessage        `json:"contracts" jsonschema:"Contracts concluded from the tender, newest first."`
}

// tenderSummary is a tender's notice in brief: what it buys, from whom, and
// where it stands. It holds no tariff field.
type tenderSummary struct {
	PurchaseNumber string           `json:"purchase_number"`
	Law            string           `json:"law"`
	Version        int              `json:"version"`
	Title          string           `json:"title"`
	Status         string           `json:"status,omitempty"`
	PlacingMethod  string           `json:"placing_method,omitempty"`
	Customer       tenderbase.Party `json:"customer"`
	Region         int              `json:"region,omitempty"`
	MaxPrice       float64          `json:"max_price,omitempty"`
	Currency       string           `json:"currency,omitempty"`
	PublishedAt    time.Time        `json:"published_at,omitzero"`
	URL            string           `json:"url,omitempty"`
}

func summarize(t *tenderbase.Tender) *tenderSummary {
	return &tenderSummary{
		PurchaseNumber: t.PurchaseNumber, Law: t.Law, Version: t.Version, Title: t.Title,
		Status: t.Status, PlacingMethod: t.PlacingMethod, Customer: t.Customer, Region: t.Region,
		MaxPrice: t.MaxPrice, Currency: t.Currency, PublishedAt: t.PublishedAt, URL: t.URL,
	}
}

// winnersField is the name under which ru.contractByNum shows a tender's
// tariff field participants.
const winnersField = "winners"

// contractByNum returns the winners, protocols and contracts of a tender.
func (s *Set) contractByNum(ctx context.Context, number string) (Output, error) {
	rec, err := s.get(ctx, tenderbase.KindTender, number)
	if err != nil {
		return Output{}, err
	}
	page, err := s.store.Search(ctx, lookup(tenderbase.KindContract, tenderbase.LookupPurchaseNumber, number, tenderbase.MaxPageSize))
	if err != nil {
		return Output{}, fmt.Errorf("contracts of tender %s: %w", number, err)
	}
	protocols, err := listOf[*tenderbase.Protocol](ctx, s, tenderbase.KindProtocol, number)
	if err != nil {
		return Output{}, err
	}
	if rec == nil && page.Total == 0 && len(protocols) == 0 {
		return Output{}, notFound("no tender, protocol or contract with purchase number %q; find tenders with ru.search", number)
	}
	c := callerOf(ctx)
	hidden := restricted{}
	res := winnerResult{PurchaseNumber: number}
	if res.Contracts, err = hidden.maskAll(page.Items, c.plan); err != nil {
		return Output{}, err
	}
	if res.Protocols, err = hidden.maskAll(records(protocols), c.plan); err != nil {
		return Output{}, err
	}
	t, _ := rec.(*tenderbase.Tender)
	if t != nil {
		res.Tender = summarize(t)
	}
	if slices.Contains(tenderbase.HiddenFields(tenderbase.KindTender, c.plan), "participants") {
		hidden.add(winnersField)
	} else {
		res.Winners = winners(t, protocols)
	}
	return output(res, hidden)
}

// winners returns who won the tender: the winners of the newest protocol of
// each lot that names any, or else the participants of t that won, marked
// winner or ranked first. Never nil, so a paid caller sees [] rather than
// the null that means "hidden".
func winners(t *tenderbase.Tender, protocols []*tenderbase.Protocol) []tenderbase.Participant {
	if w := protocolWinners(protocols); len(w) > 0 {
		return w
	}
	out := []tenderbase.Participant{}
	if t == nil {
		return out
	}
	for _, p := range t.Participants {
		if p.Winner || p.Rank == 1 {
			out = append(out, p)
		}
	}
	return out
}

// records returns rs as records.
func records[R tenderbase.Record](rs []R) []tenderbase.Record {
	out := make([]tenderbase.Record, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}
