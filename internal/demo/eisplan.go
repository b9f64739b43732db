package demo

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's plans as the EIS publishes them: each version of a 44-FZ
// plan-schedule as a <tenderPlan2020> in an <export>, each version of a
// 223-FZ purchase plan as a <purchasePlan>, whole, with all its positions.

// planFiles returns a document for each plan version the positions belong
// to, in the order of their first positions.
func planFiles(positions []*tenderbase.PlannedPurchase) ([]File, error) {
	type version struct {
		number string
		v      int
	}
	var order []version
	plans := map[version][]*tenderbase.PlannedPurchase{}
	for _, p := range positions {
		k := version{p.PlanNumber, p.PlanVersion}
		if plans[k] == nil {
			order = append(order, k)
		}
		plans[k] = append(plans[k], p)
	}
	var files []File
	for _, k := range order {
		f, err := planFile(plans[k])
		if err != nil {
			return nil, fmt.Errorf("plan %s version %d: %w", k.number, k.v, err)
		}
		files = append(files, f)
	}
	return files, nil
}

// planFile returns the document of one version of a plan, of its law.
func planFile(positions []*tenderbase.PlannedPurchase) (File, error) {
	if positions[0].Law == tenderbase.Law223 {
		return purchasePlanFile(positions)
	}
	return tenderPlanFile(positions)
}

// tenderPlan is a tenderPlan2020 document.
type tenderPlan struct {
	XMLName       xml.Name             `xml:"http://zakupki.gov.ru/oos/TPtypes/1 tenderPlan2020"`
	SchemeVersion string               `xml:"schemeVersion,attr"`
	PlanNumber    string               `xml:"planNumber"`
	VersionNumber int                  `xml:"versionNumber"`
	CommonInfo    tenderPlanCommonInfo `xml:"commonInfo"`
	Positions     []tenderPlanPosition `xml:"positions>position"`
	Special       []specialPosition    `xml:"specialPurchasePositions>specialPurchasePosition"`
	PrintForm     string               `xml:"printForm>url,omitempty"`
}

type tenderPlanCommonInfo struct {
	PlanYear    int           `xml:"planYear"`
	FirstYear   int           `xml:"planPeriod>firstYear"`
	SecondYear  int           `xml:"planPeriod>secondYear"`
	ConfirmDate string        `xml:"confirmDate"`
	PublishDate string        `xml:"publishDate"`
	Customer    tenderPlanOrg `xml:"customerInfo"`
	Owner       tenderPlanOrg `xml:"ownerInfo"`
}

type tenderPlanOrg struct {
	RegNum      string `xml:"regNum"`
	FullName    string `xml:"fullName"`
	INN         string `xml:"INN"`
	KPP         string `xml:"KPP"`
	FactAddress string `xml:"factAddress,omitempty"`
	OwnerRole   string `xml:"ownerRole,omitempty"`
}

type tenderPlanPosition struct {
	PositionNumber string      `xml:"commonInfo>positionNumber"`
	IKZ            string      `xml:"commonInfo>IKZ"`
	PublishYear    int         `xml:"commonInfo>publishYear"`
	PurchaseNumber string      `xml:"commonInfo>purchaseNumber"`
	OKPD2          *okpd2Ref   `xml:"commonInfo>OKPD2Info"`
	Undefined      *okpd2List  `xml:"commonInfo>undefined"`
	KVR            string      `xml:"commonInfo>KVRInfo>KVR>code"`
	ObjectInfo     string      `xml:"commonInfo>purchaseObjectInfo"`
	Canceled       bool        `xml:"commonInfo>positionCanceled"`
	Finance        planFinance `xml:"financeInfo"`
	EnergyService  bool        `xml:"isEnergyServiceContract"`
}

// okpd2List holds the classes of a position of several.
type okpd2List struct {
	OKPD2s []okpd2Ref `xml:"OKPD2s>OKPD2Info"`
}

type okpd2Ref struct {
	Code string `xml:"OKPDCode"`
	Name string `xml:"OKPDName"`
}

type specialPosition struct {
	Type           epCode      `xml:"type"`
	PositionNumber string      `xml:"positionNumber"`
	IKZ            string      `xml:"IKZ"`
	PublishYear    int         `xml:"publishYear"`
	KVR            string      `xml:"KVRInfo>KVR>code"`
	PurchaseNumber string      `xml:"purchaseNumber"`
	Finance        planFinance `xml:"financeInfo"`
}

