package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) contragentByInn() (*Tool, error) {
	return build(definition[innArgs]{
		name:  "contragent.byInn",
		title: "Organization by INN",
		description: "An organization or entrepreneur by INN: its register card (org) and its procurement: tenders placed and " +
			"organized, planned, contracts signed and won with sums, protocols and wins, complaints, FAS cases, rnp (in_register: " +
			"barred today), lots." + " " + "Counts free cannot see are null. Next: contragent.contacts, ru.search by customer_inn, contracts.search by " +
			"supplier_inn.",
		output: outputOf[innResult](tenderbase.KindOrg, "org"),
		run: func(ctx context.Context, args innArgs) (Output, error) {
			return s.byInn(ctx, args.INN)
		},
	})
}

// innResult is the output of contragent.byInn. The counts made from tariff
// fields are pointers: null for a plan that does not see those fields.
type innResult struct {
	innName
	Org           json.RawMessage      `json:"org" jsonschema:"The register record, or null when none is stored."`
	AsCustomer    customerActivity     `json:"as_customer" jsonschema:"What the INN bought."`
	AsOrganizer   organizerActivity    `json:"as_organizer" jsonschema:"What the INN placed for other customers."`
	AsSupplier    *contractActivity    `json:"as_supplier" jsonschema:"What the INN sold: the contracts naming it among their suppliers. Null when the plan does not show contract suppliers."`
	AsParticipant *participantActivity `json:"as_participant" jsonschema:"The INN as a bidder in the protocols of procurement commissions. Null when the plan does not show protocol participants."`
	Complaints    complaintCounts      `json:"complaints" jsonschema:"Complaints to the antimonopoly service naming the INN."`
	FASCases      int                  `json:"fas_cases" jsonschema:"Antimonopoly cases whose parties include the INN."`
	RNP           rnpStanding          `json:"rnp" jsonschema:"The INN in the register of unfair suppliers (44-FZ and 223-FZ): whether it is barred today, and the entries naming it."`
	Lots          lotActivity          `json:"lots" jsonschema:"Property auctions (torgi.gov.ru, fedresurs): lots selling the INN's property as a debtor, and lots it organized."`
	// SumsPartial is set when a party has more contracts than the sums
	// scan, so that the sums cover the newest only.
	SumsPartial bool `json:"sums_partial,omitempty" jsonschema:"Set when the sums cover only the newest contracts; counts are exact."`
}

type customerActivity struct {
	Tenders int `json:"tenders" jsonschema:"Tenders placed as customer."`
	Planned int `json:"planned" jsonschema:"Positions of its purchase plans: plans.search by customer_inn."`
	contractActivity
}

type organizerActivity struct {
	Tenders int `json:"tenders" jsonschema:"Tenders organized for other customers: as an authorized body or institution, an organization acting for the customer, the organizer of a joint purchase, or a 223-FZ placer other than the customer."`
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
	AsCustomer int  `json:"as_customer" jsonschema:"Complaints against the INN's procurements."`
	AsSupplier *int `json:"as_supplier" jsonschema:"Complaints the INN lodged, by their supplier INN. Null when the plan does not show it."`
}

// byInn gathers what is known of an INN, as far as the caller's plan
// shows it.
func (s *Set) byInn(ctx context.Context, inn string) (Output, error) {
	if err := checkINN(inn); err != nil {
		return Output{}, err
	}
	if tenderbase.IsPlaceholderINN(inn) {
		return Output{}, notFound("INN %s is the placeholder the EIS publishes for a masked participant: it names nobody", inn)
	}
	c := callerOf(ctx)
	org, err := s.org(ctx, inn)
	if err != nil {
		return Output{}, err
	}
	a, err := s.activity(ctx, c, inn)
	if err != nil {
		return Output{}, err
	}
	if org == nil && !a.any() {
		return Output{}, notFound("nothing is known of INN %s: no organization record, tender, contract, complaint, case, entry of the register of unfair suppliers or auction lot names it", inn)
	}
	res := a.result
	res.innName = named(inn, org, c.plan, a.latest...)
	hidden := restricted{}
	hidden.add(a.hidden...)
	res.Org = json.RawMessage("null")
	if org != nil {
		if res.Org, err = hidden.mask(org, c.plan); err != nil {
			return Output{}, err
		}
	}
	return output(res, hidden)
}

// activity is an INN's procurement activity with the latest record of each
// kind that names it, and the counts the caller's plan hides.
type activity struct {
	result innResult
	latest []tenderbase.Record
	hidden []string
}

func (a activity) any() bool {
	r := a.result
	n := r.AsCustomer.Tenders + r.AsCustomer.Planned + r.AsCustomer.Contracts + r.AsOrganizer.Tenders + r.Complaints.AsCustomer + r.FASCases + r.RNP.Entries +
		r.Lots.AsDebtor + r.Lots.AsOrganizer
	if r.AsSupplier != nil {
		n += r.AsSupplier.Contracts
	}
	if r.AsParticipant != nil {
		n += r.AsParticipant.Protocols
	}
	if r.Complaints.AsSupplier != nil {
		n += *r.Complaints.AsSupplier
	}
	return n > 0
}

