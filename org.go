package tenderbase

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Org is a counterparty: an organization or an individual entrepreneur, known
// by its INN, with what the registers and the notices say of it. It is one
// record however many sources speak of the INN: each source fills its part
// (the register part from EGRUL or EGRIP, the SME part from the SME
// register, contacts from everyone), and Merge joins a new record with the
// stored one part by part.
type Org struct {
	INN string `json:"inn"`

	// The register part: the latest EGRUL or EGRIP extract.
	KPP          string    `json:"kpp,omitempty"`
	OGRN         string    `json:"ogrn,omitempty"`
	Name         string    `json:"name"`
	ShortName    string    `json:"short_name,omitempty"`
	LegalForm    string    `json:"legal_form,omitempty"` // OKOPF name, e.g. "Общества с ограниченной ответственностью"
	Address      string    `json:"address,omitempty"`
	Region       int       `json:"region,omitempty"`
	Status       string    `json:"status,omitempty"`      // active, liquidating, liquidated, ...
	StatusText   string    `json:"status_text,omitempty"` // the register's own words
	RegisteredAt time.Time `json:"registered_at,omitzero"`
	LiquidatedAt time.Time `json:"liquidated_at,omitzero"`
	Head         string    `json:"head,omitempty"`
	HeadPosition string    `json:"head_position,omitempty"`
	// Managers are the managing organizations that run the company in
	// place of a director (EGRUL СвУпрОрг); the head is then often empty.
	Managers []OrgManager `json:"managers,omitempty"`
	// ForeignName and ForeignShortName are the name in a foreign language
	// the register gives, in ForeignNameLanguage (its OKIN name, e.g.
	// "Английский").
	ForeignName         string `json:"foreign_name,omitempty"`
	ForeignShortName    string `json:"foreign_short_name,omitempty"`
	ForeignNameLanguage string `json:"foreign_name_language,omitempty"`
	// Branches are the branches and representative offices, each with the
	// KPP of its registration with the tax office, by which it is found.
	Branches          []OrgBranch       `json:"branches,omitempty"`
	MainActivity      string            `json:"main_activity,omitempty"`  // OKVED code
	ActivityCodes     []string          `json:"activity_codes,omitempty"` // the main one first
	ActivityNames     map[string]string `json:"activity_names,omitempty"` // OKVED code -> name, as the register gives it
	ActivityVersion   string            `json:"activity_version,omitempty"`
	RegisterSource    string            `json:"register_source,omitempty"` // egrul or egrip
	RegisterExtracted time.Time         `json:"register_extracted,omitzero"`

	// The SME part: the SME register (RSMP).
	SME         string    `json:"sme,omitempty"` // micro, small or medium, if listed
	SMESince    time.Time `json:"sme_since,omitzero"`
	SMEUntil    time.Time `json:"sme_until,omitzero"`    // the date it was excluded, if it was
	SMEReported time.Time `json:"sme_reported,omitzero"` // the date of the register's data

	// The figures of the tax service's open data: the average headcount, and
	// income and expenses by the accounts, each as of the date it gives.
	Employees     *int      `json:"employees,omitempty"`
	EmployeesAsOf time.Time `json:"employees_as_of,omitzero"`
	Income        *float64  `json:"income,omitempty"`
	Expenses      *float64  `json:"expenses,omitempty"`
	FinancesAsOf  time.Time `json:"finances_as_of,omitzero"`

	Contacts  []OrgContact `json:"contacts,omitempty"`
	UpdatedAt time.Time    `json:"updated_at,omitzero"`
	Sources   []string     `json:"sources,omitempty"`
}

// OrgManager is a managing organization: a legal entity that runs another
// in place of its director. A foreign one may have no INN or OGRN.
type OrgManager struct {
	Name    string `json:"name"`
	INN     string `json:"inn,omitempty"`
	OGRN    string `json:"ogrn,omitempty"`
	Address string `json:"address,omitempty"`
}

// OrgBranch is a separate subdivision the register lists: a branch or a
// representative office, its name, address and the KPP it is registered
// under.
type OrgBranch struct {
	Kind    string `json:"kind"` // BranchOffice or RepresentativeOffice
	Name    string `json:"name,omitempty"`
	KPP     string `json:"kpp,omitempty"`
	Address string `json:"address,omitempty"`
}

// Kinds of an OrgBranch.
const (
	BranchOffice         = "branch"                // филиал
	RepresentativeOffice = "representative_office" // представительство
)

// Org statuses, as the registers' codes are read.
const (
	OrgActive       = "active"
	OrgLiquidating  = "liquidating"  // in liquidation or bankruptcy, or to be struck off
	OrgReorganizing = "reorganizing" // to be merged into or split into others
	OrgLiquidated   = "liquidated"   // terminated, for whatever reason
)

// Moscow is the time zone of Russian registers and notices: UTC+3, without
// daylight saving since 2014.
var Moscow = time.FixedZone("MSK", 3*60*60)

