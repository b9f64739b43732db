package eis

import (
	"encoding/xml"
	"strconv"

	"github.com/tenderbase/tenderbase"
)

// plans223 decodes the 223-FZ purchase plan, <purchasePlan>: the plan of a
// customer for a period, published whole at each of its versions. Each of
// its items is a planned purchase.
var plans223 = map[string]documentFunc{
	"purchasePlan": decodePurchasePlan,
}

// purchasePlanWire is a 223-FZ purchase plan document.
type purchasePlanWire = items223[purchasePlanData]

// purchasePlanData is one plan: a purchasePlanData element.
type purchasePlanData struct {
	XMLName            xml.Name
	Customer           org223Wire    `xml:"customer>mainInfo"`
	Placer             org223Wire    `xml:"placer>mainInfo"`
	Items              []planItem223 `xml:"purchasePlanItems>purchasePlanItem"`
	InnovationItems    []planItem223 `xml:"innovationPlanItems>innovationPlanItem"`
	ItemsSMB           []planItem223 `xml:"purchasePlanItemsSMB>purchasePlanItem"`
	InnovationItemsSMB []planItem223 `xml:"innovationPlanItemsSMB>innovationPlanItem"`
	CreateDateTime     eisTime       `xml:"createDateTime"`
	URLEIS             string        `xml:"urlEIS"`
	RegistrationNumber string        `xml:"registrationNumber"`
	StartDate          eisTime       `xml:"startDate"`
	EndDate            eisTime       `xml:"endDate"`
	PublicationTime    eisTime       `xml:"publicationDateTime"`
	Version            string        `xml:"version"`
}

// planItem223 is an item of a plan, a purchasePlanItem or an
// innovationPlanItem, which share what is read of them.
type planItem223 struct {
	GUID                    string       `xml:"guid"`
	OrdinalNumber           string       `xml:"ordinalNumber"`
	ContractSubject         string       `xml:"contractSubject"`
	Customer                org223Wire   `xml:"planItemCustomer>mainInfo"`
	ContractEndDate         eisTime      `xml:"contractEndDate"`
	ModificationDescription string       `xml:"modificationDescription"`
	Status                  string       `xml:"status"`
	IsPurchasePlaced        bool         `xml:"isPurchasePlaced"`
	CancellationReason      string       `xml:"cancellationReason"`
	InitialPosition         *struct{}    `xml:"initialPositionData"`
	LongTermVolumes         []yearSum223 `xml:"longTermVolumes>details>longTermVolumeDetail"`
	MaximumContractPrice    string       `xml:"maximumContractPrice"`
	Currency                string       `xml:"currency>code"`
	MaximumContractPriceRub string       `xml:"maximumContractPriceRub"`
	PurchasePlannedDate     eisTime      `xml:"purchasePlannedDate"`
	PurchasePeriodYear      int          `xml:"purchasePeriodYear"`
	PurchasePeriodMonth     int          `xml:"purchasePeriodMonth"`
	MethodCode              string       `xml:"purchaseMethodCode"`
	MethodName              string       `xml:"purchaseMethodName"`
	IsElectronic            bool         `xml:"isElectronic"`
	Rows                    []planRow223 `xml:"purchasePlanDataItemRows>purchasePlanRowItem"`
	InnovationRows          []planRow223 `xml:"innovationPlanDataItemRows>innovationPlanRowItem"`
}

// yearSum223 is the money of one year of a long-term item.
type yearSum223 struct {
	Year int    `xml:"year"`
	Summ string `xml:"summ"`
}

// planRow223 is a row of an item: a good, work or service it buys.
type planRow223 struct {
	AdditionalInfo string       `xml:"additionalInfo"`
	OKPD2          codeNameWire `xml:"okpd2"`
	OKVED2         codeNameWire `xml:"okved2"`
	Unit           string       `xml:"okei>name"`
	Quantity       string       `xml:"qty"`
}

// planItemStatuses maps the status of an item to the state of a planned
// purchase: N new, P placed, C changed, A annulled.
var planItemStatuses = map[string]string{
	"N": tenderbase.PlannedActive, "P": tenderbase.PlannedActive,
	"C": tenderbase.PlannedChanged, "A": tenderbase.PlannedCancelled,
}

// planCancellationReasons names the reasons an item is annulled for.
var planCancellationReasons = map[string]string{
	"REJECT":        "Отказ от проведения закупки",
	"INVALID":       "Признание торгов недействительными",
	"NOT_PERFORMED": "Торги не состоялись",
}

// decodePurchasePlan decodes a 223-FZ purchase plan into a planned purchase
// per item of each plan it holds.
func decodePurchasePlan(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w purchasePlanWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	var recs []tenderbase.Record
	for _, plan := range w.data() {
		planned, err := plan.positions()
		if err != nil {
			return nil, err
		}
		for _, p := range planned {
			recs = append(recs, p)
		}
	}
	if len(recs) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "purchase plan holds no position of its own")
	}
	return recs, nil
}

