package eis

import (
	"encoding/xml"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// contract223 is a 223-FZ <contract>: one or more items, each the registry
// entry of a contract in one version. Daily files of a region gather the
// day's items in one document.
type contract223 struct {
	Items []contract223Data `xml:"body>item>contractData"`
}

// contract223Data is one item. registrationNumber numbers this version's
// information about the contract (a suffix counts the documents filed
// with it); contractRegNumber numbers the contract itself, for every
// version, so it is the key.
type contract223Data struct {
	RegistrationNumber string                `xml:"registrationNumber"`
	ContractRegNumber  string                `xml:"contractRegNumber"`
	Version            int                   `xml:"version"`
	Name               string                `xml:"name"`
	Subject            string                `xml:"subjectContract"`
	Customer           org223Wire            `xml:"customer>mainInfo"`
	PublicationDate    eisTime               `xml:"publicationDate"`
	ContractDate       eisTime               `xml:"contractDate"`
	PurchaseNumber     string                `xml:"purchaseNoticeInfo>purchaseNoticeNumber"`
	Notice44Number     string                `xml:"notice44Num"`
	Suppliers          []contract223Supplier `xml:"supplierInfo"`
	Price              float64               `xml:"price"`
	Currency           string                `xml:"currency>code"`
	StartDate          eisTime               `xml:"startExecutionDate"`
	EndDate            eisTime               `xml:"endExecutionDate"`
	Positions          []contract223Position `xml:"contractPositions>contractPosition"`
	URLEIS             string                `xml:"urlEIS"`
	URLOOS             string                `xml:"urlOOS"`
}

type contract223Supplier struct {
	Name      string             `xml:"name"`
	ShortName string             `xml:"shortName"`
	INN       string             `xml:"inn"`
	KPP       string             `xml:"kpp"`
	OGRN      string             `xml:"ogrn"`
	Address   contract223Address `xml:"address"`
}

// contract223Address is a supplier's address, in parts. Older schemes give a
// part as text, newer ones as a fullName or a name beside a code. The
// supplier's phone is given with the address.
type contract223Address struct {
	Phone      string           `xml:"phone"`
	PostCode   string           `xml:"postCode"`
	Region     contract223Place `xml:"region"`
	City       contract223Place `xml:"city"`
	Settlement contract223Place `xml:"settlement"`
	Street     contract223Place `xml:"street"`
	House      string           `xml:"house"`
	Building   string           `xml:"building"`
	Office     string           `xml:"office"`
}

type contract223Place struct {
	Text     string `xml:",chardata"`
	Name     string `xml:"name"`
	FullName string `xml:"fullName"`
}

// contract223Position is one position of a contract. Positions of contracts
// before 2016 are classified by OKDP, which is no OKPD2 and is kept in its
// own field.
type contract223Position struct {
	Name      string        `xml:"name"`
	OKPD2     contract44Ref `xml:"okpd2"`
	OKDP      contract44Ref `xml:"okdp"`
	Unit      contract44Ref `xml:"okei"`
	Quantity  float64       `xml:"qty"`
	UnitPrice float64       `xml:"unitPrice"`
}

// decodeContract223 decodes the document that start opens: one Contract per
// item.
func decodeContract223(d *xml.Decoder, start xml.StartElement) ([]tenderbase.Record, error) {
	var w contract223
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, contractDecodeError("contract", 1, err)
	}
	if len(w.Items) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "223-FZ <contract> holds no item with contractData")
	}
	recs := make([]tenderbase.Record, 0, len(w.Items))
	for i := range w.Items {
		rec, err := w.Items[i].record(i + 1)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// record adapts the n-th item of a file to the domain. The status is left
// out: the item's status tells whether this information is published, not
// where the contract stands.
func (w *contract223Data) record(n int) (*tenderbase.Contract, error) {
	regNum := firstOf(w.ContractRegNumber, w.RegistrationNumber)
	if regNum == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "contract item %d of the file has no registration number (contractRegNumber, registrationNumber)", n)
	}
	c := &tenderbase.Contract{
		RegNumber:      regNum,
		Law:            tenderbase.Law223,
		Version:        w.Version,
		PurchaseNumber: firstOf(w.PurchaseNumber, w.Notice44Number),
		Number:         cleanText(w.Name),
		Subject:        cleanText(w.Subject),
		Customer:       w.Customer.party(),
		Suppliers:      w.suppliers(),
		Region:         regionOf(cleanText(w.Customer.KPP), cleanText(w.Customer.INN)),
		Price:          w.Price,
		Currency:       currencyOr(w.Currency),
		SignedAt:       w.ContractDate.Time,
		PublishedAt:    w.PublicationDate.Time,
		StartsAt:       w.StartDate.Time,
		EndsAt:         w.EndDate.Time,
		Objects:        w.objects(),
		URL:            firstOf(w.URLEIS, w.URLOOS),
	}
	return c, nil
}

func (w *contract223Data) suppliers() []tenderbase.Party {
	var ps []tenderbase.Party
	for _, s := range w.Suppliers {
		ps = append(ps, tenderbase.Party{
			INN:       cleanText(s.INN),
			KPP:       cleanText(s.KPP),
			OGRN:      cleanText(s.OGRN),
			Name:      cleanText(s.Name),
			ShortName: cleanText(s.ShortName),
			Address:   s.Address.String(),
			Contact:   tenderbase.Contact{Phone: usablePhone(cleanText(s.Address.Phone))},
		})
	}
	return ps
}

// String joins the parts of the address, from the post code to the office.
func (a contract223Address) String() string {
	var parts []string
	for _, p := range []string{a.PostCode, a.Region.String(), a.City.String(), a.Settlement.String(),
		a.Street.String(), a.House, a.Building, a.Office} {
		if p = cleanText(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// String returns the name of the place, whichever way it is given.
func (p contract223Place) String() string { return firstOf(p.FullName, p.Name, p.Text) }

func (w *contract223Data) objects() []tenderbase.PurchaseObject {
	var objs []tenderbase.PurchaseObject
	for _, p := range w.Positions {
		objs = append(objs, tenderbase.PurchaseObject{
			OKPD2Code: cleanText(p.OKPD2.Code),
			OKPD2Name: cleanText(p.OKPD2.Name),
			OKDPCode:  cleanText(p.OKDP.Code),
			OKDPName:  cleanText(p.OKDP.Name),
			Name:      firstOf(p.Name, p.OKPD2.Name, p.OKDP.Name),
			Quantity:  p.Quantity,
			Unit:      cleanText(p.Unit.Name),
			Price:     p.UnitPrice,
		})
	}
	return objs
}