// OrgContact is a contact of an organization and where it was seen.
type OrgContact struct {
	Contact
	Site   string    `json:"site,omitempty"`   // web address
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

// Lookups returns the INN, the OGRN and the KPPs: the organization's own
// and those of its branches, so that a branch's KPP finds the organization.
func (o *Org) Lookups() []Lookup {
	pairs := []string{LookupINN, o.INN, LookupOGRN, o.OGRN, LookupKPP, o.KPP}
	for _, b := range o.Branches {
		pairs = append(pairs, LookupKPP, b.KPP)
	}
	return slices.Compact(slices.SortedFunc(slices.Values(lookups(pairs...)), func(a, b Lookup) int {
		return cmp.Or(cmp.Compare(a.Field, b.Field), cmp.Compare(a.Value, b.Value))
	}))
}

// Merger is implemented by a record that is put together from several
// sources: a store's Put merges it with the stored record of the same kind
// and key before storing it.
type Merger interface {
	Record
	// Merge returns the record that joins the receiver, just come, with
	// stored, the current one. It must not change either.
	Merge(stored Record) Record
}

// Merge joins o with the stored organization: each part is taken from the
// one whose source date is newer (an older extract changes nothing; a newer
// one replaces the register part whole), and the contacts of both are
// united, each kept once at its latest sighting.
func (o *Org) Merge(stored Record) Record {
	old, ok := stored.(*Org)
	if !ok {
		return o
	}
	m := *old
	if o.registerNewer(old) {
		m.setRegister(o)
	}
	if o.SME != "" && !o.SMEReported.Before(old.SMEReported) {
		m.SME, m.SMESince, m.SMEUntil, m.SMEReported = o.SME, o.SMESince, o.SMEUntil, o.SMEReported
	}
	if o.Employees != nil && !o.EmployeesAsOf.Before(old.EmployeesAsOf) {
		m.Employees, m.EmployeesAsOf = o.Employees, o.EmployeesAsOf
	}
	if (o.Income != nil || o.Expenses != nil) && !o.FinancesAsOf.Before(old.FinancesAsOf) {
		m.Income, m.Expenses, m.FinancesAsOf = o.Income, o.Expenses, o.FinancesAsOf
	}
	m.Contacts = UniqueContacts(slices.Concat(old.Contacts, o.Contacts))
	m.Sources = slices.Compact(slices.Sorted(slices.Values(slices.Concat(old.Sources, o.Sources))))
	if o.UpdatedAt.After(m.UpdatedAt) {
		m.UpdatedAt = o.UpdatedAt
	}
	return &m
}

// registerNewer reports whether o's register part replaces old's: it has
// one, and old has none or an extract no newer.
func (o *Org) registerNewer(old *Org) bool {
	if o.Name == "" && o.RegisterSource == "" {
		return false
	}
	if old.RegisterSource == "" {
		return true
	}
	return o.RegisterSource != "" && !o.RegisterExtracted.Before(old.RegisterExtracted)
}

// setRegister copies the register part of src into o.
func (o *Org) setRegister(src *Org) {
	keep := *o
	*o = *src
	o.SME, o.SMESince, o.SMEUntil, o.SMEReported = keep.SME, keep.SMESince, keep.SMEUntil, keep.SMEReported
	o.Employees, o.EmployeesAsOf = keep.Employees, keep.EmployeesAsOf
	o.Income, o.Expenses, o.FinancesAsOf = keep.Income, keep.Expenses, keep.FinancesAsOf
	o.Contacts, o.UpdatedAt, o.Sources = keep.Contacts, keep.UpdatedAt, keep.Sources
}

// UniqueContacts orders contacts newest first and keeps the latest sighting
// of each person, e-mail and phone. Never nil, so that none is [] in JSON.
func UniqueContacts(cs []OrgContact) []OrgContact {
	cs = slices.Clone(cs)
	slices.SortStableFunc(cs, func(a, b OrgContact) int {
		if c := b.SeenAt.Compare(a.SeenAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Source, b.Source)
	})
	out := []OrgContact{}
	seen := map[string]bool{}
	for _, c := range cs {
		k := contactKey(c)
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// contactKey identifies a contact by person, e-mail and phone, as people
// write them differently: case and spacing of names and e-mails, and the
// punctuation and trunk prefix of phone numbers, do not count. A contact with
// none of the three (an address from a register, a web site) is told apart by
// its address, fax and site.
func contactKey(c OrgContact) string {
	if c.Person == "" && c.Email == "" && c.Phone == "" {
		return "\x01" + strings.TrimSpace(c.Address) + "\x00" + c.Fax + "\x00" + strings.ToLower(strings.TrimSpace(c.Site))
	}
	person := strings.Join(strings.Fields(strings.ToLower(c.Person)), " ")
	email := strings.ToLower(strings.TrimSpace(c.Email))
	return person + "\x00" + email + "\x00" + PhoneDigits(c.Phone)
}

// PhoneDigits returns the digits of a Russian phone number in one form:
// +7 (495) 111-22-33, 8 495 111 22 33 and 4951112233 are all 74951112233.
func PhoneDigits(phone string) string {
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
