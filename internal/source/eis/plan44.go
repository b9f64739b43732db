package eis

import (
	"encoding/xml"

	"github.com/tenderbase/tenderbase"
)

// plans44 decodes the 44-FZ plan-schedule of 2020 and later,
// <tenderPlan2020>: a customer's plan for a financial year and the two of
// its planning period, published whole at each of its versions. Each of its
// positions and special purchase positions is a planned purchase.
var plans44 = map[string]documentFunc{
	"tenderPlan2020": decodeTenderPlan,
}

// tenderPlanWire is a tenderPlan2020 document. The positions under
// notPublishedOnEISInfo, which the plan holds as not to be published, are
// not read: a path from the root reaches only the published ones.
type tenderPlanWire struct {
	PlanNumber    string `xml:"planNumber"`
	VersionNumber string `xml:"versionNumber"`
	CommonInfo    struct {
		PlanYear    int         `xml:"planYear"`
		FirstYear   int         `xml:"planPeriod>firstYear"`
		SecondYear  int         `xml:"planPeriod>secondYear"`
		ConfirmDate eisTime     `xml:"confirmDate"`
		PublishDate eisTime     `xml:"publishDate"`
		Customer    planOrgWire `xml:"customerInfo"`
		Owner       planOrgWire `xml:"ownerInfo"`
	} `xml:"commonInfo"`
	Positions []tenderPlanPosition `xml:"positions>position"`
	Special   []specialPosition    `xml:"specialPurchasePositions>specialPurchasePosition"`
	PrintForm string               `xml:"printForm>url"`
}

// planOrgWire is the customer or the owner of a plan-schedule.
type planOrgWire struct {
	RegNum      string `xml:"regNum"`
	FullName    string `xml:"fullName"`
	INN         string `xml:"INN"`
	KPP         string `xml:"KPP"`
	FactAddress string `xml:"factAddress"`
}

func (o planOrgWire) party() tenderbase.Party {
	return tenderbase.Party{
		INN:     cleanText(o.INN),
		KPP:     cleanText(o.KPP),
		RegNum:  cleanText(o.RegNum),
		Name:    cleanText(o.FullName),
		Address: cleanText(o.FactAddress),
	}
}

// tenderPlanPosition is a position of a plan-schedule.
type tenderPlanPosition struct {
	CommonInfo struct {
		planPositionNumbers
		OKPD2        okpdWire        `xml:"OKPD2Info"`
		OKPD2s       []okpdWire      `xml:"undefined>OKPD2s>OKPD2Info"`
		ObjectInfo   string          `xml:"purchaseObjectInfo"`
		Canceled     bool            `xml:"positionCanceled"`
		Modification *planChangeWire `xml:"positionModification"`
		ModStatus    string          `xml:"positionModificationStatus"`
	} `xml:"commonInfo"`
	Finance planFinanceWire `xml:"financeInfo"`
}

// specialPosition is a special purchase position of a plan-schedule: a
// sum planned for purchases of a kind the law lets go without a position
// each (small purchases, those of a single supplier...).
type specialPosition struct {
	Type codeNameWire `xml:"type"`
	planPositionNumbers
	Finance      planFinanceWire `xml:"financeInfo"`
	Modification *planChangeWire `xml:"specialPurchasePositionModification"`
	ModStatus    string          `xml:"specialPurchasePositionModificationStatus"`
}

// planPositionNumbers are the numbers of a position and the year its
// notice is planned for.
type planPositionNumbers struct {
	PositionNumber string `xml:"positionNumber"`
	IKZ            string `xml:"IKZ"`
	PublishYear    int    `xml:"publishYear"`
}

// planChangeWire is why a position was changed.
type planChangeWire struct {
	ChangeReason codeNameWire `xml:"changeReason"`
	Canceled     bool         `xml:"decision>purchaseCanceled"`
	Changed      bool         `xml:"decision>purchaseChanged"`
	Description  string       `xml:"description"`
}

// planFinanceWire is the money of a position: in all, for the year
// planned, for each year of the planning period and for the years after.
type planFinanceWire struct {
	Total       string `xml:"total"`
	CurrentYear string `xml:"currentYear"`
	FirstYear   string `xml:"firstYear"`
	SecondYear  string `xml:"secondYear"`
	SubsecYears string `xml:"subsecYears"`
}

