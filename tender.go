package tenderbase

import (
	"strconv"
	"strings"
	"time"
)

// Laws a Russian tender is placed under.
const (
	Law44  = "44"  // 44-FZ, state and municipal procurement
	Law223 = "223" // 223-FZ, procurement by state companies
)

// Tender statuses.
const (
	TenderActive    = "active"    // published, applications or bidding under way
	TenderCompleted = "completed" // a winner is determined
	TenderCancelled = "cancelled" // the notice was cancelled
	TenderFailed    = "failed"    // no valid application; did not take place
)

// Tender is one Russian procurement (44-FZ or 223-FZ) in one version of its
// notice. The purchase number identifies it; each amendment of the notice is
// a new Version, and the newest is the tender's current state.
type Tender struct {
	PurchaseNumber    string  `json:"purchase_number"`
	Law               string  `json:"law"`
	Version           int     `json:"version"`
	Title             string  `json:"title"`
	Status            string  `json:"status,omitempty"`
	PlacingMethod     string  `json:"placing_method,omitempty"`
	PlacingMethodCode string  `json:"placing_method_code,omitempty"`
	Customer          Party   `json:"customer"`
	Region            int     `json:"region,omitempty"` // two-digit code of the subject of the Russian Federation
	MaxPrice          float64 `json:"max_price,omitempty"`
	Currency          string  `json:"currency,omitempty"` // ISO 4217, RUB when not said
	// MaxPrices is the maximum price per currency, in the order the lots
	// name the currencies, of a tender whose lots are in more than one
	// currency; its MaxPrice and Currency are then empty, since no one sum
	// of them means anything.
	MaxPrices            []Money       `json:"max_prices,omitempty"`
	PublishedAt          time.Time     `json:"published_at,omitzero"`
	ApplicationsStart    time.Time     `json:"applications_start,omitzero"`
	ApplicationsDeadline time.Time     `json:"applications_deadline,omitzero"`
	BiddingDate          time.Time     `json:"bidding_date,omitzero"`
	ETP                  *ETP          `json:"etp,omitempty"`
	Lots                 []TenderLot   `json:"lots,omitempty"`
	Attachments          []Attachment  `json:"attachments,omitempty"`
	Contact              Contact       `json:"contact,omitzero"`
	Participants         []Participant `json:"participants,omitempty"`
	Change               *Change       `json:"change,omitempty"`
	// Plans are the positions of purchase plans the notice was published
	// from (PlannedPurchase).
	Plans []PlanLink `json:"plans,omitempty"`
	URL   string     `json:"url,omitempty"`

	// Customers are the customers of a joint purchase, each with its part,
	// the first being Customer; nil when the notice names one customer.
	Customers []TenderCustomer `json:"customers,omitempty"`
	Organizer *Organizer       `json:"organizer,omitempty"`
}

// TenderCustomer is one customer of a joint purchase with its part of it.
type TenderCustomer struct {
	Party
	Region   int     `json:"region,omitempty"`    // two-digit code of the subject of the Russian Federation
	MaxPrice float64 `json:"max_price,omitempty"` // the maximum price of the customer's part, in the tender's currency
}

// Organizer is the organization that placed a tender for its customer or
// customers: an authorized body or institution, an organization acting for
// the customer under an agreement, the organizer of a joint purchase, or a
// 223-FZ placer other than the customer.
type Organizer struct {
	Party
	Role     string `json:"role,omitempty"`      // the 44-FZ role code (responsibleRole): RA, ORA, OA...
	RoleName string `json:"role_name,omitempty"` // what the role code means, as the EIS code list says
}

// ETP is the electronic trading platform a tender runs on.
type ETP struct {
	Code string `json:"code,omitempty"`
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Money is an amount in one currency.
type Money struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"` // ISO 4217
}