// aggregate is one count of contragent.byInn over the records of kind that
// name the INN in the lookup field.
type aggregate struct {
	name  string // the member of the result, which Restricted names when hidden
	kind  tenderbase.Kind
	field string
	// run counts the records srch finds into the result and returns the
	// newest of them that may name the INN, or nil.
	run func(srch tenderbase.Search) (tenderbase.Record, error)
}

// activity counts the records that name inn and sums its contracts. A
// count whose lookup reads a field the caller's plan hides is not made: it
// stays null and is named hidden.
func (s *Set) activity(ctx context.Context, c caller, inn string) (activity, error) {
	var a activity
	for _, agg := range s.aggregates(ctx, inn, &a.result) {
		srch, err := c.plan.Restrict(lookup(agg.kind, agg.field, inn, 0), nil)
		if tenderbase.ErrorCode(err) == tenderbase.EFORBIDDEN {
			a.hidden = append(a.hidden, agg.name)
			continue
		}
		if err != nil {
			return a, err
		}
		latest, err := agg.run(srch)
		if err != nil {
			return a, err
		}
		if latest != nil {
			a.latest = append(a.latest, latest)
		}
	}
	return a, nil
}

// aggregates returns the counts of contragent.byInn of inn, each writing
// its part of r.
func (s *Set) aggregates(ctx context.Context, inn string, r *innResult) []aggregate {
	return append([]aggregate{
		{"as_customer.tenders", tenderbase.KindTender, tenderbase.LookupCustomerINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			return s.count(ctx, srch, &r.AsCustomer.Tenders)
		}},
		{"as_customer.planned", tenderbase.KindPlannedPurchase, tenderbase.LookupCustomerINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			return s.count(ctx, srch, &r.AsCustomer.Planned)
		}},
		{"as_organizer.tenders", tenderbase.KindTender, tenderbase.LookupOrganizerINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			return s.count(ctx, srch, &r.AsOrganizer.Tenders)
		}},
		{"as_customer", tenderbase.KindContract, tenderbase.LookupCustomerINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			return s.sumContracts(ctx, srch, &r.AsCustomer.contractActivity, &r.SumsPartial)
		}},
		{"as_supplier", tenderbase.KindContract, tenderbase.LookupSupplierINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			r.AsSupplier = &contractActivity{}
			return s.sumContracts(ctx, srch, r.AsSupplier, &r.SumsPartial)
		}},
		{"as_participant", tenderbase.KindProtocol, tenderbase.LookupSupplierINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			r.AsParticipant = &participantActivity{}
			return s.countWins(ctx, srch, inn, r.AsParticipant)
		}},
		{"complaints.as_customer", tenderbase.KindComplaint, tenderbase.LookupCustomerINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			return s.count(ctx, srch, &r.Complaints.AsCustomer)
		}},
		{"complaints.as_supplier", tenderbase.KindComplaint, tenderbase.LookupSupplierINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			r.Complaints.AsSupplier = new(int)
			return s.count(ctx, srch, r.Complaints.AsSupplier)
		}},
		{"fas_cases", tenderbase.KindFASCase, tenderbase.LookupINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
			return s.count(ctx, srch, &r.FASCases)
		}},
		s.rnpAggregate(ctx, inn, &r.RNP),
	}, s.lotsAggregates(ctx, &r.Lots)...)
}

// count sets n to the number of records srch finds and returns the newest.
func (s *Set) count(ctx context.Context, srch tenderbase.Search, n *int) (tenderbase.Record, error) {
	srch.PageSize = 1
	page, err := s.store.Search(ctx, srch)
	if err != nil {
		return nil, fmt.Errorf("count %s by %v: %w", srch.Kind, srch.Where, err)
	}
	*n = page.Total
	if len(page.Items) == 0 {
		return nil, nil
	}
	return page.Items[0], nil
}

// sumContracts counts and sums the contracts srch finds, notes in partial
// whether the sums cover the newest only, and returns the latest of them.
func (s *Set) sumContracts(ctx context.Context, srch tenderbase.Search, into *contractActivity, partial *bool) (tenderbase.Record, error) {
	var latest tenderbase.Record
	// Summed in kopecks: float sums of many prices pick up noise below them.
	kopecks := map[string]int64{}
	total, cut, err := s.scan(ctx, srch, func(r tenderbase.Record) {
		if latest == nil {
			latest = r
		}
		if c, ok := r.(*tenderbase.Contract); ok {
			kopecks[currency(c.Currency)] += tenderbase.Kopecks(c.Price)
		}
	})
	if err != nil {
		return nil, err
	}
	sums := make(map[string]float64, len(kopecks))
	for cur, k := range kopecks {
		sums[cur] = tenderbase.Amount(k)
	}
	*into = contractActivity{Contracts: total, ContractsSum: sums}
	*partial = *partial || cut
	return latest, nil
}

// countWins counts the protocols srch finds, which name inn as a
// participant, and the lots they name it winner of, and returns the latest
// of them. A winner named by two protocols of one lot (a protocol and its
// correction, two stages) has won once. A cancelled protocol counts for
// nothing.
func (s *Set) countWins(ctx context.Context, srch tenderbase.Search, inn string, into *participantActivity) (tenderbase.Record, error) {
	var protocols []*tenderbase.Protocol
	total, partial, err := s.scan(ctx, srch, func(r tenderbase.Record) {
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
		cancelled[p.PurchaseNumber] = tenderbase.CancelledProtocols(events)
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
