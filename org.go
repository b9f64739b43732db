package tenderbase

import "time"

// Org is a counterparty: an organization or an individual entrepreneur, known
// by its INN, with what the registers and the notices say of it.
type Org struct {
	INN           string       `json:"inn"`
	KPP           string       `json:"kpp,omitempty"`
	OGRN          string       `json:"ogrn,omitempty"`
	Name          string       `json:"name"`
	ShortName     string       `json:"short_name,omitempty"`
	Address       string       `json:"address,omitempty"`
	Region        int          `json:"region,omitempty"`
	Status        string       `json:"status,omitempty"` // e.g. "active", "liquidated"
	RegisteredAt  time.Time    `json:"registered_at,omitzero"`
	Head          string       `json:"head,omitempty"`
	MainActivity  string       `json:"main_activity,omitempty"` // OKVED2 code
	ActivityCodes []string     `json:"activity_codes,omitempty"`
	SME           string       `json:"sme,omitempty"` // SME register category, if listed
	Contacts      []OrgContact `json:"contacts,omitempty"`
	UpdatedAt     time.Time    `json:"updated_at,omitzero"`
	Sources       []string     `json:"sources,omitempty"`
}

// OrgContact is a contact of an organization and where it was seen.
type OrgContact struct {
	Contact
	Source string    `json:"source,omitempty"` // e.g. "notice 0373200041520000828", "egrul"
	SeenAt time.Time `json:"seen_at,omitzero"`
}

func (o *Org) Kind() Kind      { return KindOrg }
func (o *Org) Key() string     { return o.INN }
func (o *Org) Revision() int   { return 0 }
func (o *Org) Date() time.Time { return o.UpdatedAt }

// SearchText returns nil: organizations are found by INN, not searched.
func (o *Org) SearchText() []Text { return nil }

// Flags returns the region flag.
func (o *Org) Flags() []string {
	if o.Region > 0 {
		return []string{RegionFlag(o.Region)}
	}
	return nil
}

// Lookups returns the INN and OGRN.
func (o *Org) Lookups() []Lookup {
	return lookups(LookupINN, o.INN, LookupOGRN, o.OGRN)
}