// TenderLot is one lot of a tender.
type TenderLot struct {
	Number   int              `json:"number"`
	Title    string           `json:"title,omitempty"`
	MaxPrice float64          `json:"max_price,omitempty"`
	Currency string           `json:"currency,omitempty"`
	Objects  []PurchaseObject `json:"objects,omitempty"`
}

// PurchaseObject is one item bought: goods, work or a service, classified by
// OKPD2 (OK 034-2014) since 2017, by OKPD (OK 034-2007) before, by OKDP
// (OK 004-93) in the records of 94-FZ and early 223-FZ, or by a position
// of the KTRU catalogue, which names its OKPD2 class too. A drug is named
// by its international nonproprietary name (MNN).
type PurchaseObject struct {
	OKPD2Code string  `json:"okpd2_code,omitempty"`
	OKPD2Name string  `json:"okpd2_name,omitempty"`
	OKPDCode  string  `json:"okpd_code,omitempty"`
	OKPDName  string  `json:"okpd_name,omitempty"`
	OKDPCode  string  `json:"okdp_code,omitempty"`
	OKDPName  string  `json:"okdp_name,omitempty"`
	KTRUCode  string  `json:"ktru_code,omitempty"`
	MNN       string  `json:"mnn,omitempty"`
	Name      string  `json:"name"`
	Quantity  float64 `json:"quantity,omitempty"`
	Unit      string  `json:"unit,omitempty"`
	Price     float64 `json:"price,omitempty"`
	Sum       float64 `json:"sum,omitempty"`
}

// Participant is a bidder named in a protocol, with its offer and place.
type Participant struct {
	Party
	Price  float64 `json:"price,omitempty"`
	Rank   int     `json:"rank,omitempty"` // 1 is the winner
	Winner bool    `json:"winner,omitempty"`
	// JournalNumber is the number the application was registered under in
	// the procedure. Some protocols name an application by it alone; another
	// protocol of the same lot that names it with the participant says who.
	JournalNumber string `json:"journal_number,omitempty"`
}

// Change says why a version of a notice differs from the one before it.
type Change struct {
	Reason      string    `json:"reason,omitempty"`
	Fields      []string  `json:"fields,omitempty"` // which fields changed, by JSON name
	PublishedAt time.Time `json:"published_at,omitzero"`
}

func (t *Tender) Kind() Kind      { return KindTender }
func (t *Tender) Key() string     { return t.PurchaseNumber }
func (t *Tender) Revision() int   { return t.Version }
func (t *Tender) Date() time.Time { return t.PublishedAt }

// SearchText returns the title, the customers, the organizer, the lots and
// their objects.
func (t *Tender) SearchText() []Text {
	ts := texts(
		"purchase_number", t.PurchaseNumber, "title", t.Title,
		"placing_method", t.PlacingMethod,
	)
	ts = append(ts, partyTexts("customer", t.Customer)...)
	ts = append(ts, texts("customer", t.Customer.Address)...) // where it sits: a city is searched for
	for _, c := range t.Customers {
		ts = append(ts, texts("customers", c.Name, "customers", c.INN)...)
	}
	if o := t.Organizer; o != nil {
		ts = append(ts, partyTexts("organizer", o.Party)...)
	}
	for _, l := range t.Lots {
		ts = append(ts, texts("lots", l.Title)...)
		for _, o := range l.Objects {
			ts = append(ts, texts("lots", o.Name, "lots", o.OKPD2Code, "lots", o.OKPD2Name,
				"lots", o.OKPDCode, "lots", o.OKPDName, "lots", o.OKDPCode, "lots", o.OKDPName,
				"lots", o.KTRUCode, "lots", o.MNN)...)
		}
	}
	return ts
}

// Flags returns the region flag, the law flag ("fz44" or "fz223") and the
// flags of the prefixes of the objects' OKPD2 and OKDP codes (LookupOKPD2,
// LookupOKDP).
func (t *Tender) Flags() []string {
	var f []string
	if t.Region > 0 {
		f = append(f, RegionFlag(t.Region))
	}
	if t.Law != "" {
		f = append(f, "fz"+t.Law)
	}
	for _, l := range t.Lots {
		f = append(f, okpd2Flags(l.Objects)...)
		f = append(f, okdpFlags(l.Objects)...)
	}
	return distinct(f)
}

