package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"

	"github.com/tenderbase/tenderbase"
)

// innArgs are the arguments of the contragent tools.
type innArgs struct {
	INN string `json:"inn" jsonschema:"The INN: 10 digits for an organization (7712137030), 12 for a person or an individual entrepreneur. Required."`
}

func (a *innArgs) check() error { return requireText("inn", &a.INN) }

var innRE = regexp.MustCompile(innPattern)

// checkINN returns an EINVALID error for a malformed INN. It is a tool
// error rather than an argument error so that the caller reads why.
func checkINN(inn string) error {
	if !innRE.MatchString(inn) {
		return tenderbase.Errorf(tenderbase.EINVALID,
			"inn %q is not an INN: an INN is 10 digits (an organization) or 12 digits (a person or an individual entrepreneur)", inn)
	}
	return nil
}

func (s *Set) contragentByInn() (*Tool, error) {
	return build(definition[innArgs]{
		name:  "contragent.byInn",
		title: "Organization by INN",
		description: "Look up a counterparty (an organization or an individual entrepreneur) by its INN: its register record " +
			"(name, KPP, OGRN, address, status, registration date, head, OKVED2 activity codes, SME category) and its " +
			"activity in public procurement: tenders it placed and contracts it signed as a customer, contracts it won as a " +
			"supplier (counts and sums by currency), complaints naming it as customer or supplier, and antimonopoly cases. " +
			"When no register record is stored, org is null and the name comes from the latest tender or contract. " +
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
	Complaints complaintCounts  `json:"complaints" jsonschema:"Complaints to the antimonopoly service naming the INN."`
	FASCases   int              `json:"fas_cases" jsonschema:"Antimonopoly cases whose parties include the INN."`
	// SumsPartial is set when a party has more contracts than the sums
	// scan, so that the sums cover the newest only.
	SumsPartial bool `json:"sums_partial,omitempty" jsonschema:"Set when the sums cover only the newest contracts; counts are exact."`
}

// innName is an INN with the name it is known by.
type innName struct {
	INN        string `json:"inn" jsonschema:"The INN asked for."`
	Name       string `json:"name" jsonschema:"The name: from the register record, or else from the latest tender or contract naming the INN."`
	NameSource string `json:"name_source" jsonschema:"Where the name comes from: org, or tender <purchase number>, or contract <registry number>."`
}

// named returns inn with its name: the organization's, or else the one the
// newest of recs that names inn gives it.
func named(inn string, org *tenderbase.Org, recs ...tenderbase.Record) innName {
	n := innName{INN: inn}
	if org != nil {
		n.Name, n.NameSource = org.Name, "org"
		return n
	}
	var newest tenderbase.Record
	for _, r := range recs {
		if name := partyName(inn, r); name != "" && (newest == nil || r.Date().After(newest.Date())) {
			newest, n.Name, n.NameSource = r, name, fmt.Sprintf("%s %s", r.Kind(), r.Key())
		}
	}
	return n
}

type customerActivity struct {
	Tenders int `json:"tenders" jsonschema:"Tenders placed as customer."`
	contractActivity
}

type contractActivity struct {
	Contracts    int                `json:"contracts" jsonschema:"Contracts signed."`
	ContractsSum map[string]float64 `json:"contracts_sum" jsonschema:"Sum of the contracts' prices by ISO 4217 currency."`
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

// org returns the organization record of inn, or nil.
func (s *Set) org(ctx context.Context, inn string) (*tenderbase.Org, error) {
	rec, err := s.get(ctx, tenderbase.KindOrg, inn)
	if rec == nil || err != nil {
		return nil, err
	}
	org, ok := rec.(*tenderbase.Org)
	if !ok {
		return nil, fmt.Errorf("organization %s is a %T", inn, rec)
	}
	return org, nil
}

// activity is an INN's procurement activity with the latest record of each
// kind that names it.
type activity struct {
	result innResult
	latest []tenderbase.Record
}

func (a activity) any() bool {
	r := a.result
	return r.AsCustomer.Tenders+r.AsCustomer.Contracts+r.AsSupplier.Contracts+
		r.Complaints.AsCustomer+r.Complaints.AsSupplier+r.FASCases > 0
}

// activity counts the records that name inn and sums its contracts.
func (s *Set) activity(ctx context.Context, inn string) (activity, error) {
	var a activity
	r := &a.result
	counts := []struct {
		kind  tenderbase.Kind
		field string
		n     *int
	}{
		{tenderbase.KindTender, tenderbase.LookupCustomerINN, &r.AsCustomer.Tenders},
		{tenderbase.KindComplaint, tenderbase.LookupCustomerINN, &r.Complaints.AsCustomer},
		{tenderbase.KindComplaint, tenderbase.LookupSupplierINN, &r.Complaints.AsSupplier},
		{tenderbase.KindFASCase, tenderbase.LookupINN, &r.FASCases},
	}
	for _, c := range counts {
		page, err := s.store.Search(ctx, lookup(c.kind, c.field, inn, 1))
		if err != nil {
			return a, fmt.Errorf("count %s by %s: %w", c.kind, c.field, err)
		}
		*c.n = page.Total
		if c.kind == tenderbase.KindTender && len(page.Items) > 0 {
			a.latest = append(a.latest, page.Items[0])
		}
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

// currency returns the ISO code of a price, RUB when the record says none.
func currency(c string) string {
	if c == "" {
		return "RUB"
	}
	return c
}

// lookup returns the search for records of kind k whose field is value.
func lookup(k tenderbase.Kind, field, value string, pageSize int) tenderbase.Search {
	return tenderbase.Search{Kind: k, Where: []tenderbase.Lookup{{Field: field, Value: value}}, PageSize: pageSize}
}

// Bounds of a scan through every record of a lookup: 50 pages of 1000.
const maxScanPages = 50

// scan calls fn with every record of srch, newest first, up to the scan
// bound (maxScanPages pages of the largest size). It returns the exact total
// and whether the bound cut the scan short.
func (s *Set) scan(ctx context.Context, srch tenderbase.Search, fn func(tenderbase.Record)) (int, bool, error) {
	srch.PageSize = s.scanPageSize
	total := 0
	for srch.Page = 0; srch.Page < s.scanPages; srch.Page++ {
		page, err := s.store.Search(ctx, srch)
		if err != nil {
			return 0, false, fmt.Errorf("scan %s by %v: %w", srch.Kind, srch.Where, err)
		}
		for _, r := range page.Items {
			fn(r)
		}
		total = page.Total
		if (srch.Page+1)*srch.PageSize >= total {
			return total, false, nil
		}
	}
	s.logger.WarnContext(ctx, "scan stopped at its bound", "kind", srch.Kind, "where", fmt.Sprint(srch.Where), "total", total)
	return total, true, nil
}

// partyName returns the name r gives the party with inn.
func partyName(inn string, r tenderbase.Record) string {
	switch r := r.(type) {
	case *tenderbase.Tender:
		if r.Customer.INN == inn {
			return r.Customer.Name
		}
	case *tenderbase.Contract:
		if r.Customer.INN == inn {
			return r.Customer.Name
		}
		for _, p := range r.Suppliers {
			if p.INN == inn {
				return p.Name
			}
		}
	}
	return ""
}