type planFinance struct {
	Total       string `xml:"total"`
	CurrentYear string `xml:"currentYear"`
	FirstYear   string `xml:"firstYear"`
	SecondYear  string `xml:"secondYear"`
	SubsecYears string `xml:"subsecYears"`
}

// tenderPlanFile returns the plan-schedule of the 44-FZ positions: a
// position with objects is a position, one without a special purchase
// position of small purchases.
func tenderPlanFile(positions []*tenderbase.PlannedPurchase) (File, error) {
	first := positions[0]
	c := first.Customer
	org := tenderPlanOrg{RegNum: c.RegNum, FullName: c.Name, INN: c.INN, KPP: c.KPP, FactAddress: c.Address}
	owner := org
	owner.OwnerRole = "CU"
	doc := tenderPlan{
		SchemeVersion: "15.3",
		PlanNumber:    first.PlanNumber,
		VersionNumber: first.PlanVersion,
		CommonInfo: tenderPlanCommonInfo{
			PlanYear: planYear(first, 0), FirstYear: planYear(first, 1), SecondYear: planYear(first, 2),
			ConfirmDate: eisTime(first.PublishedAt.Add(-approval)), PublishDate: eisTime(first.PublishedAt),
			Customer: org, Owner: owner,
		},
		PrintForm: first.URL,
	}
	for _, p := range positions {
		number := p.PositionNumber[len(p.PositionNumber)-4:]
		if len(p.Objects) == 0 {
			doc.Special = append(doc.Special, specialPosition{
				Type: epCode{Code: "P4_1_93", Name: p.Object}, PositionNumber: p.PositionNumber, IKZ: p.IKZ,
				PublishYear: p.PublishYear, KVR: "244", PurchaseNumber: number, Finance: finance(p),
			})
			continue
		}
		w := tenderPlanPosition{
			PositionNumber: p.PositionNumber, IKZ: p.IKZ, PublishYear: p.PublishYear, PurchaseNumber: number,
			KVR: "244", ObjectInfo: p.Object, Canceled: p.Status == tenderbase.PlannedCancelled, Finance: finance(p),
		}
		refs := make([]okpd2Ref, len(p.Objects))
		for i, o := range p.Objects {
			refs[i] = okpd2Ref{Code: o.OKPD2Code, Name: o.OKPD2Name}
		}
		if len(refs) == 1 {
			w.OKPD2 = &refs[0]
		} else {
			w.Undefined = &okpd2List{OKPD2s: refs}
		}
		doc.Positions = append(doc.Positions, w)
	}
	name := fmt.Sprintf("tenderPlan2020_%s_%d.xml", first.PlanNumber, first.PlanVersion)
	return encodeEIS(name, eisExport{Document: doc})
}

// approval is how long before its publication a demo plan is approved.
const approval = 15 * time.Minute

// planYear returns the i-th year of the plan of p, or 0.
func planYear(p *tenderbase.PlannedPurchase, i int) int {
	if i < len(p.PlanYears) {
		return p.PlanYears[i]
	}
	return 0
}

// finance returns the money of a position by the years of its plan.
func finance(p *tenderbase.PlannedPurchase) planFinance {
	byYear := map[int]float64{}
	for _, a := range p.Amounts {
		byYear[a.Year] = a.Amount
	}
	return planFinance{
		Total:       amount(p.MaxPrice),
		CurrentYear: amount(byYear[planYear(p, 0)]),
		FirstYear:   amount(byYear[planYear(p, 1)]),
		SecondYear:  amount(byYear[planYear(p, 2)]),
		SubsecYears: amount(p.LaterYears),
	}
}

// purchasePlan is a 223-FZ purchasePlan document of one plan.
type purchasePlan struct {
	XMLName    xml.Name         `xml:"http://zakupki.gov.ru/223fz/purchasePlan/1 purchasePlan"`
	CreateDate string           `xml:"header>createDateTime"`
	Data       purchasePlanData `xml:"body>item>purchasePlanData"`
}

