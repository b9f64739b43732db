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

// buildOrgs describes every customer and supplier as a counterparty, with
// the contacts the notices and contracts showed.
func (b *builder) buildOrgs() {
	seen := b.contactsSeen()
	for _, p := range slices.Concat(b.cast.customers, b.cast.suppliers) {
		b.orgs = append(b.orgs, b.org(p, seen[p.INN]))
	}
}

func (b *builder) org(p *party, contacts []tenderbase.OrgContact) *tenderbase.Org {
	o := &tenderbase.Org{
		INN: p.INN, KPP: p.KPP, OGRN: p.OGRN, Name: p.Name, ShortName: p.ShortName,
		Address: p.Address, Region: p.Region.Code, Status: "active", RegisteredAt: p.Registered,
		Head: p.Head, HeadPosition: headPosition(p), MainActivity: p.OKVED,
		Sources: []string{"egrul"},
	}
	o.ActivityCodes = []string{p.OKVED}
	for range b.s.between(1, 3) {
		if c := pick(b.s, extraActivities); !slices.Contains(o.ActivityCodes, c) {
			o.ActivityCodes = append(o.ActivityCodes, c)
		}
	}
	if p.Law == "" {
		o.SME = pick(b.s, smeCategories)
		o.Sources = append(o.Sources, "rsmp")
	}
	egrul := time.Date(2026, 10, b.s.between(1, 28), 0, 0, 0, 0, msk)
	o.Contacts = append(contacts, tenderbase.OrgContact{
		Contact: tenderbase.Contact{Address: p.Address}, Source: "egrul", SeenAt: egrul,
	})
	if len(contacts) > 0 {
		o.Sources = append(o.Sources, "eis")
	}
	o.UpdatedAt = egrul
	return o
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