// Lookups returns the purchase number, the INN of each customer, the
// organizer's INN, who placed it (LookupPlacerINN), the placing method's and the platform's codes, and the
// positions of plans and the IKZ the notice was published from.
func (t *Tender) Lookups() []Lookup {
	ls := lookups(
		LookupPurchaseNumber, t.PurchaseNumber,
		LookupCustomerINN, t.Customer.INN,
	)
	for _, c := range t.Customers {
		if c.INN != "" && c.INN != t.Customer.INN {
			ls = append(ls, Lookup{Field: LookupCustomerINN, Value: c.INN})
		}
	}
	placer := t.Customer.INN
	if t.Organizer != nil && t.Organizer.INN != "" {
		ls = append(ls, lookups(LookupOrganizerINN, t.Organizer.INN)...)
		placer = t.Organizer.INN
	}
	ls = append(ls, lookups(LookupPlacerINN, placer)...)
	ls = append(ls, lookups(LookupPlacingMethod, t.PlacingMethodCode)...)
	if t.ETP != nil {
		ls = append(ls, lookups(LookupPlatform, t.ETP.Code)...)
	}
	for _, p := range t.Plans {
		ls = append(ls, lookups(LookupPlanPosition, p.PositionNumber, LookupIKZ, p.IKZ)...)
	}
	return distinct(ls)
}

// okpd2Flags returns the flags of the OKPD2 code prefixes of objects.
func okpd2Flags(objects []PurchaseObject) []string {
	codes := make([]string, len(objects))
	for i, o := range objects {
		codes[i] = o.OKPD2Code
	}
	return codeFlags(LookupOKPD2, codes, CodePrefixes)
}

// okdpFlags returns the flags of the OKDP code prefixes of objects.
func okdpFlags(objects []PurchaseObject) []string {
	var codes []string
	for _, o := range objects {
		if o.OKDPCode != "" {
			codes = append(codes, o.OKDPCode)
		}
	}
	return codeFlags(LookupOKDP, codes, OKDPPrefixes)
}

// RegionFlag returns the filter flag of a region code: 77 -> "r77".
func RegionFlag(code int) string { return "r" + strconv.Itoa(code) }

// CountryFlag returns the filter flag of an ISO 3166 numeric country code:
// 643 -> "cr643".
func CountryFlag(code int) string { return "cr" + strconv.Itoa(code) }

// lookups builds a lookup list from field, value pairs, skipping empty values.
func lookups(pairs ...string) []Lookup {
	var ls []Lookup
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			ls = append(ls, Lookup{Field: pairs[i], Value: pairs[i+1]})
		}
	}
	return ls
}

// Text is one text of a record that full-text search sees.
type Text struct {
	// Field is the JSON name of the top-level field of the record's
	// canonical form that the text comes from, such as "suppliers" for a
	// supplier's name: TariffFields decides by it who may match the text.
	Field string
	Value string
}

// texts builds the texts of a searched record from field, value pairs,
// skipping empty values. It is never nil, so that a searched kind is told
// from one that is not (whose SearchText is nil) by a record without text.
// partyTexts returns the names and INN of a party as texts of field: the
// short name too, since it is how people write a customer («ГУФСИН»,
// «МВД»), and often the only place an abbreviation of its full name is.
func partyTexts(field string, p Party) []Text {
	short := p.ShortName
	if strings.EqualFold(strings.TrimSpace(short), strings.TrimSpace(p.Name)) {
		short = ""
	}
	return texts(field, p.Name, field, short, field, p.INN)
}

func texts(pairs ...string) []Text {
	out := make([]Text, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			out = append(out, Text{Field: pairs[i], Value: pairs[i+1]})
		}
	}
	return out
}
