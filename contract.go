package tenderbase

import "time"

// Contract is a concluded contract: who bought what from whom, for how much,
// and the tender it came from.
type Contract struct {
	RegNumber      string           `json:"reg_number"` // registry number of the contract
	Law            string           `json:"law,omitempty"`
	Version        int              `json:"version,omitempty"`
	PurchaseNumber string           `json:"purchase_number,omitempty"`
	Number         string           `json:"number,omitempty"` // the contract's own number
	Subject        string           `json:"subject"`
	Customer       Party            `json:"customer"`
	Suppliers      []Party          `json:"suppliers,omitempty"`
	Region         int              `json:"region,omitempty"`
	Price          float64          `json:"price,omitempty"`
	Currency       string           `json:"currency,omitempty"`
	SignedAt       time.Time        `json:"signed_at,omitzero"`
	PublishedAt    time.Time        `json:"published_at,omitzero"`
	StartsAt       time.Time        `json:"starts_at,omitzero"`
	EndsAt         time.Time        `json:"ends_at,omitzero"`
	Status         string           `json:"status,omitempty"`
	Objects        []PurchaseObject `json:"objects,omitempty"`
	URL            string           `json:"url,omitempty"`
}

// Contract statuses: where a contract stands, as the EIS registry's
// currentContractStage says (E, EC, ET, IN).
const (
	ContractExecuting  = "execution"  // being performed
	ContractCompleted  = "completed"  // performed
	ContractTerminated = "terminated" // ended before its performance
	ContractAnnulled   = "annulled"   // found invalid by a court
)

func (c *Contract) Kind() Kind    { return KindContract }
func (c *Contract) Key() string   { return c.RegNumber }
func (c *Contract) Revision() int { return c.Version }

// Date returns the signing date, or the publication date when the signing
// date is unknown.
func (c *Contract) Date() time.Time {
	if c.SignedAt.IsZero() {
		return c.PublishedAt
	}
	return c.SignedAt
}

// SearchText returns the subject, the numbers, the parties and the objects.
func (c *Contract) SearchText() []Text {
	ts := texts(
		"reg_number", c.RegNumber, "purchase_number", c.PurchaseNumber, "subject", c.Subject,
	)
	ts = append(ts, partyTexts("customer", c.Customer)...)
	ts = append(ts, texts("customer", c.Customer.Address)...) // where it sits: a city is searched for
	for _, s := range c.Suppliers {
		ts = append(ts, partyTexts("suppliers", s)...)
	}
	for _, o := range c.Objects {
		ts = append(ts, texts("objects", o.Name, "objects", o.OKPD2Code, "objects", o.OKDPCode, "objects", o.OKDPName)...)
	}
	return ts
}

// Flags returns the region and law flags and the flags of the prefixes of
// the objects' OKPD2 and OKDP codes (LookupOKPD2, LookupOKDP).
func (c *Contract) Flags() []string {
	var f []string
	if c.Region > 0 {
		f = append(f, RegionFlag(c.Region))
	}
	if c.Law != "" {
		f = append(f, "fz"+c.Law)
	}
	f = append(f, okpd2Flags(c.Objects)...)
	return append(f, okdpFlags(c.Objects)...)
}

// Lookups returns the numbers and the INNs of every party.
func (c *Contract) Lookups() []Lookup {
	ls := lookups(
		LookupRegNumber, c.RegNumber,
		LookupPurchaseNumber, c.PurchaseNumber,
		LookupCustomerINN, c.Customer.INN,
	)
	for _, s := range c.Suppliers {
		ls = append(ls, lookups(LookupSupplierINN, s.INN)...)
	}
	return distinct(ls)
}
