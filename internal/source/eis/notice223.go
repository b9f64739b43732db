package eis

import (
	"encoding/xml"
	"slices"
	"strconv"

	"github.com/tenderbase/tenderbase"
)

// notices223 decodes the 223-FZ purchase notices: purchaseNotice,
// purchaseNoticeZK, purchaseNoticeAE, purchaseNoticeOK... Each is its own
// root, and each item of its body is one notice, in an element named after
// the document with "Data" appended.
var notices223 = map[string]documentFunc{
	"purchaseNotice*": decodePurchaseNotice,
}

// purchaseNoticeWire is a 223-FZ purchase notice document.
type purchaseNoticeWire = items223[purchaseNoticeData]

// purchaseNoticeData is one notice: a purchaseNotice*Data element.
type purchaseNoticeData struct {
	XMLName                 xml.Name
	RegistrationNumber      string         `xml:"registrationNumber"`
	Name                    string         `xml:"name"`
	URLEIS                  string         `xml:"urlEIS"`
	URLOOS                  string         `xml:"urlOOS"`
	Customer                org223Wire     `xml:"customer>mainInfo"`
	Placer                  org223Wire     `xml:"placer>mainInfo"`
	MethodCode              string         `xml:"purchaseMethodCode"`
	MethodName              string         `xml:"purchaseCodeName"`
	Contact                 contact223Wire `xml:"contact"`
	PublicationDateTime     eisTime        `xml:"publicationDateTime"`
	CreateDateTime          eisTime        `xml:"createDateTime"`
	DeliveryStart           eisTime        `xml:"documentationDelivery>deliveryStartDateTime"`
	SubmissionClose         eisTime        `xml:"submissionCloseDateTime"`
	AuctionTime             eisTime        `xml:"auctionTime"`
	Version                 string         `xml:"version"`
	ModificationDescription string         `xml:"modificationDescription"`
	Attachments             []document223  `xml:"attachments>document"`
	Attachements            []document223  `xml:"attachements>document"` // spelt so in TFF 2.0
	ETP                     etp223Wire     `xml:"electronicPlaceInfo"`
	Lots                    []lot223Wire   `xml:"lots>lot"`
}

// org223Wire is an organization as a 223-FZ document names it.
type org223Wire struct {
	FullName      string `xml:"fullName"`
	ShortName     string `xml:"shortName"`
	INN           string `xml:"inn"`
	KPP           string `xml:"kpp"`
	OGRN          string `xml:"ogrn"`
	LegalAddress  string `xml:"legalAddress"`
	PostalAddress string `xml:"postalAddress"`
}

func (o org223Wire) party() tenderbase.Party {
	return tenderbase.Party{
		INN:       cleanText(o.INN),
		KPP:       cleanText(o.KPP),
		OGRN:      cleanText(o.OGRN),
		Name:      firstOf(cleanText(o.FullName), cleanText(o.ShortName)),
		ShortName: cleanText(o.ShortName),
		Address:   firstOf(cleanText(o.LegalAddress), cleanText(o.PostalAddress)),
	}
}

// contact223Wire is the contact person of a 223-FZ notice.
type contact223Wire struct {
	personWire
	Phone string `xml:"phone"`
	Fax   string `xml:"fax"`
	Email string `xml:"email"`
}

// etp223Wire is the electronic platform of a 223-FZ notice.
type etp223Wire struct {
	ID   string `xml:"electronicPlaceId"`
	Name string `xml:"name"`
	URL  string `xml:"url"`
}

// document223 is a file published with a 223-FZ notice.
type document223 struct {
	GUID        string  `xml:"guid"`
	Date        eisTime `xml:"createDateTime"`
	FileName    string  `xml:"fileName"`
	Description string  `xml:"description"`
	URL         string  `xml:"url"`
}

// lot223Wire is a lot: its fields are in lotData since TFF 3, in the lot
// itself before.
type lot223Wire struct {
	OrdinalNumber string `xml:"ordinalNumber"`
	lot223Fields
	Data *lot223Fields `xml:"lotData"`
}

// lot223Fields are the fields of a lot.
type lot223Fields struct {
	Subject    string       `xml:"subject"`
	Currency   string       `xml:"currency>code"`
	InitialSum string       `xml:"initialSum"`
	Items      []lotItem223 `xml:"lotItems>lotItem"`
	// PlanInfo names the position of the purchase plan the lot was
	// published from; a joint lot names one for each of its customers.
	PlanInfo   *planInfo223  `xml:"lotPlanInfo"`
	JointPlans []planInfo223 `xml:"jointLotData>lotCustomers>lotCustomer>lotPlanInfo"`
}

// planInfo223 names a position of a 223-FZ purchase plan: the plan's
// registration number and the position's ordinal number in it.
type planInfo223 struct {
	PlanRegistrationNumber string `xml:"planRegistrationNumber"`
	PositionNumber         string `xml:"positionNumber"`
}

// planLinks returns the positions of plans the lot was published from: the
// lot's own (in lotData since TFF 3, in the lot itself before), then its
// customers'. A position of a plan whose registration number is not given
// cannot be named and is left out.
func (l lot223Wire) planLinks(lot int) []tenderbase.PlanLink {
	var infos []planInfo223
	for _, own := range []*planInfo223{l.PlanInfo, l.dataPlanInfo()} {
		if own != nil {
			infos = append(infos, *own)
		}
	}
	infos = append(infos, l.JointPlans...)
	if l.Data != nil {
		infos = append(infos, l.Data.JointPlans...)
	}
	var links []tenderbase.PlanLink
	for _, info := range infos {
		plan := cleanText(info.PlanRegistrationNumber)
		ordinal, err := strconv.Atoi(cleanText(info.PositionNumber))
		if plan == "" || err != nil || ordinal <= 0 {
			continue
		}
		link := tenderbase.PlanLink{PositionNumber: tenderbase.PlanPositionNumber223(plan, ordinal), Lot: lot}
		if !slices.Contains(links, link) {
			links = append(links, link)
		}
	}
	return links
}

