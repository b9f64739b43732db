package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/redflags"
)

// Bounds of what ru.flags reads of each winner: the tender's own records are
// read whole by their purchase number, a winner's by its INN up to these.
const (
	maxFlagWinners   = 10 // winners looked up in the registers
	maxWinnerEntries = 20 // entries of the register of unfair suppliers
	maxWinnerLots    = 10 // fedresurs lots selling its property
)

// FlagsAnswer is the output of ru.flags, which the export writes as a
// table too.
type FlagsAnswer struct {
	PurchaseNumber string          `json:"purchase_number,omitempty" jsonschema:"The tender's purchase number, for a tender's flags."`
	INN            string          `json:"inn,omitempty" jsonschema:"The customer's INN, for a customer's flags."`
	From           string          `json:"published_from,omitempty"`
	To             string          `json:"published_to,omitempty"`
	Title          string          `json:"title,omitempty" jsonschema:"What the tender buys, when its notice is stored."`
	Law            string          `json:"law,omitempty"`
	PlacingMethod  string          `json:"placing_method,omitempty"`
	Fired          int             `json:"fired" jsonschema:"How many rules fired."`
	Flags          []redflags.Flag `json:"flags" jsonschema:"Every rule, in the order of docs/flags.md, each fired, not_fired or cannot_tell with the figures it rests on."`
	// Figures are a customer's counts the flags rest on.
	Figures *tenderbase.CustomerFigures `json:"figures,omitempty" jsonschema:"A customer's counts the flags rest on, each with the newest purchase numbers it counts."`
}

// flagsArgs are the arguments of ru.flags: a tender, or a customer over
// a period.
type flagsArgs struct {
	TendNum string `json:"tend_num,omitempty" jsonschema:"Purchase number: 19 digits (44-FZ) or 11 (223-FZ)."`
	INN     string `json:"inn,omitempty" jsonschema:"Or a customer's INN: flags over its tenders."`
	From    string `json:"published_from,omitempty" jsonschema:"With inn: tenders published from this day."`
	To      string `json:"published_to,omitempty" jsonschema:"With inn: to this day, included."`
}

func (a *flagsArgs) check() error {
	a.TendNum, a.INN = strings.TrimSpace(a.TendNum), strings.TrimSpace(a.INN)
	switch {
	case a.TendNum == "" && a.INN == "":
		return argErrorf("give \"tend_num\", a purchase number, or \"inn\", a customer's INN")
	case a.TendNum != "" && a.INN != "":
		return argErrorf("give \"tend_num\" or \"inn\", not both")
	case a.INN == "" && (a.From != "" || a.To != ""):
		return argErrorf("\"published_from\" and \"published_to\" bound a customer's tenders: give them with \"inn\"")
	case a.INN != "" && !innValue.MatchString(a.INN):
		return argErrorf("argument \"inn\" is an INN of 10 or 12 digits, got %s", tenderbase.Quote(a.INN))
	}
	return nil
}

// question returns the customer's question of the arguments.
func (a flagsArgs) question() (tenderbase.CustomerQuestion, error) {
	q := tenderbase.CustomerQuestion{INN: a.INN}
	if a.From != "" {
		start, _, ok := parseDay(a.From)
		if !ok {
			return q, argErrorf("argument \"published_from\" is a day such as 2026-12-01 or 01.12.2026, got %s", tenderbase.Quote(a.From))
		}
		q.From = start
	}
	if a.To != "" {
		_, end, ok := parseDay(a.To)
		if !ok {
			return q, argErrorf("argument \"published_to\" is a day such as 2026-12-01 or 01.12.2026, got %s", tenderbase.Quote(a.To))
		}
		q.To = end.Add(time.Second)
	}
	if !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To) {
		return q, argErrorf("\"published_from\" must come before \"published_to\"")
	}
	return q, nil
}

