package tools

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode"

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
	res.Contacts, res.Partial = dedupeContacts(found), partial
	return output(res, restricted{})
}

// dedupeContacts orders contacts newest first and keeps the latest sighting
// of each person, e-mail and phone. Never nil, so that none is [] in JSON.
func dedupeContacts(cs []tenderbase.OrgContact) []tenderbase.OrgContact {
	slices.SortStableFunc(cs, func(a, b tenderbase.OrgContact) int {
		if c := b.SeenAt.Compare(a.SeenAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Source, b.Source)
	})
	out := []tenderbase.OrgContact{}
	seen := map[string]bool{}
	for _, c := range cs {
		k := contactKey(c.Contact)
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// contactKey identifies a contact by person, e-mail and phone, as people
// write them differently: case and spacing of names and e-mails, and the
// punctuation and trunk prefix of phone numbers, do not count. A contact with none of the
// three (an address from a register) is told apart by its address and fax.
func contactKey(c tenderbase.Contact) string {
	if c.Person == "" && c.Email == "" && c.Phone == "" {
		return "\x01" + strings.TrimSpace(c.Address) + "\x00" + c.Fax
	}
	person := strings.Join(strings.Fields(strings.ToLower(c.Person)), " ")
	email := strings.ToLower(strings.TrimSpace(c.Email))
	return person + "\x00" + email + "\x00" + phoneDigits(c.Phone)
}

// phoneDigits returns the digits of a Russian phone number in one form:
// +7 (495) 111-22-33, 8 495 111 22 33 and 4951112233 are all 74951112233.
func phoneDigits(phone string) string {
	d := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, phone)
	switch {
	case len(d) == 10:
		return "7" + d
	case len(d) == 11 && d[0] == '8':
		return "7" + d[1:]
	}
	return d
}
