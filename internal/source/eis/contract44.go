package eis

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// contracts decodes the contracts of both laws. A 44-FZ <contract> sits in an
// <export> of the 44-FZ namespaces; a 223-FZ <contract> is its own root in a
// 223fz namespace. They share the local name, so the namespace tells them
// apart.
var contracts = map[string]documentFunc{"contract": decodeContract}

// decodeContract hands a <contract> to the reader of its law.
func decodeContract(d *xml.Decoder, start xml.StartElement, _ source) ([]tenderbase.Record, error) {
	if strings.Contains(start.Name.Space, "/223fz/") {
		return decodeContract223(d, start)
	}
	return decodeContracts44(d, start)
}

// decodeContracts44 decodes the <contract> that start opens and every
// <contract> after it in the same <export>: the registry exports of 94-FZ
// times hold many contracts in one file, and the schemes allow it since.
func decodeContracts44(d *xml.Decoder, start xml.StartElement) ([]tenderbase.Record, error) {
	return decodeEach(d, start, func(start xml.StartElement, n int) (tenderbase.Record, error) {
		var w contract44
		if err := d.DecodeElement(&w, &start); err != nil {
			return nil, contractDecodeError("contract", n, err)
		}
		return w.record(n)
	})
}

// decodeEach decodes, with one, the element start opens and every element
// of its name after it in the same <export>; n counts them from 1. An error
// of one rejects the file as one returns it.
func decodeEach(d *xml.Decoder, start xml.StartElement, one func(start xml.StartElement, n int) (tenderbase.Record, error)) ([]tenderbase.Record, error) {
	var recs []tenderbase.Record
	name := start.Name.Local
	for n := 1; ; n++ {
		rec, err := one(start, n)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
		var more bool
		if start, more, err = nextSibling(d, name); err != nil {
			return nil, contractDecodeError(name, n+1, err)
		}
		if !more {
			return recs, nil
		}
	}
}

// nextSibling returns the next element named name of the export, or false
// at the end of the file. An <export> holds documents of one kind only, so
// any other element is skipped rather than read as one.
func nextSibling(d *xml.Decoder, name string) (xml.StartElement, bool, error) {
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return xml.StartElement{}, false, nil
		}
		if err != nil {
			return xml.StartElement{}, false, err
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if start.Name.Local == name {
			return start, true, nil
		}
		if err := d.Skip(); err != nil {
			return xml.StartElement{}, false, err
		}
	}
}

// contractDecodeError keeps a syntax error as it is, so that the caller can
// say where the XML breaks, and makes any other decoding error (a price that
// is not a number) a rejection of the n-th document named name of the file.
func contractDecodeError(name string, n int, err error) error {
	var syntax *xml.SyntaxError
	if errors.As(err, &syntax) {
		return err
	}
	return tenderbase.Errorf(tenderbase.EINVALID, "%s %d of the file: %v", name, n, err)
}

// contract44 is a 44-FZ <contract>: the registry entry of a concluded
// contract. It reads both shapes: the 94-FZ registry export (2011-2013:
// price and currency at the top, flat suppliers, OKDP products) and the
// schemes since 2015 (priceInfo, typed suppliers or suppliersInfo, OKPD2
// or KTRU products).
type contract44 struct {
	RegNum        string               `xml:"regNum"`
	VersionNumber int                  `xml:"versionNumber"`
	Number        string               `xml:"number"`
	Subject       string               `xml:"contractSubject"`
	SignDate      eisTime              `xml:"signDate"`
	PublishDate   eisTime              `xml:"publishDate"`
	Foundation    contract44Foundation `xml:"foundation"`
	Customer      contract44Person     `xml:"customer"`
	Price         float64              `xml:"price"`
	Currency      string               `xml:"currency>code"`
	PriceInfo     contract44PriceInfo  `xml:"priceInfo"`
	Execution     contract44Month      `xml:"execution"`
	Period        contract44Period     `xml:"executionPeriod"`
	Products      []contract44Product  `xml:"products>product"`
	Suppliers     []contract44Supplier `xml:"suppliers>supplier"`
	SuppliersInfo []contract44Supplier `xml:"suppliersInfo>supplierInfo"`
	Href          string               `xml:"href"`
	ContractStage string               `xml:"currentContractStage"`
}

// contract44Foundation names the procurement a contract came from. The
// purchase number sits under order in every scheme; fcsOrder and oosOrder
// wrap it since 2015, and other (a contract without an EIS procurement)
// may carry a number of some other document.
type contract44Foundation struct {
	Order    contract44Order `xml:"order"`
	FcsOrder contract44Order `xml:"fcsOrder>order"`
	OosOrder contract44Order `xml:"oosOrder>order"`
	Other    contract44Order `xml:"other"`
}

