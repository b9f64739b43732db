package tenderbase

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// PlannedPurchase is one position of a customer's purchase plan: a purchase
// announced before its notice, with what is to be bought, for how much and
// when. Under 44-FZ it is a position of a plan-schedule (план-график,
// <tenderPlan2020>), under 223-FZ an item of a purchase plan
// (<purchasePlan>). A plan is published whole at each of its versions; each
// position is a record of its own, keyed by its registry number, and a
// newer version of the plan is a newer version of each position in it.
type PlannedPurchase struct {
	// PositionNumber identifies the position: under 44-FZ its registry
	// number in the plan-schedule (the plan's number and six digits, as a
	// notice's tenderPlan2020Info/position2020Number names it); under
	// 223-FZ the plan's registration number, "-" and the item's ordinal
	// number, as a notice's lotPlanInfo names it.
	PositionNumber string `json:"position_number"`
	Law            string `json:"law"` // Law44 or Law223
	PlanNumber     string `json:"plan_number"`
	PlanVersion    int    `json:"plan_version"`
	// PlanYears are the financial years the plan covers: under 44-FZ the
	// year planned and the two years of its planning period; under 223-FZ
	// the years from the plan's start to its end.
	PlanYears []int `json:"plan_years,omitempty"`
	// IKZ is the purchase's identification code (44-FZ, 36 digits): the
	// notice and the contract of the purchase carry the same code.
	IKZ string `json:"ikz,omitempty"`
	// Object is the object of the purchase in the customer's words.
	Object  string          `json:"object"`
	Objects []PlannedObject `json:"objects,omitempty"`
	// Customer is the customer the position buys for; Owner the
	// organization whose plan it is, where another one (an organization
	// that buys on the customer's behalf, a 223-FZ placer).
	Customer Party  `json:"customer"`
	Owner    *Party `json:"owner,omitempty"`
	Region   int    `json:"region,omitempty"` // two-digit code of the subject of the Russian Federation
	// MaxPrice is the money planned for the purchase in all: the sum of
	// Amounts and LaterYears under 44-FZ, the maximum contract price
	// under 223-FZ.
	MaxPrice float64 `json:"max_price,omitempty"`
	Currency string  `json:"currency,omitempty"` // ISO 4217, RUB when not said
	// MaxPriceRUB is MaxPrice in roubles at the rate the plan gives, for a
	// position in another currency that says it (223-FZ).
	MaxPriceRUB float64 `json:"max_price_rub,omitempty"`
	// Amounts is the money planned for each year of the plan, as
	// published; LaterYears the money planned for the years after them.
	Amounts    []YearAmount `json:"amounts,omitempty"`
	LaterYears float64      `json:"later_years,omitempty"`
	// PublishYear and PublishMonth are when the notice is planned to be
	// published; 44-FZ plans give the year only.
	PublishYear  int `json:"publish_year,omitempty"`
	PublishMonth int `json:"publish_month,omitempty"`
	// PlacingMethod and its code are how the purchase is to be made, as
	// 223-FZ plans say; 44-FZ plan-schedules do not.
	PlacingMethod     string `json:"placing_method,omitempty"`
	PlacingMethodCode string `json:"placing_method_code,omitempty"`
	Electronic        bool   `json:"electronic,omitempty"`
	// SMEOnly says that the purchase is for small and medium businesses
	// only (a 223-FZ plan's list of such purchases names it).
	SMEOnly bool `json:"sme_only,omitempty"`
	// ContractEnd is the day the contract is planned to end (223-FZ).
	ContractEnd string `json:"contract_end,omitempty"`
	// Status is where the position stands: PlannedActive, PlannedChanged
	// or PlannedCancelled; StatusCode is the publisher's code of it.
	Status     string `json:"status,omitempty"`
	StatusCode string `json:"status_code,omitempty"`
	// NoticePublished says that the plan marks the purchase's notice as
	// published.
	NoticePublished bool `json:"notice_published,omitempty"`
	// Change is why the position was changed in this version of the plan.
	Change      *Change   `json:"change,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	URL         string    `json:"url,omitempty"`
}

// The states of a planned purchase.
const (
	PlannedActive    = "planned"   // in the plan as first published
	PlannedChanged   = "changed"   // changed by a later version of the plan
	PlannedCancelled = "cancelled" // taken out of the plan
)

// PlannedObject is a good, work or service a position plans to buy.
type PlannedObject struct {
	OKPD2Code  string  `json:"okpd2_code,omitempty"`
	OKPD2Name  string  `json:"okpd2_name,omitempty"`
	OKVED2Code string  `json:"okved2_code,omitempty"`
	OKVED2Name string  `json:"okved2_name,omitempty"`
	Name       string  `json:"name,omitempty"`
	Quantity   float64 `json:"quantity,omitempty"`
	Unit       string  `json:"unit,omitempty"`
}

// YearAmount is the money planned for one year.
type YearAmount struct {
	Year   int     `json:"year"`
	Amount float64 `json:"amount"`
}

// PlanLink ties a notice to the position of a purchase plan it was
// published from: the position's number (PlannedPurchase.PositionNumber),
// the purchase's identification code where the notice gives it, and the
// lot it is for where the notice has several.
type PlanLink struct {
	PositionNumber string `json:"position_number,omitempty"`
	IKZ            string `json:"ikz,omitempty"`
	Lot            int    `json:"lot,omitempty"`
}

// LookupPlannedPublish finds the planned purchases whose notice is
// planned to be published in a year ("2026") or in a month of it
// ("2026-03"); a position that gives the year alone (44-FZ) is found by
// the year only. LookupPlanStatus finds them by their Status. Both are
// what the current version of the plan says, so records carry them as
// flags (Lookup.Flag): lookups would find a position by what an older
// version said.
const (
	LookupPlannedPublish = "planned_publish"
	LookupPlanStatus     = "plan_status"
)

// PlannedStates lists the states of a planned purchase.
var PlannedStates = []string{PlannedActive, PlannedChanged, PlannedCancelled}

// PlanPositionNumber223 returns the position number of the item ordinal
// of the 223-FZ purchase plan registered as plan: "2180316803-12".
func PlanPositionNumber223(plan string, ordinal int) string {
	return plan + "-" + strconv.Itoa(ordinal)
}

func (p *PlannedPurchase) Kind() Kind      { return KindPlannedPurchase }
func (p *PlannedPurchase) Key() string     { return p.PositionNumber }
func (p *PlannedPurchase) Revision() int   { return p.PlanVersion }
func (p *PlannedPurchase) Date() time.Time { return p.PublishedAt }

// SearchText returns the position's numbers, its object and objects, the
// customer, the plan's owner and the placing method.
func (p *PlannedPurchase) SearchText() []Text {
	ts := texts(
		"position_number", p.PositionNumber, "ikz", p.IKZ, "object", p.Object,
		"placing_method", p.PlacingMethod,
	)
	ts = append(ts, partyTexts("customer", p.Customer)...)
	if p.Owner != nil {
		ts = append(ts, partyTexts("owner", *p.Owner)...)
	}
	for _, o := range p.Objects {
		ts = append(ts, texts("objects", o.Name, "objects", o.OKPD2Code, "objects", o.OKPD2Name)...)
	}
	return ts
}

// Flags returns the region flag, the law flag, the flags of the prefixes
// of the objects' OKPD2 codes (LookupOKPD2), and those of the status
// (LookupPlanStatus) and of the year and month the notice is planned for
// (LookupPlannedPublish).
func (p *PlannedPurchase) Flags() []string {
	var f []string
	if p.Region > 0 {
		f = append(f, RegionFlag(p.Region))
	}
	if p.Law != "" {
		f = append(f, "fz"+p.Law)
	}
	for _, l := range p.flagLookups() {
		flag, _ := l.Flag()
		f = append(f, flag)
	}
	codes := make([]string, len(p.Objects))
	for i, o := range p.Objects {
		codes[i] = o.OKPD2Code
	}
	f = append(f, codeFlags(LookupOKPD2, codes, CodePrefixes)...)
	return distinct(f)
}

// PublishPlanned returns when the notice is planned to be published: the
// month ("2026-03") where the plan gives it, else the year ("2026"), ""
// when it says nothing.
func (p *PlannedPurchase) PublishPlanned() string {
	switch {
	case p.PublishYear <= 0:
		return ""
	case p.PublishMonth >= 1 && p.PublishMonth <= 12:
		return fmt.Sprintf("%04d-%02d", p.PublishYear, p.PublishMonth)
	}
	return strconv.Itoa(p.PublishYear)
}

// Measures returns the money planned for the purchase in roubles: in
// another currency, the roubles the plan converted it to.
func (p *PlannedPurchase) Measures() Measures {
	if price := roubles(p.MaxPrice, p.Currency); price > 0 {
		return Measures{Price: price}
	}
	return Measures{Price: p.MaxPriceRUB}
}

// flagLookups returns the lookups of the position that it carries as
// flags: its status, and the year and the month its notice is planned for.
func (p *PlannedPurchase) flagLookups() []Lookup {
	ls := lookups(LookupPlanStatus, p.Status)
	if p.PublishYear > 0 {
		ls = append(ls, Lookup{Field: LookupPlannedPublish, Value: strconv.Itoa(p.PublishYear)})
	}
	if when := p.PublishPlanned(); strings.Contains(when, "-") {
		ls = append(ls, Lookup{Field: LookupPlannedPublish, Value: when})
	}
	return ls
}

// Lookups returns the position's number, its plan's number, the IKZ, the
// customer's INN, the owner's INN and the placing method's code.
func (p *PlannedPurchase) Lookups() []Lookup {
	ls := lookups(
		LookupPlanPosition, p.PositionNumber,
		LookupPlanNumber, p.PlanNumber,
		LookupIKZ, p.IKZ,
		LookupCustomerINN, p.Customer.INN,
		LookupPlacingMethod, p.PlacingMethodCode,
	)
	if p.Owner != nil && p.Owner.INN != p.Customer.INN {
		ls = append(ls, lookups(LookupOrganizerINN, p.Owner.INN)...)
	}
	return distinct(ls)
}