// dataPlanInfo returns the position named in lotData, if any.
func (l lot223Wire) dataPlanInfo() *planInfo223 {
	if l.Data == nil {
		return nil
	}
	return l.Data.PlanInfo
}

// lotItem223 is an item of a lot, classified by OKPD2 (OKDP in old notices).
type lotItem223 struct {
	OKPD2          codeNameWire `xml:"okpd2"`
	OKDP           codeNameWire `xml:"okdp"`
	Unit           string       `xml:"okei>name"`
	Quantity       string       `xml:"qty"`
	AdditionalInfo string       `xml:"additionalInfo"`
}

// decodePurchaseNotice decodes a 223-FZ notice into a tender version and a
// doc record per attachment, for each item of the document.
func decodePurchaseNotice(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w purchaseNoticeWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	var recs []tenderbase.Record
	for _, data := range w.data() {
		t, err := data.tender()
		if err != nil {
			return nil, err
		}
		recs = append(recs, noticeRecords(t, data.files())...)
	}
	if len(recs) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "purchase notice holds no notice data")
	}
	return recs, nil
}

// tender adapts one notice to a tender version.
func (n *purchaseNoticeData) tender() (*tenderbase.Tender, error) {
	version, err := parseVersion(n.Version, 1)
	if err != nil {
		return nil, err
	}
	t := &tenderbase.Tender{
		PurchaseNumber:       cleanText(n.RegistrationNumber),
		Law:                  tenderbase.Law223,
		Version:              version,
		Title:                cleanText(n.Name),
		Status:               tenderbase.TenderActive,
		PlacingMethod:        cleanText(n.MethodName),
		PlacingMethodCode:    cleanText(n.MethodCode),
		Customer:             n.customer(),
		PublishedAt:          firstTime(n.PublicationDateTime.Time, n.CreateDateTime.Time),
		ApplicationsStart:    n.DeliveryStart.Time,
		ApplicationsDeadline: n.SubmissionClose.Time,
		BiddingDate:          n.AuctionTime.Time,
		ETP:                  etpWire{Code: n.ETP.ID, Name: n.ETP.Name, URL: n.ETP.URL}.etp(),
		Contact:              n.contact(),
		URL:                  firstOf(cleanText(n.URLEIS), cleanText(n.URLOOS)),
	}
	n.addLots(t)
	t.Organizer = placerOrganizer(n.Placer.party(), t.Customer)
	finishTender(t, n.ModificationDescription, "")
	return t, checkNotice(t)
}

// customer returns the customer, or the placer when no customer is named.
func (n *purchaseNoticeData) customer() tenderbase.Party {
	if p := n.Customer.party(); p.INN != "" || p.Name != "" {
		return p
	}
	return n.Placer.party()
}

func (n *purchaseNoticeData) contact() tenderbase.Contact {
	c := n.Contact
	return tenderbase.Contact{
		Person: c.name(),
		Email:  cleanText(c.Email),
		Phone:  cleanText(c.Phone),
		Fax:    cleanText(c.Fax),
	}
}

// addLots sets the lots and the maximum price: the exact sum of the lots'
// initial sums per currency (setLotPrices).
func (n *purchaseNoticeData) addLots(t *tenderbase.Tender) {
	for i, l := range n.Lots {
		f := l.lot223Fields
		if l.Data != nil {
			f = *l.Data
		}
		lot := tenderbase.TenderLot{
			Number:   i + 1,
			Title:    firstOf(cleanText(f.Subject), t.Title),
			MaxPrice: parseAmount(f.InitialSum),
			Currency: currencyOr(f.Currency),
			Objects:  f.objects(),
		}
		if number, err := parseVersion(l.OrdinalNumber, 0); err == nil && number > 0 {
			lot.Number = number
		}
		t.Lots = append(t.Lots, lot)
		t.Plans = append(t.Plans, l.planLinks(lot.Number)...)
	}
	setLotPrices(t)
}

// objects returns the items of the lot. An item has no name of its own; its
// class's name stands for it, or its description, or the lot's subject.
func (f lot223Fields) objects() []tenderbase.PurchaseObject {
	var objects []tenderbase.PurchaseObject
	for _, item := range f.Items {
		objects = append(objects, tenderbase.PurchaseObject{
			OKPD2Code: cleanText(item.OKPD2.Code),
			OKPD2Name: cleanText(item.OKPD2.Name),
			OKDPCode:  cleanText(item.OKDP.Code),
			OKDPName:  cleanText(item.OKDP.Name),
			Name: firstOf(cleanText(item.OKPD2.Name), cleanText(item.OKDP.Name),
				cleanText(item.AdditionalInfo), cleanText(f.Subject)),
			Quantity: parseAmount(item.Quantity),
			Unit:     cleanText(item.Unit),
		})
	}
	return objects
}

// files returns the notice's files, from either spelling of the list.
func (n *purchaseNoticeData) files() []noticeFile {
	var files []noticeFile
	for _, doc := range append(n.Attachments, n.Attachements...) {
		files = append(files, noticeFile{
			attachment: tenderbase.Attachment{
				FileName:    cleanText(doc.FileName),
				Description: cleanText(doc.Description),
				URL:         cleanText(doc.URL),
			},
			id:   cleanText(doc.GUID),
			date: doc.Date.Time,
		})
	}
	return files
}

// elementName names the element, which names the kind of document.
func (n purchaseNoticeData) elementName() string { return n.XMLName.Local }
