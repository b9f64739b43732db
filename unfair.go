package tenderbase

import (
	"time"
)

// UnfairSupplier is an entry of the register of unfair suppliers (RNP, the
// "реестр недобросовестных поставщиков") of 44-FZ or 223-FZ: a supplier
// barred from public procurement for a time, why, and on which purchase.
// It is keyed by the registry number of the entry.
type UnfairSupplier struct {
	RegistryNumber string `json:"registry_number"`
	Law            string `json:"law,omitempty"` // "44" or "223"
	Version        int    `json:"version,omitempty"`
	// State is where the entry stands: UnfairIncluded, UnfairExcluded or
	// UnfairRefused; StateCode is the publisher's code of it.
	State       string    `json:"state,omitempty"`
	StateCode   string    `json:"state_code,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	IncludedAt  time.Time `json:"included_at,omitzero"`
	// ExcludeOn is the day the entry leaves the register by itself (two
	// years after inclusion under 44-FZ), as the entry plans it.
	ExcludeOn string `json:"exclude_on,omitempty"`
	// ExcludeOnBasis says which date ExcludeOn is counted from: ACTUAL
	// (the inclusion) or FINAL (the latest day it could have been included).
	ExcludeOnBasis    string `json:"exclude_on_basis,omitempty"`
	FinalIncludeDate  string `json:"final_include_date,omitempty"`
	ReasonDate        string `json:"reason_date,omitempty"`
	ApplicationDate   string `json:"application_date,omitempty"`
	ApplicationNumber string `json:"application_number,omitempty"`
	// Reason is the publisher's code of why the supplier was included
	// (WINNER_DEVIATION, CANCEL_CONTRACT...), ReasonText its words.
	Reason           string      `json:"reason,omitempty"`
	ReasonText       string      `json:"reason_text,omitempty"`
	SanctionsRefusal bool        `json:"sanctions_refusal,omitempty"`
	Decision         *UnfairDoc  `json:"decision,omitempty"`
	Supplier         UnfairParty `json:"supplier"`
	// Branch is the supplier's separate subdivision that took part, when
	// a 223-FZ entry names one.
	Branch      *UnfairParty   `json:"branch,omitempty"`
	Founders    []UnfairPerson `json:"founders,omitempty"`
	Customer    Party          `json:"customer,omitzero"`
	PublishOrg  Party          `json:"publish_org,omitzero"`
	Purchase    *UnfairBuy     `json:"purchase,omitempty"`
	Contract    *UnfairDeal    `json:"contract,omitempty"`
	Exclusion   *UnfairExclude `json:"exclusion,omitempty"`
	Attachments []Attachment   `json:"attachments,omitempty"`
	URL         string         `json:"url,omitempty"`
}

// The states of an entry of the register.
const (
	UnfairIncluded = "included" // in the register
	UnfairExcluded = "excluded" // taken out, for good or for a court case
	UnfairRefused  = "refused"  // the control body refused to include it
)

// UnfairParty is the supplier an entry bars: an organization or a person,
// Russian or foreign (Type: U, UF, P, PF, or the 223-FZ codes).
type UnfairParty struct {
	Type      string `json:"type,omitempty"`
	Name      string `json:"name,omitempty"`
	FirmName  string `json:"firm_name,omitempty"`
	ShortName string `json:"short_name,omitempty"`
	INN       string `json:"inn,omitempty"`
	KPP       string `json:"kpp,omitempty"`
	OGRN      string `json:"ogrn,omitempty"`
	// RegistryNumber is the supplier's entry in the register of
	// participants (ERUZ) or of qualified contractors (PP RF 615).
	RegistryNumber string `json:"registry_number,omitempty"`
	Country        string `json:"country,omitempty"`
	Zip            string `json:"zip,omitempty"`
	Address        string `json:"address,omitempty"`
	Email          string `json:"email,omitempty"`
}

// UnfairPerson is a founder, head or member of a board of the supplier,
// included in the register with it.
type UnfairPerson struct {
	Name     string `json:"name"`
	INN      string `json:"inn,omitempty"`
	TypeCode string `json:"type_code,omitempty"`
	Type     string `json:"type,omitempty"`
}

// UnfairDoc is a document an entry rests on: a decision, an order, a
// protocol.
type UnfairDoc struct {
	Name   string `json:"name,omitempty"`
	Number string `json:"number,omitempty"`
	Date   string `json:"date,omitempty"`
}

// UnfairBuy is the purchase an entry came from.
type UnfairBuy struct {
	PurchaseNumber string     `json:"purchase_number,omitempty"`
	Codes          []string   `json:"codes,omitempty"` // identification codes (IKZ)
	Object         string     `json:"object,omitempty"`
	PlacingWay     string     `json:"placing_way,omitempty"`
	ProtocolDate   string     `json:"protocol_date,omitempty"`
	LotNumber      int        `json:"lot_number,omitempty"`
	Lot            string     `json:"lot,omitempty"` // the lot in words (223-FZ)
	Document       *UnfairDoc `json:"document,omitempty"`
	// NotOnEIS is set when the purchase's notice was not published in EIS.
	NotOnEIS bool `json:"not_on_eis,omitempty"`
}

// UnfairDeal is the contract an entry came from, and its termination.
type UnfairDeal struct {
	RegNumber       string       `json:"reg_number,omitempty"`
	Subject         string       `json:"subject,omitempty"`
	OKPDCode        string       `json:"okpd_code,omitempty"`
	OKPDName        string       `json:"okpd_name,omitempty"`
	Price           float64      `json:"price,omitempty"`
	Currency        string       `json:"currency,omitempty"`
	SignDate        string       `json:"sign_date,omitempty"`
	PerformanceDate string       `json:"performance_date,omitempty"`
	CancelDate      string       `json:"cancel_date,omitempty"`
	CancelBasis     *UnfairDoc   `json:"cancel_basis,omitempty"`
	Items           []UnfairItem `json:"items,omitempty"`
}

// UnfairItem is a good, work or service of the contract (223-FZ).
type UnfairItem struct {
	OKPD2Code  string `json:"okpd2_code,omitempty"`
	OKPD2Name  string `json:"okpd2_name,omitempty"`
	OKVED2Code string `json:"okved2_code,omitempty"`
	OKVED2Name string `json:"okved2_name,omitempty"`
	Name       string `json:"name,omitempty"`
}

// UnfairExclude is the exclusion of an entry from the register: when, by
// which document and of which type (an order, a court's decision, AUTO at
// the end of the term, MANUAL).
type UnfairExclude struct {
	Date     time.Time  `json:"date,omitzero"`
	Type     string     `json:"type,omitempty"`
	Reason   string     `json:"reason,omitempty"`
	Document *UnfairDoc `json:"document,omitempty"`
}

func (u *UnfairSupplier) Kind() Kind    { return KindUnfairSupplier }
func (u *UnfairSupplier) Key() string   { return u.RegistryNumber }
func (u *UnfairSupplier) Revision() int { return u.Version }

// Date returns the day the supplier was included, else the publication.
func (u *UnfairSupplier) Date() time.Time {
	if !u.IncludedAt.IsZero() {
		return u.IncludedAt
	}
	if !u.PublishedAt.IsZero() {
		return u.PublishedAt
	}
	if u.Exclusion != nil {
		return u.Exclusion.Date
	}
	return time.Time{}
}

// SearchText returns the supplier's names and INN, the founders, the
// reason, the purchase and contract, the customer and the publishing body.
func (u *UnfairSupplier) SearchText() []Text {
	out := texts(
		"registry_number", u.RegistryNumber,
		"supplier", u.Supplier.Name, "supplier", u.Supplier.FirmName, "supplier", u.Supplier.ShortName,
		"supplier", u.Supplier.INN, "supplier", u.Supplier.Address,
		"reason_text", u.ReasonText, "customer", u.Customer.Name, "publish_org", u.PublishOrg.Name,
	)
	for _, f := range u.Founders {
		out = append(out, texts("founders", f.Name, "founders", f.INN)...)
	}
	if b := u.Branch; b != nil {
		out = append(out, texts("branch", b.Name, "branch", b.INN)...)
	}
	if p := u.Purchase; p != nil {
		out = append(out, texts("purchase", p.PurchaseNumber, "purchase", p.Object)...)
	}
	if c := u.Contract; c != nil {
		out = append(out, texts("contract", c.RegNumber, "contract", c.Subject)...)
	}
	return out
}

// Flags returns the law flag.
func (u *UnfairSupplier) Flags() []string {
	if u.Law != "" {
		return []string{"fz" + u.Law}
	}
	return nil
}

// Lookups returns the INN of the supplier and of each person included with
// it, the customer's INN, the purchase number and the contract's registry
// number.
func (u *UnfairSupplier) Lookups() []Lookup {
	ls := lookups(LookupINN, u.Supplier.INN, LookupCustomerINN, u.Customer.INN)
	for _, f := range u.Founders {
		if f.INN != "" && f.INN != u.Supplier.INN {
			ls = append(ls, Lookup{Field: LookupINN, Value: f.INN})
		}
	}
	if u.Branch != nil && u.Branch.INN != "" && u.Branch.INN != u.Supplier.INN {
		ls = append(ls, Lookup{Field: LookupINN, Value: u.Branch.INN})
	}
	if u.Purchase != nil {
		ls = append(ls, lookups(LookupPurchaseNumber, u.Purchase.PurchaseNumber)...)
	}
	if u.Contract != nil {
		ls = append(ls, lookups(LookupRegNumber, u.Contract.RegNumber)...)
	}
	return ls
}

// InRegister reports whether the entry bars its supplier on day now: it is
// included, and the day it leaves the register by itself has not come.
func (u *UnfairSupplier) InRegister(now time.Time) bool {
	if u.State != UnfairIncluded {
		return false
	}
	if u.ExcludeOn == "" {
		return true
	}
	until, err := time.ParseInLocation(time.DateOnly, u.ExcludeOn, Moscow)
	return err != nil || now.Before(until)
}

// Merge joins an entry with its stored version: an exclusion, published as
// a document of its own that names the entry by number only, is kept
// whichever arrives first, and makes the entry excluded.
func (u *UnfairSupplier) Merge(stored Record) Record {
	old, ok := stored.(*UnfairSupplier)
	if !ok {
		return u
	}
	if u.isExclusionOnly() {
		merged := *old
		merged.Exclusion = u.Exclusion
		merged.State = UnfairExcluded
		return &merged
	}
	if u.Exclusion == nil && old.Exclusion != nil {
		merged := *u
		merged.Exclusion = old.Exclusion
		merged.State = UnfairExcluded
		return &merged
	}
	return u
}

// isExclusionOnly reports whether u holds nothing but an exclusion: an
// exclusion document that names its entry by number.
func (u *UnfairSupplier) isExclusionOnly() bool {
	return u.Exclusion != nil && u.Supplier == (UnfairParty{}) && u.IncludedAt.IsZero() && u.PublishedAt.IsZero()
}

// The roles in which an entry names an INN.
const (
	UnfairRoleSupplier = "supplier"
	UnfairRoleFounder  = "founder"
	UnfairRoleBranch   = "branch"
)

// RoleOf returns how the entry names inn: as its supplier, as a founder or
// head included with it, or as the supplier's subdivision; "" when it does
// not.
func (u *UnfairSupplier) RoleOf(inn string) string {
	role, _ := u.named(inn)
	return role
}

// NameOf returns the name the entry gives inn, or "".
func (u *UnfairSupplier) NameOf(inn string) string {
	_, name := u.named(inn)
	return name
}

func (u *UnfairSupplier) named(inn string) (role, name string) {
	switch {
	case inn == "":
	case u.Supplier.INN == inn:
		return UnfairRoleSupplier, u.Supplier.Name
	case u.Branch != nil && u.Branch.INN == inn:
		return UnfairRoleBranch, u.Branch.Name
	}
	for _, f := range u.Founders {
		if inn != "" && f.INN == inn {
			return UnfairRoleFounder, f.Name
		}
	}
	return "", ""
}