type contract44Order struct {
	NotificationNumber string `xml:"notificationNumber"`
	PurchaseNumber     string `xml:"purchaseNumber"`
}

type contract44PriceInfo struct {
	Price    float64 `xml:"price"`
	Currency string  `xml:"currency>code"`
}

// contract44Month is the month and year by which a 94-FZ contract is to be
// performed.
type contract44Month struct {
	Month int `xml:"month"`
	Year  int `xml:"year"`
}

type contract44Period struct {
	StartDate eisTime `xml:"startDate"`
	EndDate   eisTime `xml:"endDate"`
}

// contract44Product is one object of a contract. OKPD2 sits on the product,
// or under KTRU when the object is classified by the catalogue; contracts of
// 2014-2016 give OKPD, the classifier before OKPD2, and 94-FZ contracts
// OKDP, the one before OKPD.
type contract44Product struct {
	Name     string         `xml:"name"`
	OKPD2    contract44Ref  `xml:"OKPD2"`
	OKPD     contract44Ref  `xml:"OKPD"`
	OKDP     contract44Ref  `xml:"OKDP"`
	KTRU     contract44KTRU `xml:"KTRU"`
	Unit     contract44Ref  `xml:"OKEI"`
	Price    float64        `xml:"price"`
	Quantity float64        `xml:"quantity"`
	Sum      float64        `xml:"sum"`
}

// contract44Ref is a classifier reference: OKPD2, KTRU, OKEI.
type contract44Ref struct {
	Code         string `xml:"code"`
	Name         string `xml:"name"`
	NationalName string `xml:"nationalName"`
	FullName     string `xml:"fullName"`
}

// contract44KTRU is a position of the catalogue of goods, works and services,
// with the OKPD2 code it refines.
type contract44KTRU struct {
	Code  string        `xml:"code"`
	Name  string        `xml:"name"`
	OKPD2 contract44Ref `xml:"OKPD2"`
}

// record adapts the n-th contract of a file to the domain.
func (w *contract44) record(n int) (*tenderbase.Contract, error) {
	regNum := cleanText(w.RegNum)
	if regNum == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "contract %d of the file has no registry number (regNum)", n)
	}
	customer := w.Customer.party()
	c := &tenderbase.Contract{
		RegNumber:      regNum,
		Law:            tenderbase.Law44,
		Version:        w.VersionNumber,
		PurchaseNumber: w.Foundation.purchaseNumber(),
		Number:         cleanText(w.Number),
		Customer:       customer,
		Suppliers:      w.suppliers(),
		Region:         regionOf(customer.KPP, customer.INN),
		Price:          w.Price,
		Currency:       currencyOr(firstOf(w.Currency, w.PriceInfo.Currency)),
		SignedAt:       w.SignDate.Time,
		PublishedAt:    w.PublishDate.Time,
		StartsAt:       w.Period.StartDate.Time,
		EndsAt:         w.Period.EndDate.Time,
		Status:         contract44Stages[cleanText(w.ContractStage)],
		Objects:        w.objects(),
		URL:            cleanText(w.Href),
	}
	w.fillGaps(c)
	return c, nil
}

// fillGaps fills what the 94-FZ shape says elsewhere or not at all: the price
// sits in priceInfo since 2015, a subject is only there since 2015 (before,
// the objects' names say it), the end of performance was a month, and the
// registry card's address was not given.
func (w *contract44) fillGaps(c *tenderbase.Contract) {
	if c.Price == 0 {
		c.Price = w.PriceInfo.Price
	}
	c.Subject = cleanText(w.Subject)
	if c.Subject == "" {
		c.Subject = objectNames(c.Objects)
	}
	if c.EndsAt.IsZero() {
		c.EndsAt = contractMonthEnd(w.Execution.Year, w.Execution.Month)
	}
	if c.URL == "" {
		c.URL = "https://zakupki.gov.ru/epz/contract/contractCard/common-info.html?reestrNumber=" + c.RegNumber
	}
}

// contract44Stages maps currentContractStage to the record's status.
var contract44Stages = map[string]string{
	"E":  tenderbase.ContractExecuting,
	"EC": tenderbase.ContractCompleted,
	"ET": tenderbase.ContractTerminated,
	"IN": tenderbase.ContractAnnulled,
}

