package demo

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// The demo's contracts as EIS XML: a 44-FZ <contract> in an <export>, a
// 223-FZ <contract> of one item. A 223-FZ registry entry says nothing of
// where the contract stands, so its status is not written.

// nsTypes and ns223Contract are the namespaces of the 44-FZ types and of the
// 223-FZ contracts.
const (
	nsTypes       = "http://zakupki.gov.ru/oos/types/1"
	ns223Contract = "http://zakupki.gov.ru/223fz/contract/1"
)

// contractStages is the currentContractStage of each status.
var contractStages = map[string]string{
	tenderbase.ContractExecuting:  "E",
	tenderbase.ContractCompleted:  "EC",
	tenderbase.ContractTerminated: "ET",
	tenderbase.ContractAnnulled:   "IN",
}

// contract44Wire is a 44-FZ <contract>.
type contract44Wire struct {
	XMLName        xml.Name         `xml:"http://zakupki.gov.ru/oos/types/1 contract"`
	SchemeVersion  string           `xml:"schemeVersion,attr"`
	RegNum         string           `xml:"regNum"`
	Number         string           `xml:"number,omitempty"`
	PublishDate    string           `xml:"publishDate"`
	SignDate       string           `xml:"signDate,omitempty"`
	VersionNumber  int              `xml:"versionNumber"`
	PurchaseNumber string           `xml:"foundation>fcsOrder>order>notificationNumber,omitempty"`
	Customer       contract44Party  `xml:"customer"`
	Subject        string           `xml:"contractSubject"`
	Price          string           `xml:"priceInfo>price"`
	Currency       string           `xml:"priceInfo>currency>code"`
	Start          string           `xml:"executionPeriod>startDate,omitempty"`
	End            string           `xml:"executionPeriod>endDate,omitempty"`
	Products       []contract44Item `xml:"products>product"`
	Suppliers      []supplierInfo44 `xml:"suppliersInfo>supplierInfo"`
	Href           string           `xml:"href,omitempty"`
	Stage          string           `xml:"currentContractStage,omitempty"`
}

type contract44Party struct {
	RegNum    string `xml:"regNum,omitempty"`
	FullName  string `xml:"fullName"`
	ShortName string `xml:"shortName,omitempty"`
	OGRN      string `xml:"OGRN,omitempty"`
	INN       string `xml:"INN"`
	KPP       string `xml:"KPP,omitempty"`
	Address   string `xml:"postAddress,omitempty"`
}

// supplierInfo44 is a supplier that is a Russian legal entity.
type supplierInfo44 struct {
	LegalEntityRF contract44Party `xml:"legalEntityRF"`
}

type contract44Item struct {
	Name      string `xml:"name"`
	OKPD2Code string `xml:"OKPD2>code"`
	OKPD2Name string `xml:"OKPD2>name"`
	Unit      string `xml:"OKEI>nationalName"`
	Price     string `xml:"price"`
	Quantity  string `xml:"quantity"`
	Sum       string `xml:"sum"`
}

// contract223Wire is a 223-FZ <contract> of one item.
type contract223Wire struct {
	XMLName    xml.Name        `xml:"http://zakupki.gov.ru/223fz/contract/1 contract"`
	CreateDate string          `xml:"header>createDateTime"`
	Data       contract223Item `xml:"body>item>contractData"`
}

type contract223Item struct {
	RegistrationNumber string             `xml:"registrationNumber"`
	ContractRegNumber  string             `xml:"contractRegNumber"`
	URL                string             `xml:"urlEIS,omitempty"`
	Customer           org223             `xml:"customer>mainInfo"`
	PublicationDate    string             `xml:"publicationDate"`
	Version            int                `xml:"version"`
	PurchaseNumber     string             `xml:"purchaseNoticeInfo>purchaseNoticeNumber,omitempty"`
	Name               string             `xml:"name,omitempty"`
	ContractDate       string             `xml:"contractDate,omitempty"`
	Subject            string             `xml:"subjectContract"`
	Suppliers          []supplier223      `xml:"supplierInfo"`
	Price              string             `xml:"price"`
	Currency           string             `xml:"currency>code"`
	Start              string             `xml:"startExecutionDate,omitempty"`
	End                string             `xml:"endExecutionDate,omitempty"`
	Positions          []contract223Place `xml:"contractPositions>contractPosition"`
}

type supplier223 struct {
	Name      string     `xml:"name"`
	ShortName string     `xml:"shortName,omitempty"`
	INN       string     `xml:"inn"`
	KPP       string     `xml:"kpp,omitempty"`
	OGRN      string     `xml:"ogrn,omitempty"`
	Address   address223 `xml:"address"`
}

