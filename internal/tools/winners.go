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
	Protocols      []json.RawMessage        `json:"protocols" jsonschema:"The tender's protocols in force, newest first, with their participants, failures and reasons; a protocol that a protocol cancellation names is left out (ru.izm lists it)."`
	Contracts      []json.RawMessage        `json:"contracts" jsonschema:"Contracts concluded from the tender, newest first."`
}

// tenderSummary is a tender's notice in brief: what it buys, from whom, and
// where it stands. It holds no tariff field.
type tenderSummary struct {
	PurchaseNumber string             `json:"purchase_number"`
	Law            string             `json:"law"`
	Version        int                `json:"version"`
	Title          string             `json:"title"`
	Status         string             `json:"status,omitempty"`
	State          string             `json:"state" jsonschema:"Where the tender stands once its protocols and events are applied, as ru.detail says: active, completed, cancelled or failed. status is the notice's own and may be older."`
	PlacingMethod  string             `json:"placing_method,omitempty"`
	Customer       tenderbase.Party   `json:"customer"`
	Region         int                `json:"region,omitempty"`
	MaxPrice       float64            `json:"max_price,omitempty"`
	Currency       string             `json:"currency,omitempty"`
	MaxPrices      []tenderbase.Money `json:"max_prices,omitempty"` // of a tender in several currencies
	PublishedAt    time.Time          `json:"published_at,omitzero"`
	URL            string             `json:"url,omitempty"`
}

// summarize returns the summary of t, whose protocols and events are o.
func summarize(t *tenderbase.Tender, o outcome) *tenderSummary {
	state, _ := stateOf(t, o)
	return &tenderSummary{
		PurchaseNumber: t.PurchaseNumber, Law: t.Law, Version: t.Version, Title: t.Title,
		Status: t.Status, State: state, PlacingMethod: t.PlacingMethod, Customer: t.Customer, Region: t.Region,
		MaxPrice: t.MaxPrice, Currency: t.Currency, MaxPrices: t.MaxPrices, PublishedAt: t.PublishedAt, URL: t.URL,
	}
}

// winnersField is the name under which ru.contractByNum shows a tender's
// tariff field participants.
const winnersField = "winners"

// contractByNum returns the winners, protocols and contracts of a tender.
func (s *Set) contractByNum(ctx context.Context, number string) (Output, error) {
	k, err := s.keptOf(ctx, number)
	if err != nil {
		return Output{}, err
	}
	if k.tender == nil && len(k.contracts) == 0 && !k.known() {
		return Output{}, notFound("no tender, protocol or contract with purchase number %s; find tenders with ru.search", tenderbase.Quote(number))
	}
	c := callerOf(ctx)
	hidden := restricted{}
	res := winnerResult{PurchaseNumber: number}
	if res.Contracts, err = hidden.maskAll(k.contracts, c.plan); err != nil {
		return Output{}, err
	}
	if res.Protocols, err = hidden.maskAll(records(k.protocols), c.plan); err != nil {
		return Output{}, err
	}
	if k.tender != nil {
		res.Tender = summarize(k.tender, k.outcome)
	}
	// Winners are participants of the tender or of its protocols: hidden
	// where either is.
	if hidesParticipants(tenderbase.KindTender, c.plan) || hidesParticipants(tenderbase.KindProtocol, c.plan) {
		hidden.add(winnersField)
	} else {
		res.Winners = winners(k.tender, k.protocols)
	}
	return output(res, hidden)
}

// kept is what is stored under a purchase number for ru.contractByNum.
type kept struct {
	tender    *tenderbase.Tender // nil when no notice is stored
	contracts []tenderbase.Record
	outcome
}

// keptOf returns the notice, contracts and protocols of a purchase number.
func (s *Set) keptOf(ctx context.Context, number string) (kept, error) {
	var k kept
	rec, err := s.get(ctx, tenderbase.KindTender, number)
	if err != nil {
		return k, err
	}
	k.tender, _ = rec.(*tenderbase.Tender)
	page, err := s.store.Search(ctx, lookup(tenderbase.KindContract, tenderbase.LookupPurchaseNumber, number, tenderbase.MaxPageSize))
	if err != nil {
		return k, fmt.Errorf("contracts of tender %s: %w", number, err)
	}
	k.contracts = page.Items
	k.outcome, err = s.outcomeOf(ctx, number)
	return k, err
}

func hidesParticipants(k tenderbase.Kind, p tenderbase.Plan) bool {
	return slices.Contains(tenderbase.HiddenFields(k, p), "participants")
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