// purchaseNumber returns the number of the procurement the contract came
// from. The number under other is kept only when it has the shape of a
// purchase number (19 digits): there it is often a document number instead.
func (f contract44Foundation) purchaseNumber() string {
	for _, o := range []contract44Order{f.FcsOrder, f.OosOrder, f.Order} {
		if n := firstOf(o.NotificationNumber, o.PurchaseNumber); n != "" {
			return n
		}
	}
	if n := cleanText(f.Other.NotificationNumber); len(n) == 19 && allDigits(n) {
		return n
	}
	return ""
}

// suppliers returns the suppliers of either list the schemes used.
func (w *contract44) suppliers() []tenderbase.Party {
	var ps []tenderbase.Party
	for _, s := range append(w.Suppliers, w.SuppliersInfo...) {
		if p := s.party(); p != (tenderbase.Party{}) {
			ps = append(ps, p)
		}
	}
	return ps
}

// objects returns the products at contract prices.
func (w *contract44) objects() []tenderbase.PurchaseObject {
	var objs []tenderbase.PurchaseObject
	for _, p := range w.Products {
		objs = append(objs, p.object())
	}
	return objs
}

// object adapts a product. A KTRU code is an OKPD2 code with a suffix, so
// it gives the OKPD2 code when no OKPD2 is named. An OKDP code, of an older
// classifier, is kept as the product gives it, in its own field: it is no
// OKPD2 code.
func (p contract44Product) object() tenderbase.PurchaseObject {
	okpd2 := p.OKPD2
	if okpd2.Code == "" {
		okpd2 = p.KTRU.OKPD2
	}
	if okpd2.Code == "" && p.KTRU.Code != "" {
		okpd2.Code, _, _ = strings.Cut(p.KTRU.Code, "-")
	}
	return tenderbase.PurchaseObject{
		OKPD2Code: cleanText(okpd2.Code),
		OKPD2Name: cleanText(okpd2.Name),
		OKPDCode:  cleanText(p.OKPD.Code),
		OKPDName:  cleanText(p.OKPD.Name),
		OKDPCode:  cleanText(p.OKDP.Code),
		OKDPName:  cleanText(p.OKDP.Name),
		KTRUCode:  cleanText(p.KTRU.Code),
		Name:      firstOf(p.Name, p.KTRU.Name, okpd2.Name, p.OKPD.Name, p.OKDP.Name),
		Quantity:  p.Quantity,
		Unit:      firstOf(p.Unit.NationalName, p.Unit.Name, p.Unit.FullName),
		Price:     p.Price,
		Sum:       p.Sum,
	}
}

// objectNames joins the distinct names of the objects, for a contract whose
// scheme had no subject.
func objectNames(objs []tenderbase.PurchaseObject) string {
	var names []string
	seen := map[string]bool{}
	for _, o := range objs {
		if o.Name != "" && !seen[o.Name] {
			seen[o.Name] = true
			names = append(names, o.Name)
		}
	}
	return strings.Join(names, "; ")
}

// contract44Person is an organization or a person as a 44-FZ contract names
// it: the customer, a 94-FZ supplier, or one variant of a supplier of the
// schemes since 2015. The names of the fields changed case over the years
// (inn, INN), so both are read.
type contract44Person struct {
	RegNum     string    `xml:"regNum"`
	FullName   string    `xml:"fullName"`
	OrgName    string    `xml:"organizationName"`
	ShortName  string    `xml:"shortName"`
	FirmName   string    `xml:"firmName"`
	INN        string    `xml:"INN"`
	Inn        string    `xml:"inn"`
	KPP        string    `xml:"KPP"`
	Kpp        string    `xml:"kpp"`
	OGRN       string    `xml:"OGRN"`
	OGRNIP     string    `xml:"OGRNIP"`
	LastName   string    `xml:"lastName"`
	FirstName  string    `xml:"firstName"`
	MiddleName string    `xml:"middleName"`
	Address    string    `xml:"address"`
	Factual    string    `xml:"factualAddress"`
	Post       string    `xml:"postAddress"`
	Type       string    `xml:"participantType"`
	Contact    contact44 `xml:"contactInfo"`
	Phone      string    `xml:"contactPhone"`
	Email      string    `xml:"contactEMail"`
	Fax        string    `xml:"contactFax"`
	// The blocks below nest the registration details since 2015.
	EGRUL     *contract44Person `xml:"EGRULInfo"`
	EGRIP     *contract44Person `xml:"EGRIPInfo"`
	TaxBodies *contract44Person `xml:"registerInRFTaxBodies"`
	Stay      *contract44Person `xml:"placeOfStayInRegCountry"`
	StayRF    *contract44Person `xml:"placeOfStayInRF"`
}

