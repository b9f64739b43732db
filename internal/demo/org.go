package demo

import (
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// extraActivities are secondary OKVED2 codes organizations list.
var extraActivities = []string{"46.90", "47.91", "68.20", "69.20", "70.22", "73.11", "77.39", "82.99", "33.12", "43.39", "49.41", "52.10"}

// smeCategories are the SME register categories.
var smeCategories = []string{"micro", "small", "medium"}

// smeReported is the date of the SME register's state the demo's suppliers
// are listed in: the register is formed on the 10th of each month.
var smeReported = time.Date(2026, 10, 10, 0, 0, 0, 0, msk)

// buildOrgs describes every customer and supplier as a counterparty, as
// the registers say and with the contacts the notices and contracts showed.
func (b *builder) buildOrgs() {
	seen := b.contactsSeen()
	for _, p := range slices.Concat(b.cast.customers, b.cast.suppliers) {
		b.orgs = append(b.orgs, b.org(p, seen[p.INN]))
	}
}

// org returns the counterparty p: its EGRUL or EGRIP extract, its entry in
// the SME register if it is a supplier, and the contacts seen of it.
func (b *builder) org(p *party, contacts []tenderbase.OrgContact) *tenderbase.Org {
	o := registerPart(p)
	for range b.s.between(1, 3) {
		if c := pick(b.s, extraActivities); !slices.Contains(o.ActivityCodes, c) {
			o.ActivityCodes = append(o.ActivityCodes, c)
		}
	}
	for _, c := range o.ActivityCodes {
		o.ActivityNames[c] = okvedNames[c]
	}
	if p.Law == "" {
		o.SME, o.SMESince, o.SMEReported = pick(b.s, smeCategories), smeSince(p.INN), smeReported
		o.Sources = append(o.Sources, "rsmp")
	}
	o.RegisterExtracted = time.Date(2026, 10, b.s.between(1, 28), 0, 0, 0, 0, msk)
	if len(contacts) > 0 {
		o.Sources = append(o.Sources, "eis")
	}
	o.Contacts = contacts
	if o.Address != "" {
		o.Contacts = append(o.Contacts, tenderbase.OrgContact{
			Contact: tenderbase.Contact{Address: o.Address}, Source: o.RegisterSource, SeenAt: o.RegisterExtracted,
		})
	}
	slices.Sort(o.Sources)
	o.UpdatedAt = o.RegisterExtracted
	if o.SMEReported.After(o.UpdatedAt) {
		o.UpdatedAt = o.SMEReported
	}
	return o
}

// registerPart returns the register part of p as its extract gives it: an
// organization's from EGRUL, an entrepreneur's from EGRIP, which names him
// and publishes neither his address nor a head.
func registerPart(p *party) *tenderbase.Org {
	o := &tenderbase.Org{
		INN: p.INN, OGRN: p.OGRN, Region: p.Region.Code, Status: tenderbase.OrgActive, RegisteredAt: p.Registered,
		MainActivity: p.OKVED, ActivityCodes: []string{p.OKVED}, ActivityNames: map[string]string{},
		ActivityVersion: "OKVED2",
	}
	if p.Individual {
		o.Name, o.LegalForm, o.RegisterSource = p.Head, entrepreneurKind, "egrip"
		o.Sources = []string{"egrip"}
		return o
	}
	o.KPP, o.Name, o.ShortName = p.KPP, p.Name, p.ShortName
	o.Head, o.HeadPosition, o.RegisterSource = p.Head, headPosition(p), "egrul"
	o.Sources = []string{"egrul"}
	// A name or address the register has no form for is left empty, and
	// WriteEGRUL refuses it.
	if f, ok := legalFormOf(p.Name); ok {
		o.LegalForm = f.Name
	}
	if a, err := registerAddressOf(p.Region.Code, p.Address); err == nil {
		o.Address = a.String()
	}
	return o
}

// smeSince returns the date a subject entered the SME register: the
// yearly review of 10 August, of a year the INN picks in the demo's period,
// that listed it by its revenue and headcount.
func smeSince(inn string) time.Time {
	sum := 0
	for _, d := range inn {
		sum += int(d - '0')
	}
	return time.Date(2023+sum%4, 8, 10, 0, 0, 0, 0, msk)
}

// contactsSeen collects, per INN, the contact blocks found in notices (the
// customer's) and contracts (the supplier's), the latest of each kind.
func (b *builder) contactsSeen() map[string][]tenderbase.OrgContact {
	seen := map[string][]tenderbase.OrgContact{}
	for _, p := range b.purchases {
		t := p.latest()
		seen[t.Customer.INN] = []tenderbase.OrgContact{{Contact: t.Contact, Source: "notice " + t.PurchaseNumber, SeenAt: t.PublishedAt}}
	}
	for _, c := range b.contracts {
		for _, s := range c.Suppliers {
			p := b.cast.supplier(s.INN)
			ct := tenderbase.Contact{Person: p.Person, Email: p.Email, Phone: p.Phone, Address: p.Address}
			seen[s.INN] = []tenderbase.OrgContact{{Contact: ct, Source: "contract " + c.RegNumber, SeenAt: c.SignedAt}}
		}
	}
	return seen
}

// supplier returns the supplier with the INN.
func (c *cast) supplier(inn string) *party {
	for _, p := range c.suppliers {
		if p.INN == inn {
			return p
		}
	}
	return nil
}

// headPosition is the position of the head of p: an entrepreneur heads
// nothing but himself.
func headPosition(p *party) string {
	if p.KPP == "" {
		return ""
	}
	return "ГЕНЕРАЛЬНЫЙ ДИРЕКТОР"
}
