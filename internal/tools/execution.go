package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/tenderbase/tenderbase"
)

// contractDetail is what contracts.detail adds to a contract record: where
// the contract stands once the reports of its performance are applied, and
// what was paid under it.
type contractDetail struct {
	State        string            `json:"state" jsonschema:"Where the contract stands once the reports of its performance are applied: execution, completed, terminated or annulled. The record's status is the registry entry's own and may be older."`
	StateFrom    string            `json:"state_from" jsonschema:"The record that decided state: contract_execution <id> (<document>), or contract <reg_number> (version <n>) when the registry entry's own status stands."`
	Paid         float64           `json:"paid" jsonschema:"The sum of the payments the reports list, each payment counted once however many reports restate it, in the currency of the payments."`
	Payments     int               `json:"payments" jsonschema:"How many distinct payments the reports list."`
	Executions   []json.RawMessage `json:"executions" jsonschema:"The reports of the contract's performance (contractProcedure, performanceContract), newest first: stages, payments, acceptances, termination."`
	CustomerOrg  *orgCard          `json:"customer_org" jsonschema:"What the registers tell of the customer. Guru and corporate plans; null for others, and when the customer is not in the registers held."`
	SupplierOrgs []orgCard         `json:"supplier_orgs" jsonschema:"What the registers tell of each supplier that they hold: legal form, address, status, head, main activity, SME category, headcount and finances. Guru and corporate plans; null for others."`
}

// contractDetailOf returns what contracts.detail adds to the contract rec.
func (s *Set) contractDetailOf(ctx context.Context, rec tenderbase.Record, hidden restricted) (any, error) {
	c, ok := rec.(*tenderbase.Contract)
	if !ok {
		return nil, fmt.Errorf("contract %s is a %T", rec.Key(), rec)
	}
	reports, err := listBy[*tenderbase.ContractExecution](ctx, s, tenderbase.KindContractExecution, tenderbase.LookupRegNumber, c.RegNumber)
	if err != nil {
		return nil, err
	}
	d := contractDetail{}
	d.State, d.StateFrom = contractState(c, reports)
	d.Paid, d.Payments = paidUnder(reports)
	if d.Executions, err = hidden.maskAll(records(reports), callerOf(ctx).plan); err != nil {
		return nil, err
	}
	cards, ok, err := s.orgCards(ctx, []string{c.Customer.INN}, hidden, "customer_org", "supplier_orgs")
	if err != nil || !ok {
		return d, err
	}
	if len(cards) > 0 {
		d.CustomerOrg = &cards[0]
	}
	var suppliers []string
	for _, p := range c.Suppliers {
		suppliers = append(suppliers, p.INN)
	}
	d.SupplierOrgs, _, err = s.orgCards(ctx, suppliers, hidden)
	return d, err
}

// contractState returns the state the newest report that gives one says,
// and the record that decided it; the registry entry's own status when no
// report gives one, and "execution" when neither does, since a registered
// contract is being performed until something says otherwise. reports are
// newest first.
func contractState(c *tenderbase.Contract, reports []*tenderbase.ContractExecution) (state, from string) {
	for _, e := range reports {
		if e.Status != "" {
			return e.Status, fmt.Sprintf("%s %s (%s)", e.Kind(), e.Key(), e.Document)
		}
	}
	return cmp.Or(c.Status, tenderbase.ContractExecuting), fmt.Sprintf("%s %s (version %d)", c.Kind(), c.Key(), c.Version)
}

// paidUnder returns the sum and the number of the payments of reports. A
// later report of a stage restates the payments of the earlier ones, so a
// payment is counted once by its document: name, number, date and amount.
func paidUnder(reports []*tenderbase.ContractExecution) (float64, int) {
	seen := map[string]bool{}
	var cents int64
	for _, e := range reports {
		for _, doc := range e.Documents {
			if doc.Type != tenderbase.ExecutionPayment {
				continue
			}
			id := doc.Name + "\x00" + doc.Number + "\x00" + doc.Date.Format("2006-01-02") + "\x00" + strconv.FormatFloat(doc.Amount, 'f', 2, 64)
			if seen[id] {
				continue
			}
			seen[id] = true
			// Sums of money in whole kopecks, so that adding many
			// payments does not drift.
			cents += tenderbase.Kopecks(doc.Amount)
		}
	}
	return tenderbase.Amount(cents), len(seen)
}

// listBy returns the records of kind k with the lookup field = value,
// newest first. Records published at the same moment are ordered by key
// rather than by arrival, so that the order of import never changes an
// answer.
func listBy[R tenderbase.Record](ctx context.Context, s *Set, k tenderbase.Kind, field, value string) ([]R, error) {
	var out []R
	var bad tenderbase.Record
	_, _, err := s.scan(ctx, lookup(k, field, value, 0), func(r tenderbase.Record) {
		if v, ok := r.(R); ok {
			out = append(out, v)
		} else {
			bad = r
		}
	})
	if err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, fmt.Errorf("%s with %s %s is a %T", k, field, value, bad)
	}
	slices.SortStableFunc(out, func(a, b R) int {
		return cmp.Or(b.Date().Compare(a.Date()), cmp.Compare(b.Key(), a.Key()))
	})
	return out, nil
}

// contractMissing returns the error of contracts.detail for a registry
// number with no contract, saying when reports of its performance are
// stored all the same.
func (s *Set) contractMissing(ctx context.Context, regNumber string) error {
	reports, err := listBy[*tenderbase.ContractExecution](ctx, s, tenderbase.KindContractExecution, tenderbase.LookupRegNumber, regNumber)
	if err != nil {
		return err
	}
	if len(reports) > 0 {
		return notFound("no registry entry of contract %s is stored, only %d report(s) of its performance; they come with the contract once it is imported",
			tenderbase.Quote(regNumber), len(reports))
	}
	return notFound("no contract with registry number %s; find contracts with contracts.search, or by purchase number with ru.contractByNum", tenderbase.Quote(regNumber))
}
