package demo

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// ns223Purchase is the namespace of the 223-FZ purchase documents.
const ns223Purchase = "http://zakupki.gov.ru/223fz/purchase/1"

// purchaseNotice is a 223-FZ purchaseNotice document of one item.
type purchaseNotice struct {
	XMLName    xml.Name               `xml:"http://zakupki.gov.ru/223fz/purchase/1 purchaseNotice"`
	CreateDate string                 `xml:"header>createDateTime"`
	Data       purchaseNoticeDataWire `xml:"body>item>purchaseNoticeData"`
}

type purchaseNoticeDataWire struct {
	RegistrationNumber string       `xml:"registrationNumber"`
	URL                string       `xml:"urlOOS,omitempty"`
	Name               string       `xml:"name"`
	Customer           org223       `xml:"customer>mainInfo"`
	MethodCode         string       `xml:"purchaseMethodCode"`
	MethodName         string       `xml:"purchaseCodeName"`
	Placer             *org223      `xml:"placer>mainInfo"`
	Contact            contact223   `xml:"contact"`
	PublicationDate    string       `xml:"publicationDateTime"`
	DeliveryStart      string       `xml:"documentationDelivery>deliveryStartDateTime,omitempty"`
	Version            int          `xml:"version"`
	Modification       string       `xml:"modificationDescription,omitempty"`
	Attachments        []doc223     `xml:"attachments>document"`
	ETP                *etp223      `xml:"electronicPlaceInfo"`
	SubmissionClose    string       `xml:"submissionCloseDateTime,omitempty"`
	AuctionTime        string       `xml:"auctionTime,omitempty"`
	Lots               []lot223Wire `xml:"lots>lot"`
}

type org223 struct {
	FullName     string `xml:"fullName"`
	ShortName    string `xml:"shortName,omitempty"`
	INN          string `xml:"inn"`
	KPP          string `xml:"kpp"`
	OGRN         string `xml:"ogrn,omitempty"`
	LegalAddress string `xml:"legalAddress,omitempty"`
}

type contact223 struct {
	FirstName  string `xml:"firstName,omitempty"`
	MiddleName string `xml:"middleName,omitempty"`
	LastName   string `xml:"lastName,omitempty"`
	Phone      string `xml:"phone,omitempty"`
	Email      string `xml:"email,omitempty"`
}

type doc223 struct {
	GUID        string `xml:"guid"`
	CreateDate  string `xml:"createDateTime,omitempty"`
	FileName    string `xml:"fileName"`
	Description string `xml:"description,omitempty"`
	URL         string `xml:"url,omitempty"`
}

type etp223 struct {
	Name string `xml:"name"`
	URL  string `xml:"url,omitempty"`
	ID   string `xml:"electronicPlaceId"`
}

type lot223Wire struct {
	OrdinalNumber int           `xml:"ordinalNumber"`
	Subject       string        `xml:"lotData>subject"`
	Currency      string        `xml:"lotData>currency>code"`
	InitialSum    string        `xml:"lotData>initialSum"`
	Items         []lotItemWire `xml:"lotData>lotItems>lotItem"`
	Plan          *lotPlanInfo  `xml:"lotPlanInfo"`
}

// lotPlanInfo names the item of the purchase plan a lot was planned as.
type lotPlanInfo struct {
	PlanRegistrationNumber string `xml:"planRegistrationNumber"`
	PositionNumber         string `xml:"positionNumber"`
	LotPlanPosition        string `xml:"lotPlanPosition"`
}

type lotItemWire struct {
	OKPD2Code string `xml:"okpd2>code"`
	OKPD2Name string `xml:"okpd2>name"`
	Unit      string `xml:"okei>name"`
	Quantity  string `xml:"qty"`
	Info      string `xml:"additionalInfo,omitempty"`
}

// purchaseNoticeFile returns the purchase notice of 223-FZ tender version t.
func purchaseNoticeFile(t *tenderbase.Tender, docs map[string]*tenderbase.Doc) (File, error) {
	c := t.Customer
	last, first, middle := personName(t.Contact.Person)
	d := purchaseNoticeDataWire{
		RegistrationNumber: t.PurchaseNumber,
		URL:                t.URL,
		Name:               t.Title,
		Customer: org223{FullName: c.Name, ShortName: c.ShortName, INN: c.INN, KPP: c.KPP,
			OGRN: c.OGRN, LegalAddress: c.Address},
		MethodCode:      t.PlacingMethodCode,
		MethodName:      t.PlacingMethod,
		Contact:         contact223{FirstName: first, MiddleName: middle, LastName: last, Phone: t.Contact.Phone, Email: t.Contact.Email},
		PublicationDate: eisTime(t.PublishedAt),
		DeliveryStart:   eisTime(t.ApplicationsStart),
		Version:         t.Version,
		SubmissionClose: eisTime(t.ApplicationsDeadline),
		AuctionTime:     eisTime(t.BiddingDate),
	}
	if t.Change != nil {
		d.Modification = t.Change.Reason
	}
	if o := t.Organizer; o != nil {
		d.Placer = &org223{FullName: o.Name, ShortName: o.ShortName, INN: o.INN, KPP: o.KPP, OGRN: o.OGRN, LegalAddress: o.Address}
	}
	if t.ETP != nil {
		d.ETP = &etp223{Name: t.ETP.Name, URL: t.ETP.URL, ID: t.ETP.Code}
	}
	for _, a := range t.Attachments {
		w := attachment(t, a, docs[t.PurchaseNumber+"\n"+a.URL])
		d.Attachments = append(d.Attachments, doc223{GUID: w.ContentID, CreateDate: w.Date,
			FileName: a.FileName, Description: a.Description, URL: a.URL})
	}
	for _, l := range t.Lots {
		d.Lots = append(d.Lots, lot223(l, t.Plans))
	}
	name := fmt.Sprintf("purchaseNotice_%s_%d.xml", t.PurchaseNumber, t.Version)
	return encodeEIS(name, purchaseNotice{CreateDate: eisTime(t.PublishedAt), Data: d})
}

// lot223 returns a lot of a purchase notice. Its items carry no price.
// The lot names the item of the plan its notice links it to.
func lot223(l tenderbase.TenderLot, plans []tenderbase.PlanLink) lot223Wire {
	w := lot223Wire{OrdinalNumber: l.Number, Subject: l.Title, Currency: l.Currency, InitialSum: amount(l.MaxPrice)}
	for _, p := range plans {
		if plan, ordinal, ok := strings.Cut(p.PositionNumber, "-"); ok && p.Lot == l.Number {
			w.Plan = &lotPlanInfo{PlanRegistrationNumber: plan, PositionNumber: ordinal, LotPlanPosition: "COMMODITY"}
		}
	}
	for _, o := range l.Objects {
		w.Items = append(w.Items, lotItemWire{OKPD2Code: o.OKPD2Code, OKPD2Name: o.OKPD2Name, Unit: o.Unit,
			Quantity: amount(o.Quantity), Info: o.Name})
	}
	return w
}
