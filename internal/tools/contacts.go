package tools

import (
	"context"
	"time"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) contragentContacts() (*Tool, error) {
	return build(definition[innArgs]{
		name:  "contragent.contacts",
		title: "Organization contacts by INN",
		description: "Every contact known for an INN (persons, e-mails, phones, addresses), newest first, with source and date. " +
			"Standard, guru and corporate plans.",
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
	Partial  bool                    `json:"partial,omitempty" jsonschema:"Set when the INN has more notices, contracts or protocols than one call reads; the newest are read."`
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
	var latest []tenderbase.Record
	seen := 0
	for _, src := range contactSources(inn) {
		srch, err := c.plan.Restrict(lookup(src.kind, src.field, inn, 0), nil)
		if tenderbase.ErrorCode(err) == tenderbase.EFORBIDDEN {
			continue
		}
		if err != nil {
			return Output{}, err
		}
		var first tenderbase.Record
		total, partial, err := s.scan(ctx, srch, func(r tenderbase.Record) {
			if first == nil {
				first = r
			}
			found = append(found, src.contacts(r)...)
		})
		if err != nil {
			return Output{}, err
		}
		if first != nil {
			latest = append(latest, first)
		}
		seen += total
		res.Partial = res.Partial || partial
	}
	if org == nil && seen == 0 {
		return Output{}, notFound("no contacts known for INN %s: no organization record, notice, contract or protocol names it", inn)
	}
	if org != nil {
		found = append(found, org.Contacts...)
	}
	res.innName = named(inn, org, c.plan, latest...)
	res.Contacts = tenderbase.UniqueContacts(found)
	return output(res, restricted{})
}

// contactSource is where contragent.contacts finds contacts of an INN: the
// records of kind naming it in field, and the contacts each gives of it.
type contactSource struct {
	kind     tenderbase.Kind
	field    string
	contacts func(tenderbase.Record) []tenderbase.OrgContact
}

// contactSources are the records giving contacts of inn: the contact block
// of the notices it published as a customer, and the contact block of the
// contracts and protocols naming it as a supplier or a participant.
func contactSources(inn string) []contactSource {
	return []contactSource{
		{tenderbase.KindTender, tenderbase.LookupCustomerINN, func(r tenderbase.Record) []tenderbase.OrgContact {
			t, ok := r.(*tenderbase.Tender)
			if !ok || t.Contact.IsZero() {
				return nil
			}
			return []tenderbase.OrgContact{{Contact: t.Contact, Source: "notice " + t.PurchaseNumber, SeenAt: t.PublishedAt}}
		}},
		{tenderbase.KindContract, tenderbase.LookupSupplierINN, func(r tenderbase.Record) []tenderbase.OrgContact {
			c, ok := r.(*tenderbase.Contract)
			if !ok {
				return nil
			}
			return partyContacts(inn, c.Suppliers, "contract "+c.RegNumber, firstTime(c.SignedAt, c.PublishedAt))
		}},
		{tenderbase.KindProtocol, tenderbase.LookupSupplierINN, func(r tenderbase.Record) []tenderbase.OrgContact {
			p, ok := r.(*tenderbase.Protocol)
			if !ok {
				return nil
			}
			parties := make([]tenderbase.Party, len(p.Participants))
			for i, part := range p.Participants {
				parties[i] = part.Party
			}
			return partyContacts(inn, parties, "protocol "+p.PurchaseNumber, firstTime(p.PublishedAt, p.ProtocolDate))
		}},
	}
}

// partyContacts returns the contact block of the parties that are inn, as
// seen in source at when. The party's address joins the block.
func partyContacts(inn string, parties []tenderbase.Party, source string, when time.Time) []tenderbase.OrgContact {
	var out []tenderbase.OrgContact
	for _, p := range parties {
		if p.INN != inn || p.Contact.IsZero() {
			continue
		}
		c := p.Contact
		if c.Address == "" {
			c.Address = p.Address
		}
		out = append(out, tenderbase.OrgContact{Contact: c, Source: source, SeenAt: when})
	}
	return out
}

// firstTime returns the first of times that is set.
func firstTime(times ...time.Time) time.Time {
	for _, t := range times {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}
