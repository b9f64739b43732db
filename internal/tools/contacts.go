package tools

import (
	"context"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) contragentContacts() (*Tool, error) {
	return build(definition[innArgs]{
		name:  "contragent.contacts",
		title: "Organization contacts by INN",
		description: "List every contact known for a counterparty by its INN: contact persons, e-mails, phones, faxes and " +
			"addresses from its register record and from the contact blocks of the notices it published as a customer, " +
			"each with where it was seen (egrul, notice <purchase number>, contract <registry number>) and when; " +
			"the same person, e-mail and phone seen twice is listed once, at its latest sighting; newest first. " +
			"Needs a paid plan (" + contactPlans() + "); free callers get an error. " +
			"Fails with not found when nothing is known of the INN. " +
			`Example: {"inn": "7712137030"}.`,
		output: outputOf[contactsResult](""),
		run: func(ctx context.Context, args innArgs) (Output, error) {
			return s.contacts(ctx, args.INN)
		},
	})
}

// contactsResult is the output of contragent.contacts.
type contactsResult struct {
	innName
	Contacts []tenderbase.OrgContact `json:"contacts" jsonschema:"The contacts, newest first, each with its source and when it was seen."`
	Partial  bool                    `json:"partial,omitempty" jsonschema:"Set when the INN has more notices than one call reads; the newest are read."`
}

// contacts gathers the contacts of an INN for a caller whose plan has them.
func (s *Set) contacts(ctx context.Context, inn string) (Output, error) {
	c := callerOf(ctx)
	if !tenderbase.Plans[c.plan].Contacts {
		return Output{}, tenderbase.Errorf(tenderbase.EFORBIDDEN,
			"organization contacts need a paid plan (%s); your plan is %s", contactPlans(), c.plan)
	}
	if err := checkINN(inn); err != nil {
		return Output{}, err
	}
	org, err := s.org(ctx, inn)
	if err != nil {
		return Output{}, err
	}
	var res contactsResult
	var found []tenderbase.OrgContact
	var latest tenderbase.Record
	total, partial, err := s.scan(ctx, lookup(tenderbase.KindTender, tenderbase.LookupCustomerINN, inn, 0), func(r tenderbase.Record) {
		if latest == nil {
			latest = r
		}
		if t, ok := r.(*tenderbase.Tender); ok && !t.Contact.IsZero() {
			found = append(found, tenderbase.OrgContact{Contact: t.Contact, Source: "notice " + t.PurchaseNumber, SeenAt: t.PublishedAt})
		}
	})
	if err != nil {
		return Output{}, err
	}
	if org == nil && total == 0 {
		return Output{}, notFound("no contacts known for INN %s: no organization record and no notice names it", inn)
	}
	if org != nil {
		found = append(found, org.Contacts...)
	}
	res.innName = named(inn, org, c.plan, latest)
	res.Contacts, res.Partial = tenderbase.UniqueContacts(found), partial
	return output(res, restricted{})
}