type contract44Name struct {
	LastName   string `xml:"lastName"`
	FirstName  string `xml:"firstName"`
	MiddleName string `xml:"middleName"`
}

// contact44 is the contact block of a party: a person's name, or, for a
// legal entity in the 2020 protocol parts, its postal address, contact
// person, e-mail and phone.
type contact44 struct {
	contract44Name
	OrgPostAddress string         `xml:"orgPostAddress"`
	Person         contract44Name `xml:"contactPersonInfo"`
	Email          string         `xml:"contactEMail"`
	Phone          string         `xml:"contactPhone"`
}

// contract44Supplier is a supplier. The 94-FZ export puts the fields on the
// supplier itself; the schemes since 2015 wrap them in one block per kind
// of supplier.
type contract44Supplier struct {
	contract44Person
	LegalEntityRF      *contract44Person `xml:"legalEntityRF"`
	LegalEntityForeign *contract44Person `xml:"legalEntityForeignState"`
	PersonRF           *contract44Person `xml:"individualPersonRF"`
	PersonRFCulture    *contract44Person `xml:"individualPersonRFisCulture"`
	Entrepreneur       *contract44Person `xml:"individualPersonRFIndEntr"`
	EntrepreneurCultr  *contract44Person `xml:"individualPersonRFIndEntrisCulture"`
	PersonForeign      *contract44Person `xml:"individualPersonForeignState"`
}

// party returns the supplier, whichever block names it.
func (s *contract44Supplier) party() tenderbase.Party {
	p := s.contract44Person.party()
	for _, v := range []*contract44Person{s.LegalEntityRF, s.LegalEntityForeign, s.PersonRF,
		s.PersonRFCulture, s.Entrepreneur, s.EntrepreneurCultr, s.PersonForeign} {
		if v != nil {
			p = p.FillFrom(v.party())
		}
	}
	return p
}

// party returns the organization or person, completed from its nested
// registration blocks.
func (p *contract44Person) party() tenderbase.Party {
	own := tenderbase.Party{
		INN:       firstOf(p.INN, p.Inn),
		KPP:       firstOf(p.KPP, p.Kpp),
		OGRN:      firstOf(p.OGRN, p.OGRNIP),
		RegNum:    cleanText(p.RegNum),
		Name:      firstOf(p.FullName, p.OrgName, p.personName()),
		ShortName: firstOf(p.ShortName, p.FirmName),
		Address:   firstOf(p.Address, p.Factual, p.Post),
		Contact:   p.contact(),
	}
	for _, n := range []*contract44Person{p.EGRUL, p.EGRIP, p.TaxBodies, p.Stay, p.StayRF} {
		if n != nil {
			own = own.FillFrom(n.party())
		}
	}
	return own
}

// contact returns the contact block: the phone, e-mail and fax beside the
// party or inside its contactInfo, and the contact person named there. A
// person who is the party itself (a 94-FZ supplier who is a person) is not
// repeated as the contact person.
func (p *contract44Person) contact() tenderbase.Contact {
	c := p.Contact
	person := firstOf(personName(c.Person.LastName, c.Person.FirstName, c.Person.MiddleName),
		personName(c.LastName, c.FirstName, c.MiddleName))
	if person == p.personName() {
		person = ""
	}
	return tenderbase.Contact{
		Person: person,
		Email:  firstOf(p.Email, c.Email),
		Phone:  usablePhone(firstOf(p.Phone, c.Phone)),
		Fax:    usablePhone(cleanText(p.Fax)),
	}
}

// usablePhone returns phone, or "" for the number of zeros some
// participants give instead of one (70000000000).
func usablePhone(phone string) string {
	d := tenderbase.PhoneDigits(phone)
	if d == "" || strings.Trim(d[1:], "0") == "" {
		return ""
	}
	return phone
}

// personName returns the name of a person. The 94-FZ export names a supplier
// who is a person (participantType other than U, a legal entity) only in
// its contact block.
func (p *contract44Person) personName() string {
	if n := personName(p.LastName, p.FirstName, p.MiddleName); n != "" {
		return n
	}
	if p.Type == "" || p.Type == "U" {
		return ""
	}
	return personName(p.Contact.LastName, p.Contact.FirstName, p.Contact.MiddleName)
}

// contractMonthEnd returns the last day of a month, the end of performance
// of a 94-FZ contract, which names only the month; zero when not given.
func contractMonthEnd(year, month int) time.Time {
	if year <= 0 || month < 1 || month > 12 {
		return time.Time{}
	}
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, moscowTime)
}