type purchasePlanData struct {
	Customer     org223         `xml:"customer>mainInfo"`
	Placer       org223         `xml:"placer>mainInfo"`
	PlanType     string         `xml:"planType"`
	Items        []planItemWire `xml:"purchasePlanItems>purchasePlanItem"`
	ItemsSMB     []planItemWire `xml:"purchasePlanItemsSMB>purchasePlanItem"`
	CreateDate   string         `xml:"createDateTime"`
	URL          string         `xml:"urlEIS,omitempty"`
	Registration string         `xml:"registrationNumber"`
	StartDate    string         `xml:"startDate"`
	EndDate      string         `xml:"endDate"`
	Published    string         `xml:"publicationDateTime"`
	Version      int            `xml:"version"`
}

type planItemWire struct {
	GUID         string        `xml:"guid"`
	Ordinal      int           `xml:"ordinalNumber"`
	Subject      string        `xml:"contractSubject"`
	Customer     org223        `xml:"planItemCustomer>mainInfo"`
	ContractEnd  string        `xml:"contractEndDate,omitempty"`
	Status       string        `xml:"status"`
	Placed       bool          `xml:"isPurchasePlaced"`
	MaxPrice     string        `xml:"maximumContractPrice"`
	Currency     string        `xml:"currency>code"`
	Year         int           `xml:"purchasePeriodYear"`
	Month        int           `xml:"purchasePeriodMonth"`
	MethodCode   string        `xml:"purchaseMethodCode"`
	MethodName   string        `xml:"purchaseMethodName"`
	IsElectronic bool          `xml:"isElectronic"`
	Rows         []planRowWire `xml:"purchasePlanDataItemRows>purchasePlanRowItem"`
}

type planRowWire struct {
	Ordinal   int    `xml:"ordinalNumber"`
	Info      string `xml:"additionalInfo,omitempty"`
	OKPD2Code string `xml:"okpd2>code"`
	OKPD2Name string `xml:"okpd2>name"`
	Unit      string `xml:"okei>name"`
	Quantity  string `xml:"qty"`
}

// purchasePlanFile returns the purchase plan of the 223-FZ positions; those
// for small and medium businesses are restated in their list.
func purchasePlanFile(positions []*tenderbase.PlannedPurchase) (File, error) {
	first := positions[0]
	c := first.Customer
	org := org223{FullName: c.Name, ShortName: c.ShortName, INN: c.INN, KPP: c.KPP, OGRN: c.OGRN, LegalAddress: c.Address}
	year := first.PlanYears[0]
	d := purchasePlanData{
		Customer: org, Placer: org, PlanType: "COMMODITY",
		CreateDate: eisTime(first.PublishedAt.Add(-approval)), URL: first.URL, Registration: first.PlanNumber,
		StartDate: fmt.Sprintf("%d-01-01", year), EndDate: fmt.Sprintf("%d-12-31", first.PlanYears[len(first.PlanYears)-1]),
		Published: eisTime(first.PublishedAt), Version: first.PlanVersion,
	}
	for i, p := range positions {
		item := planItemWire{
			GUID: fmt.Sprintf("%s-0000-4000-8000-%012d", p.PlanNumber[2:], i+1), Ordinal: i + 1, Subject: p.Object,
			Customer: org, ContractEnd: p.ContractEnd, Status: p.StatusCode, Placed: p.NoticePublished,
			MaxPrice: amount(p.MaxPrice), Currency: p.Currency, Year: p.PublishYear, Month: p.PublishMonth,
			MethodCode: p.PlacingMethodCode, MethodName: p.PlacingMethod, IsElectronic: p.Electronic,
		}
		for j, o := range p.Objects {
			item.Rows = append(item.Rows, planRowWire{Ordinal: j + 1, Info: o.Name, OKPD2Code: o.OKPD2Code,
				OKPD2Name: o.OKPD2Name, Unit: o.Unit, Quantity: amount(o.Quantity)})
		}
		if want := tenderbase.PlanPositionNumber223(p.PlanNumber, i+1); p.PositionNumber != want {
			return File{}, fmt.Errorf("item %s is not numbered %s, as its place in the plan", p.PositionNumber, want)
		}
		d.Items = append(d.Items, item)
		if p.SMEOnly {
			d.ItemsSMB = append(d.ItemsSMB, item)
		}
	}
	name := "purchasePlan_" + first.PlanNumber + "_" + strconv.Itoa(first.PlanVersion) + ".xml"
	return encodeEIS(name, purchasePlan{CreateDate: d.CreateDate, Data: d})
}