// positions returns the plan's items as planned purchases. The lists of
// items for small and medium businesses restate items of the main lists,
// which they mark as such; an item found only there is a position too. An
// item counted in several plans (initialPositionData) is a position of the
// plan it was first published in, which this one names by its GUID only,
// and which keys it; it is not read here, where its ordinal number may be
// that of another item.
func (plan *purchasePlanData) positions() ([]*tenderbase.PlannedPurchase, error) {
	number := cleanText(plan.RegistrationNumber)
	if number == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "purchase plan has no registration number")
	}
	version, err := parseVersion(plan.Version, 1)
	if err != nil {
		return nil, err
	}
	var all []*tenderbase.PlannedPurchase
	byGUID := map[string]*tenderbase.PlannedPurchase{}
	lists := [][]planItem223{plan.Items, plan.InnovationItems, plan.ItemsSMB, plan.InnovationItemsSMB}
	for i, items := range lists {
		smb := i >= 2
		for _, item := range items {
			if item.InitialPosition != nil {
				continue
			}
			guid := cleanText(item.GUID)
			if p, seen := byGUID[guid]; seen && guid != "" {
				p.SMEOnly = p.SMEOnly || smb
				continue
			}
			p, err := plan.position(item, number, version)
			if err != nil {
				return nil, err
			}
			p.SMEOnly = smb
			byGUID[guid] = p
			all = append(all, p)
		}
	}
	return all, nil
}

// position adapts one item of the plan registered as number, at version.
func (plan *purchasePlanData) position(item planItem223, number string, version int) (*tenderbase.PlannedPurchase, error) {
	ordinal, err := strconv.Atoi(cleanText(item.OrdinalNumber))
	if err != nil || ordinal <= 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "item of purchase plan %s has no ordinal number (%q)", number, item.OrdinalNumber)
	}
	p := &tenderbase.PlannedPurchase{
		PositionNumber:    tenderbase.PlanPositionNumber223(number, ordinal),
		Law:               tenderbase.Law223,
		PlanNumber:        number,
		PlanVersion:       version,
		PlanYears:         yearsBetween(plan.StartDate, plan.EndDate),
		Object:            cleanText(item.ContractSubject),
		Objects:           item.objects(),
		Customer:          plan.itemCustomer(item),
		MaxPrice:          parseAmount(item.MaximumContractPrice),
		Currency:          currencyOr(item.Currency),
		Amounts:           item.amounts(),
		PublishYear:       item.PurchasePeriodYear,
		PublishMonth:      item.PurchasePeriodMonth,
		PlacingMethod:     cleanText(item.MethodName),
		PlacingMethodCode: cleanText(item.MethodCode),
		Electronic:        item.IsElectronic,
		ContractEnd:       item.ContractEndDate.date(),
		StatusCode:        cleanText(item.Status),
		NoticePublished:   item.IsPurchasePlaced,
		PublishedAt:       firstTime(plan.PublicationTime.Time, plan.CreateDateTime.Time),
		URL:               cleanText(plan.URLEIS),
	}
	if p.PublishYear == 0 && !item.PurchasePlannedDate.IsZero() {
		p.PublishYear, p.PublishMonth = item.PurchasePlannedDate.Year(), int(item.PurchasePlannedDate.Month())
	}
	if p.Currency != "RUB" {
		p.MaxPriceRUB = parseAmount(item.MaximumContractPriceRub)
	}
	p.Status = firstOf(planItemStatuses[p.StatusCode], tenderbase.PlannedActive)
	if owner := plan.owner(); owner.INN != p.Customer.INN || owner.Name != p.Customer.Name {
		p.Owner = &owner
	}
	p.Region = regionOf(p.Customer.KPP, p.Customer.INN)
	reason := firstOf(cleanText(item.ModificationDescription), planCancellationReasons[cleanText(item.CancellationReason)])
	if reason != "" {
		p.Change = &tenderbase.Change{Reason: reason, PublishedAt: p.PublishedAt}
	}
	return p, nil
}

// itemCustomer returns the customer of the item: its own, else the plan's,
// else the placer.
func (plan *purchasePlanData) itemCustomer(item planItem223) tenderbase.Party {
	for _, o := range []org223Wire{item.Customer, plan.Customer, plan.Placer} {
		if p := o.party(); p.INN != "" || p.Name != "" {
			return p
		}
	}
	return tenderbase.Party{}
}

// owner returns the organization whose plan it is: the placer, else the
// plan's customer.
func (plan *purchasePlanData) owner() tenderbase.Party {
	if p := plan.Placer.party(); p.INN != "" || p.Name != "" {
		return p
	}
	return plan.Customer.party()
}

// amounts returns the money of each year of a long-term item.
func (item planItem223) amounts() []tenderbase.YearAmount {
	var amounts []tenderbase.YearAmount
	for _, v := range item.LongTermVolumes {
		amounts = append(amounts, tenderbase.YearAmount{Year: v.Year, Amount: parseAmount(v.Summ)})
	}
	return amounts
}

// objects returns the rows of the item. A row is named by its description,
// else by its OKPD2 class.
func (item planItem223) objects() []tenderbase.PlannedObject {
	var objects []tenderbase.PlannedObject
	for _, r := range append(item.Rows, item.InnovationRows...) {
		objects = append(objects, tenderbase.PlannedObject{
			OKPD2Code:  cleanText(r.OKPD2.Code),
			OKPD2Name:  cleanText(r.OKPD2.Name),
			OKVED2Code: cleanText(r.OKVED2.Code),
			OKVED2Name: cleanText(r.OKVED2.Name),
			Name:       firstOf(cleanText(r.AdditionalInfo), cleanText(r.OKPD2.Name)),
			Quantity:   parseAmount(r.Quantity),
			Unit:       cleanText(r.Unit),
		})
	}
	return objects
}

// yearsBetween returns the years from the year of start to that of end, or
// nil when either is not given.
func yearsBetween(start, end eisTime) []int {
	if start.IsZero() || end.IsZero() {
		return nil
	}
	var years []int
	for y := start.Year(); y <= end.Year() && len(years) < 100; y++ {
		years = append(years, y)
	}
	return years
}

// elementName names the element, which names the kind of document.
func (plan purchasePlanData) elementName() string { return plan.XMLName.Local }
