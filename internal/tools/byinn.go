package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) contragentByInn() (*Tool, error) {
	return build(definition[innArgs]{
		name:  "contragent.byInn",
		title: "Organization by INN",
		description: "Look up a counterparty (an organization or an individual entrepreneur) by its INN: its register record " +
			"(name, KPP, OGRN, address, status, registration date, head, OKVED2 activity codes, SME category) and its " +
			"activity in public procurement: tenders it placed and contracts it signed as a customer, contracts it won as a " +
			"supplier (counts and sums by currency), protocols naming it as a bidder and how many it won (as_participant), " +
			"complaints naming it as customer or supplier, and antimonopoly cases. " +
			"When no register record is stored, org is null and the name comes from the latest tender, contract or protocol. " +
			maskHelp + " Fails with not found when nothing at all is known of the INN. Use contragent.contacts for contacts. " +
			`Example: {"inn": "7712137030"}.`,
		output: outputOf[innResult](tenderbase.KindOrg, "org"),
		run: func(ctx context.Context, args innArgs) (Output, error) {
			return s.byInn(ctx, args.INN)
		},
	})
}

// innResult is the output of contragent.byInn.
type innResult struct {
	innName
	Org        json.RawMessage  `json:"org" jsonschema:"The register record, or null when none is stored."`
	AsCustomer customerActivity `json:"as_customer" jsonschema:"What the INN bought."`
	AsSupplier contractActivity `json:"as_supplier" jsonschema:"What the INN sold."`
	// AsParticipant counts protocols, whose participants are a tariff
	// field; counts are aggregates and every plan sees them.
	AsParticipant participantActivity `json:"as_participant" jsonschema:"The INN as a bidder in the protocols of procurement commissions."`
	Complaints    complaintCounts     `json:"complaints" jsonschema:"Complaints to the antimonopoly service naming the INN."`
	FASCases      int                 `json:"fas_cases" jsonschema:"Antimonopoly cases whose parties include the INN."`
	// SumsPartial is set when a party has more contracts than the sums
	// scan, so that the sums cover the newest only.
	SumsPartial bool `json:"sums_partial,omitempty" jsonschema:"Set when the sums cover only the newest contracts; counts are exact."`
}

type customerActivity struct {
	Tenders int `json:"tenders" jsonschema:"Tenders placed as customer."`
	contractActivity
}

type contractActivity struct {
	Contracts    int                `json:"contracts" jsonschema:"Contracts signed."`
	ContractsSum map[string]float64 `json:"contracts_sum" jsonschema:"Sum of the contracts' prices by ISO 4217 currency."`
}

type participantActivity struct {
	Protocols int `json:"protocols" jsonschema:"Protocols naming the INN as a participant, leaving out those a protocol cancellation cancels."`
	Wins      int `json:"wins" jsonschema:"Tenders (each lot apart) where a protocol in force names the INN winner, or ranks it first where none is marked."`
	// Partial is set when the INN is in more protocols than the scan reads.
	Partial bool `json:"partial,omitempty" jsonschema:"Set when wins count the newest protocols only; protocols is exact."`
}

type complaintCounts struct {
	AsCustomer int `json:"as_customer" jsonschema:"Complaints against the INN's procurements."`
	AsSupplier int `json:"as_supplier" jsonschema:"Complaints the INN lodged."`
}

// byInn gathers what is known of an INN.
func (s *Set) byInn(ctx context.Context, inn string) (Output, error) {
	if err := checkINN(inn); err != nil {
		return Output{}, err
	}
	org, err := s.org(ctx, inn)
	if err != nil {
		return Output{}, err
	}
	a, err := s.activity(ctx, inn)
	if err != nil {
		return Output{}, err
	}
	if org == nil && !a.any() {
		return Output{}, notFound("nothing is known of INN %s: no organization record, tender, contract, complaint or case names it", inn)
	}
	res := a.result
	res.innName = named(inn, org, a.latest...)
	hidden := restricted{}
	res.Org = json.RawMessage("null")
	if org != nil {
		if res.Org, err = hidden.mask(org, callerOf(ctx).plan); err != nil {
			return Output{}, err
		}
	}
	return output(res, hidden)
}

// activity is an INN's procurement activity with the latest record of each
// kind that names it.
type activity struct {
	result innResult
	latest []tenderbase.Record
}

func (a activity) any() bool {
	r := a.result
	return r.AsCustomer.Tenders+r.AsCustomer.Contracts+r.AsSupplier.Contracts+r.AsParticipant.Protocols+
		r.Complaints.AsCustomer+r.Complaints.AsSupplier+r.FASCases > 0
}