// decodeTenderPlan decodes a plan-schedule into a planned purchase per
// position.
func decodeTenderPlan(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w tenderPlanWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	plan, err := w.plan()
	if err != nil {
		return nil, err
	}
	var recs []tenderbase.Record
	for _, p := range w.Positions {
		c := p.CommonInfo
		objects := c.OKPD2.objects()
		for _, o := range c.OKPD2s {
			objects = append(objects, o.objects()...)
		}
		object := firstOf(cleanText(c.ObjectInfo), firstObjectName(objects))
		status := positionStatus(c.Canceled, c.Modification, c.ModStatus)
		recs = append(recs, w.position(plan, c.planPositionNumbers, object, objects, p.Finance, c.Modification, status, c.ModStatus))
	}
	for _, s := range w.Special {
		status := positionStatus(false, s.Modification, s.ModStatus)
		recs = append(recs, w.position(plan, s.planPositionNumbers, cleanText(s.Type.Name), nil, s.Finance, s.Modification, status, s.ModStatus))
	}
	for _, r := range recs {
		if r.Key() == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "plan-schedule %s has a position without a registry number", plan.PlanNumber)
		}
	}
	if len(recs) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "plan-schedule %s holds no published position", plan.PlanNumber)
	}
	return recs, nil
}

// plan returns what every position of the plan-schedule shares.
func (w *tenderPlanWire) plan() (tenderbase.PlannedPurchase, error) {
	version, err := parseVersion(w.VersionNumber, 1)
	if err != nil {
		return tenderbase.PlannedPurchase{}, err
	}
	c := w.CommonInfo
	p := tenderbase.PlannedPurchase{
		Law:         tenderbase.Law44,
		PlanNumber:  cleanText(w.PlanNumber),
		PlanVersion: version,
		Customer:    c.Customer.party(),
		Currency:    "RUB",
		PublishedAt: firstTime(c.PublishDate.Time, c.ConfirmDate.Time),
		URL:         cleanText(w.PrintForm),
	}
	for _, y := range []int{c.PlanYear, c.FirstYear, c.SecondYear} {
		if y > 0 {
			p.PlanYears = append(p.PlanYears, y)
		}
	}
	if p.PlanNumber == "" {
		return p, tenderbase.Errorf(tenderbase.EINVALID, "plan-schedule has no registry number")
	}
	if owner := c.Owner.party(); (owner.RegNum != "" || owner.INN != "") && (owner.RegNum != p.Customer.RegNum || owner.INN != p.Customer.INN) {
		p.Owner = &owner
	}
	p.Region = regionOf(p.Customer.KPP, p.Customer.INN)
	return p, nil
}

// position returns one position of the plan-schedule.
func (w *tenderPlanWire) position(plan tenderbase.PlannedPurchase, n planPositionNumbers, object string, objects []tenderbase.PlannedObject,
	f planFinanceWire, change *planChangeWire, status, code string) *tenderbase.PlannedPurchase {
	p := plan
	p.PositionNumber = cleanText(n.PositionNumber)
	p.IKZ = cleanText(n.IKZ)
	p.PublishYear = n.PublishYear
	p.Object = object
	p.Objects = objects
	p.Status, p.StatusCode = status, cleanText(code)
	p.Amounts, p.LaterYears = f.amounts(w.CommonInfo.PlanYear, w.CommonInfo.FirstYear, w.CommonInfo.SecondYear)
	p.MaxPrice = parseAmount(f.Total)
	if cleanText(f.Total) == "" {
		all := []float64{p.LaterYears}
		for _, a := range p.Amounts {
			all = append(all, a.Amount)
		}
		p.MaxPrice = sumMoney(all...)
	}
	if change != nil {
		if reason := firstOf(cleanText(change.Description), cleanText(change.ChangeReason.Name)); reason != "" {
			p.Change = &tenderbase.Change{Reason: reason, PublishedAt: p.PublishedAt}
		}
	}
	return &p
}

// amounts returns the money of each year given, the year planned first,
// and that of the years after them.
func (f planFinanceWire) amounts(years ...int) ([]tenderbase.YearAmount, float64) {
	var amounts []tenderbase.YearAmount
	for i, v := range []string{f.CurrentYear, f.FirstYear, f.SecondYear} {
		if cleanText(v) != "" && years[i] > 0 {
			amounts = append(amounts, tenderbase.YearAmount{Year: years[i], Amount: parseAmount(v)})
		}
	}
	return amounts, parseAmount(f.SubsecYears)
}

// positionStatus returns where a position stands: cancelled when the plan
// says so or the change's decision is to cancel it, changed when a change
// decided to change it or the position was edited in this version (E).
func positionStatus(canceled bool, change *planChangeWire, code string) string {
	switch {
	case canceled || (change != nil && change.Canceled):
		return tenderbase.PlannedCancelled
	case (change != nil && change.Changed) || cleanText(code) == "E":
		return tenderbase.PlannedChanged
	}
	return tenderbase.PlannedActive
}

// objects returns the class as an object, or nothing when no code is given.
func (o okpdWire) objects() []tenderbase.PlannedObject {
	if o.code() == "" {
		return nil
	}
	return []tenderbase.PlannedObject{{OKPD2Code: o.code(), OKPD2Name: o.name(), Name: o.name()}}
}

// firstObjectName returns the name of the first object, or "".
func firstObjectName(objects []tenderbase.PlannedObject) string {
	if len(objects) == 0 {
		return ""
	}
	return objects[0].Name
}
