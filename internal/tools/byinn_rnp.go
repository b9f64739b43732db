package tools

import (
	"context"
	"time"

	"github.com/tenderbase/tenderbase"
)

// maxRNPItems is how many entries of an INN contragent.byInn lists; the
// count covers them all.
const maxRNPItems = 20

// rnpStanding is contragent.byInn's section of the register of unfair
// suppliers: whether the INN is barred today, and the entries naming it.
type rnpStanding struct {
	InRegister bool       `json:"in_register" jsonschema:"Whether an entry of the register of unfair suppliers bars the INN today: one in state included whose exclude_on has not come."`
	Entries    int        `json:"entries" jsonschema:"Entries naming the INN, as supplier, as one of its founders or heads, or as its subdivision, in any state."`
	Items      []rnpEntry `json:"items" jsonschema:"The newest entries, at most 20, newest inclusion first; rnp.detail gives one whole."`
}

// rnpEntry is one entry as contragent.byInn lists it: since when, until
// when, why and on which purchase.
type rnpEntry struct {
	RegistryNumber string    `json:"registry_number" jsonschema:"The entry's number, for rnp.detail."`
	Law            string    `json:"law,omitempty" jsonschema:"44 or 223."`
	Role           string    `json:"role" jsonschema:"How the entry names the INN: supplier, founder (a founder, head or board member included with the supplier) or branch."`
	State          string    `json:"state,omitempty" jsonschema:"included, excluded or refused."`
	InRegister     bool      `json:"in_register" jsonschema:"Whether this entry bars the INN today."`
	Since          time.Time `json:"since,omitzero" jsonschema:"When the supplier was included."`
	Until          string    `json:"until,omitempty" jsonschema:"The day the entry leaves the register by itself (YYYY-MM-DD)."`
	ExcludedAt     time.Time `json:"excluded_at,omitzero" jsonschema:"When the entry was taken out before its term, or at it."`
	Reason         string    `json:"reason,omitempty" jsonschema:"WINNER_DEVIATION, ONE_WINNER_DEVIATION, PARTICIPANT_DEVIATION_IF_WINNER_DEVIATION (evading the contract) or CANCEL_CONTRACT (a contract terminated for the supplier's fault)."`
	ReasonText     string    `json:"reason_text,omitempty" jsonschema:"The reason in words, as published."`
	PurchaseNumber string    `json:"purchase_number,omitempty" jsonschema:"The purchase the entry came from."`
	PurchaseObject string    `json:"purchase_object,omitempty" jsonschema:"What the purchase was for."`
	ContractNumber string    `json:"contract_number,omitempty" jsonschema:"The registry number of the terminated contract."`
	Customer       string    `json:"customer,omitempty" jsonschema:"The customer who asked to include the supplier."`
	PublishOrg     string    `json:"publish_org,omitempty" jsonschema:"The antimonopoly body that included it."`
}

// rnpAggregate is contragent.byInn's count of the entries naming inn.
func (s *Set) rnpAggregate(ctx context.Context, inn string, into *rnpStanding) aggregate {
	return aggregate{"rnp", tenderbase.KindUnfairSupplier, tenderbase.LookupINN, func(srch tenderbase.Search) (tenderbase.Record, error) {
		return s.rnpStanding(ctx, srch, inn, into)
	}}
}

// rnpStanding lists the entries srch finds into the section and returns
// the newest of them.
func (s *Set) rnpStanding(ctx context.Context, srch tenderbase.Search, inn string, into *rnpStanding) (tenderbase.Record, error) {
	now := time.Now()
	*into = rnpStanding{Items: []rnpEntry{}}
	var latest tenderbase.Record
	total, _, err := s.scan(ctx, srch, func(r tenderbase.Record) {
		u, ok := r.(*tenderbase.UnfairSupplier)
		if !ok {
			return
		}
		if latest == nil {
			latest = u
		}
		e := rnpEntryOf(u, inn, now)
		into.InRegister = into.InRegister || e.InRegister
		if len(into.Items) < maxRNPItems {
			into.Items = append(into.Items, e)
		}
	})
	into.Entries = total
	return latest, err
}

// rnpEntryOf returns entry u as it concerns inn on day now.
func rnpEntryOf(u *tenderbase.UnfairSupplier, inn string, now time.Time) rnpEntry {
	e := rnpEntry{
		RegistryNumber: u.RegistryNumber, Law: u.Law, Role: u.RoleOf(inn), State: u.State, InRegister: u.InRegister(now),
		Since: u.IncludedAt, Until: u.ExcludeOn, Reason: u.Reason, ReasonText: u.ReasonText,
		Customer: u.Customer.Name, PublishOrg: u.PublishOrg.Name,
	}
	if u.Exclusion != nil {
		e.ExcludedAt = u.Exclusion.Date
	}
	if p := u.Purchase; p != nil {
		e.PurchaseNumber, e.PurchaseObject = p.PurchaseNumber, p.Object
	}
	if c := u.Contract; c != nil {
		e.ContractNumber = c.RegNumber
	}
	return e
}