// address223 is an address in parts; the demo's addresses are a post code,
// a city, a street and a house, in that order.
type address223 struct {
	PostCode string `xml:"postCode,omitempty"`
	City     string `xml:"city,omitempty"`
	Street   string `xml:"street,omitempty"`
	House    string `xml:"house,omitempty"`
}

type contract223Place struct {
	Name      string `xml:"name"`
	OKPD2Code string `xml:"okpd2>code"`
	OKPD2Name string `xml:"okpd2>name"`
	Unit      string `xml:"okei>name"`
	Quantity  string `xml:"qty"`
	UnitPrice string `xml:"unitPrice"`
}

// contractFile returns the registry entry of contract version c.
func contractFile(c *tenderbase.Contract) (File, error) {
	if c.Law == tenderbase.Law223 {
		return encodeEIS(fmt.Sprintf("contract223_%s_%d.xml", c.RegNumber, c.Version), contract223Doc(c))
	}
	return encodeEIS(fmt.Sprintf("contract_%s_%d.xml", c.RegNumber, c.Version), eisExport{Document: contract44Doc(c)})
}

func contract44Doc(c *tenderbase.Contract) *contract44Wire {
	w := &contract44Wire{
		SchemeVersion: "15.3", RegNum: c.RegNumber, Number: c.Number,
		PublishDate: eisTime(c.PublishedAt), SignDate: eisTime(c.SignedAt), VersionNumber: c.Version,
		PurchaseNumber: c.PurchaseNumber, Customer: party44(c.Customer), Subject: c.Subject,
		Price: amount(c.Price), Currency: c.Currency, Start: eisTime(c.StartsAt), End: eisTime(c.EndsAt),
		Href: c.URL, Stage: contractStages[c.Status],
	}
	for _, o := range c.Objects {
		w.Products = append(w.Products, contract44Item{Name: o.Name, OKPD2Code: o.OKPD2Code, OKPD2Name: o.OKPD2Name,
			Unit: o.Unit, Price: amount(o.Price), Quantity: amount(o.Quantity), Sum: amount(o.Sum)})
	}
	for _, s := range c.Suppliers {
		w.Suppliers = append(w.Suppliers, supplierInfo44{LegalEntityRF: party44(s)})
	}
	return w
}

func party44(p tenderbase.Party) contract44Party {
	return contract44Party{RegNum: p.RegNum, FullName: p.Name, ShortName: p.ShortName, OGRN: p.OGRN,
		INN: p.INN, KPP: p.KPP, Address: p.Address}
}

func contract223Doc(c *tenderbase.Contract) *contract223Wire {
	cu := c.Customer
	d := contract223Item{
		RegistrationNumber: c.RegNumber, ContractRegNumber: c.RegNumber, URL: c.URL,
		Customer: org223{FullName: cu.Name, ShortName: cu.ShortName, INN: cu.INN, KPP: cu.KPP,
			OGRN: cu.OGRN, LegalAddress: cu.Address},
		PublicationDate: eisTime(c.PublishedAt), Version: c.Version, PurchaseNumber: c.PurchaseNumber,
		Name: c.Number, ContractDate: eisTime(c.SignedAt), Subject: c.Subject,
		Price: amount(c.Price), Currency: c.Currency, Start: eisTime(c.StartsAt), End: eisTime(c.EndsAt),
	}
	for _, s := range c.Suppliers {
		d.Suppliers = append(d.Suppliers, supplier223{Name: s.Name, ShortName: s.ShortName, INN: s.INN,
			KPP: s.KPP, OGRN: s.OGRN, Address: splitAddress(s.Address)})
	}
	for _, o := range c.Objects {
		d.Positions = append(d.Positions, contract223Place{Name: o.Name, OKPD2Code: o.OKPD2Code,
			OKPD2Name: o.OKPD2Name, Unit: o.Unit, Quantity: amount(o.Quantity), UnitPrice: amount(o.Price)})
	}
	return &contract223Wire{CreateDate: eisTime(c.PublishedAt), Data: d}
}

// splitAddress splits "post code, city, street, house" into its parts; a
// longer address keeps the rest with the house.
func splitAddress(s string) address223 {
	p := strings.SplitN(s, ", ", 4)
	for len(p) < 4 {
		p = append(p, "")
	}
	return address223{PostCode: p[0], City: p[1], Street: p[2], House: p[3]}
}