func (s *Set) ruFlags() (*Tool, error) {
	return build(definition[flagsArgs]{
		name:  "ru.flags",
		title: "Tender red flags",
		description: "Red flags of a Russian tender: single bid, price near the initial, short deadline, many amendments, new, " +
			"unfair or bankrupt winner, upheld complaints; each fired, not_fired or cannot_tell (what is missing), with its " +
			"source, figures and records to open. Or of a customer (inn): shares of single bids, prices near the initial, " +
			"amended notices; upheld complaints. Paid plans." + " " + `Example: {"inn": "7701234567"}.`,
		output: outputOf[FlagsAnswer](""),
		run: func(ctx context.Context, args flagsArgs) (Output, error) {
			var res FlagsAnswer
			var err error
			if args.INN != "" {
				res, err = s.CustomerFlags(ctx, args)
			} else {
				res, err = s.Flags(ctx, args.TendNum)
			}
			if err != nil {
				return Output{}, err
			}
			return output(res, restricted{})
		},
	})
}

// CustomerFlags checks the red flags of a customer over its tenders,
// from the figures its store counts, for the caller of ctx: the free plan
// is refused (EFORBIDDEN).
func (s *Set) CustomerFlags(ctx context.Context, args flagsArgs) (FlagsAnswer, error) {
	if c := callerOf(ctx); !c.plan.Paid() {
		return FlagsAnswer{}, tenderbase.Errorf(tenderbase.EFORBIDDEN,
			"red flags are part of the standard, guru and corporate plans: they rest on participants, winners and suppliers, which the %s plan does not see", c.plan)
	}
	q, err := args.question()
	if err != nil {
		return FlagsAnswer{}, err
	}
	cf, ok := tenderbase.StoreAs[tenderbase.CustomerFlagger](s.store)
	if !ok {
		return FlagsAnswer{}, fmt.Errorf("the store %T counts no customer's figures", s.store)
	}
	f, err := cf.CustomerFigures(ctx, q)
	if err != nil {
		return FlagsAnswer{}, err
	}
	res := FlagsAnswer{INN: q.INN, From: args.From, To: args.To, Flags: redflags.CheckCustomer(f), Figures: &f}
	res.Fired = redflags.FiredCount(res.Flags)
	return res, nil
}

// Flags checks the red flags of the tender with the purchase number, for
// the caller of ctx: the free plan is refused (EFORBIDDEN), a number no
// record holds is ENOTFOUND.
func (s *Set) Flags(ctx context.Context, number string) (FlagsAnswer, error) {
	if c := callerOf(ctx); !c.plan.Paid() {
		return FlagsAnswer{}, tenderbase.Errorf(tenderbase.EFORBIDDEN,
			"red flags are part of the standard, guru and corporate plans: they rest on participants, winners and suppliers, which the %s plan does not see", c.plan)
	}
	e, err := s.evidence(ctx, number)
	if err != nil {
		return FlagsAnswer{}, err
	}
	res := FlagsAnswer{PurchaseNumber: number, Flags: redflags.Check(e, time.Now())}
	res.Fired = redflags.FiredCount(res.Flags)
	if t := e.Tender; t != nil {
		res.Title, res.Law, res.PlacingMethod = t.Title, t.Law, t.PlacingMethod
	}
	return res, nil
}

// evidence gathers what the rules read of a tender: its records by its
// purchase number, and its winners' by their INNs.
func (s *Set) evidence(ctx context.Context, number string) (redflags.Evidence, error) {
	k, err := s.keptOf(ctx, number)
	if err != nil {
		return redflags.Evidence{}, err
	}
	e := redflags.Evidence{PurchaseNumber: number, Tender: k.tender, Events: k.events, Protocols: k.protocols, Contracts: contractsOf(k.contracts)}
	if e.Complaints, err = listOf[*tenderbase.Complaint](ctx, s, tenderbase.KindComplaint, number); err != nil {
		return e, err
	}
	if e.Results, err = listOf[*tenderbase.ComplaintResult](ctx, s, tenderbase.KindComplaintResult, number); err != nil {
		return e, err
	}
	if k.tender == nil && len(k.contracts) == 0 && !k.known() && len(e.Complaints)+len(e.Results) == 0 {
		return e, notFound("no tender, protocol, contract or complaint with purchase number %s; find tenders with ru.search", tenderbase.Quote(number))
	}
	if e.Versions, err = s.versions(ctx, number); err != nil {
		return e, err
	}
	for _, w := range awardees(k.protocols, e.Contracts) {
		if err := s.lookUpWinner(ctx, &w); err != nil {
			return e, err
		}
		e.Winners = append(e.Winners, w)
	}
	return e, nil
}

