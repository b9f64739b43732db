package tools

import (
	"context"
	"fmt"
	"regexp"

	"github.com/tenderbase/tenderbase"
)

// innArgs are the arguments of the contragent tools.
type innArgs struct {
	INN string `json:"inn" jsonschema:"10 digits (organization) or 12 (person, entrepreneur)."`
}

func (a *innArgs) check() error { return requireText("inn", &a.INN) }

var innRE = regexp.MustCompile(innPattern)

// checkINN returns an EINVALID error for a malformed INN. It is a tool
// error rather than an argument error so that the caller reads why.
func checkINN(inn string) error {
	if !innRE.MatchString(inn) {
		return tenderbase.Errorf(tenderbase.EINVALID,
			"inn %s is not an INN: an INN is 10 digits (an organization) or 12 digits (a person or an individual entrepreneur)", tenderbase.Quote(inn))
	}
	return nil
}

// innName is an INN with the name it is known by.
type innName struct {
	INN        string `json:"inn" jsonschema:"The INN asked for."`
	Name       string `json:"name" jsonschema:"The name: from the register record, or else from the latest tender, contract or protocol naming the INN."`
	NameSource string `json:"name_source" jsonschema:"Where the name comes from: org, or tender <purchase number>, contract <registry number> or protocol <id>."`
}

// named returns inn with its name: the organization's, or else the one the
// newest of recs that names inn gives it in a field plan shows.
func named(inn string, org *tenderbase.Org, plan tenderbase.Plan, recs ...tenderbase.Record) innName {
	n := innName{INN: inn}
	if org != nil {
		n.Name, n.NameSource = org.Name, "org"
		return n
	}
	var newest tenderbase.Record
	for _, r := range recs {
		if name := partyName(inn, r, plan); name != "" && (newest == nil || r.Date().After(newest.Date())) {
			newest, n.Name, n.NameSource = r, name, fmt.Sprintf("%s %s", r.Kind(), r.Key())
		}
	}
	return n
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

// partyName returns the name r gives the party with inn, in a field plan
// shows.
func partyName(inn string, r tenderbase.Record, plan tenderbase.Plan) string {
	var parties []tenderbase.Party
	switch r := r.(type) {
	case *tenderbase.Tender:
		parties = tenderParties(r)
	case *tenderbase.Contract:
		parties = []tenderbase.Party{r.Customer}
		if !plan.Hides(r.Kind(), "suppliers") {
			parties = append(parties, r.Suppliers...)
		}
	case *tenderbase.UnfairSupplier:
		return r.NameOf(inn)
	case *tenderbase.Protocol:
		if !plan.Hides(r.Kind(), "participants") {
			for _, p := range r.Participants {
				parties = append(parties, p.Party)
			}
		}
	}
	for _, p := range parties {
		if p.INN == inn {
			return p.Name
		}
	}
	return ""
}

// tenderParties returns the customer, the other customers of a joint
// purchase and the organizer of a tender.
func tenderParties(t *tenderbase.Tender) []tenderbase.Party {
	parties := []tenderbase.Party{t.Customer}
	for _, c := range t.Customers {
		parties = append(parties, c.Party)
	}
	if t.Organizer != nil {
		parties = append(parties, t.Organizer.Party)
	}
	return parties
}