// activity counts the records that name inn and sums its contracts.
func (s *Set) activity(ctx context.Context, inn string) (activity, error) {
	var a activity
	if err := s.countActivity(ctx, inn, &a); err != nil {
		return a, err
	}
	r := &a.result
	latest, err := s.countWins(ctx, inn, &r.AsParticipant)
	if err != nil {
		return a, err
	}
	if latest != nil {
		a.latest = append(a.latest, latest)
	}
	for _, side := range []struct {
		field string
		into  *contractActivity
	}{
		{tenderbase.LookupCustomerINN, &r.AsCustomer.contractActivity},
		{tenderbase.LookupSupplierINN, &r.AsSupplier},
	} {
		latest, partial, err := s.sumContracts(ctx, side.field, inn, side.into)
		if err != nil {
			return a, err
		}
		r.SumsPartial = r.SumsPartial || partial
		if latest != nil {
			a.latest = append(a.latest, latest)
		}
	}
	return a, nil
}

// countActivity counts the tenders, complaints and cases that name inn.
func (s *Set) countActivity(ctx context.Context, inn string, a *activity) error {
	r := &a.result
	for _, c := range []struct {
		kind  tenderbase.Kind
		field string
		n     *int
	}{
		{tenderbase.KindTender, tenderbase.LookupCustomerINN, &r.AsCustomer.Tenders},
		{tenderbase.KindComplaint, tenderbase.LookupCustomerINN, &r.Complaints.AsCustomer},
		{tenderbase.KindComplaint, tenderbase.LookupSupplierINN, &r.Complaints.AsSupplier},
		{tenderbase.KindFASCase, tenderbase.LookupINN, &r.FASCases},
	} {
		page, err := s.store.Search(ctx, lookup(c.kind, c.field, inn, 1))
		if err != nil {
			return fmt.Errorf("count %s by %s: %w", c.kind, c.field, err)
		}
		*c.n = page.Total
		if c.kind == tenderbase.KindTender && len(page.Items) > 0 {
			a.latest = append(a.latest, page.Items[0])
		}
	}
	return nil
}

// sumContracts counts and sums the contracts whose field is inn, and
// returns the latest of them.
func (s *Set) sumContracts(ctx context.Context, field, inn string, into *contractActivity) (tenderbase.Record, bool, error) {
	var latest tenderbase.Record
	sums := map[string]float64{}
	total, partial, err := s.scan(ctx, lookup(tenderbase.KindContract, field, inn, 0), func(r tenderbase.Record) {
		if latest == nil {
			latest = r
		}
		if c, ok := r.(*tenderbase.Contract); ok {
			sums[currency(c.Currency)] += c.Price
		}
	})
	if err != nil {
		return nil, false, err
	}
	for cur, sum := range sums {
		// Kopecks: float sums of many prices pick up noise below them.
		sums[cur] = math.Round(sum*100) / 100
	}
	*into = contractActivity{Contracts: total, ContractsSum: sums}
	return latest, partial, nil
}

// countWins counts the protocols naming inn as a participant and the lots
// they name it winner of, and returns the latest of them. A winner named by
// two protocols of one lot (a protocol and its correction, two stages) has
// won once. A cancelled protocol counts for nothing.
func (s *Set) countWins(ctx context.Context, inn string, into *participantActivity) (tenderbase.Record, error) {
	var protocols []*tenderbase.Protocol
	total, partial, err := s.scan(ctx, lookup(tenderbase.KindProtocol, tenderbase.LookupSupplierINN, inn, 0), func(r tenderbase.Record) {
		if p, ok := r.(*tenderbase.Protocol); ok {
			protocols = append(protocols, p)
		}
	})
	if err != nil {
		return nil, err
	}
	kept, err := s.uncancelled(ctx, protocols)
	if err != nil {
		return nil, err
	}
	var latest tenderbase.Record
	won := map[string]bool{}
	for _, p := range kept {
		if latest == nil {
			latest = p
		}
		if slices.ContainsFunc(p.Winners(), func(w tenderbase.Participant) bool { return w.INN == inn }) {
			won[fmt.Sprintf("%s/%d", p.PurchaseNumber, p.LotNumber)] = true
		}
	}
	*into = participantActivity{Protocols: total - (len(protocols) - len(kept)), Wins: len(won), Partial: partial}
	return latest, nil
}

// uncancelled returns the protocols, in their order, that no protocol
// cancellation of their tender names. It reads the events of each tender
// once.
func (s *Set) uncancelled(ctx context.Context, protocols []*tenderbase.Protocol) ([]*tenderbase.Protocol, error) {
	cancelled := map[string]map[string]bool{}
	for _, p := range protocols {
		if _, seen := cancelled[p.PurchaseNumber]; seen || p.Number == "" {
			continue
		}
		events, err := listOf[*tenderbase.TenderEvent](ctx, s, tenderbase.KindTenderEvent, p.PurchaseNumber)
		if err != nil {
			return nil, err
		}
		cancelled[p.PurchaseNumber] = cancelledNumbers(events)
	}
	return slices.DeleteFunc(slices.Clone(protocols), func(p *tenderbase.Protocol) bool {
		return cancelled[p.PurchaseNumber][p.Number]
	}), nil
}

// currency returns the ISO code of a price, RUB when the record says none.
func currency(c string) string {
	if c == "" {
		return "RUB"
	}
	return c
}