// versions returns the stored versions of a notice, oldest first.
func (s *Set) versions(ctx context.Context, number string) ([]*tenderbase.Tender, error) {
	recs, err := s.store.Versions(ctx, tenderbase.KindTender, number)
	if err != nil && tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		return nil, fmt.Errorf("versions of tender %s: %w", number, err)
	}
	var out []*tenderbase.Tender
	for _, r := range recs {
		if t, ok := r.(*tenderbase.Tender); ok {
			out = append(out, t)
		}
	}
	return out, nil
}

func contractsOf(recs []tenderbase.Record) []*tenderbase.Contract {
	var out []*tenderbase.Contract
	for _, r := range recs {
		if c, ok := r.(*tenderbase.Contract); ok {
			out = append(out, c)
		}
	}
	return out
}

// awardees returns who won, each INN once, at most maxFlagWinners: the
// winners of the newest protocol of each lot that names any, with the
// protocol's date, or else the contracts' suppliers, with the day each
// was signed. A placeholder INN names nobody and is left out.
func awardees(protocols []*tenderbase.Protocol, contracts []*tenderbase.Contract) []redflags.Winner {
	var out []redflags.Winner
	seen := map[string]bool{}
	add := func(p tenderbase.Party, at time.Time) {
		if p.INN == "" || tenderbase.IsPlaceholderINN(p.INN) || seen[p.INN] || len(out) == maxFlagWinners {
			return
		}
		seen[p.INN] = true
		out = append(out, redflags.Winner{INN: p.INN, Name: p.Name, Award: at})
	}
	for _, p := range tenderbase.NewestByLot(protocols, namesWinner) {
		for _, w := range p.Winners() {
			add(w.Party, firstDate(p.ProtocolDate, p.PublishedAt))
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, c := range contracts {
		for _, sup := range c.Suppliers {
			add(sup, firstDate(c.SignedAt, c.PublishedAt))
		}
	}
	return out
}

func firstDate(ds ...time.Time) time.Time {
	for _, d := range ds {
		if !d.IsZero() {
			return d
		}
	}
	return time.Time{}
}

// lookUpWinner reads what the registers hold of w: its card, the entries
// of the register of unfair suppliers naming it, and the fedresurs lots
// selling its property as a debtor, each a bounded lookup by its INN.
func (s *Set) lookUpWinner(ctx context.Context, w *redflags.Winner) error {
	var err error
	if w.Org, err = s.org(ctx, w.INN); err != nil {
		return err
	}
	page, err := s.store.Search(ctx, lookup(tenderbase.KindUnfairSupplier, tenderbase.LookupINN, w.INN, maxWinnerEntries))
	if err != nil {
		return fmt.Errorf("register entries of %s: %w", w.INN, err)
	}
	for _, r := range page.Items {
		if u, ok := r.(*tenderbase.UnfairSupplier); ok {
			w.Unfair = append(w.Unfair, u)
		}
	}
	if page, err = s.store.Search(ctx, lookup(tenderbase.KindLot, tenderbase.LookupINN, w.INN, maxWinnerLots)); err != nil {
		return fmt.Errorf("lots of %s: %w", w.INN, err)
	}
	for _, r := range page.Items {
		if l, ok := r.(*tenderbase.Lot); ok && l.Source == tenderbase.LotSourceFedresurs && l.Debtor.INN == w.INN {
			w.Bankruptcy = append(w.Bankruptcy, l)
		}
	}
	return nil
}
