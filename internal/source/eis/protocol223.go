package eis

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// protocols223 decodes the 223-FZ protocols: purchaseProtocol and its
// kinds (PAEP, ZK, OSZ, SummingupZKESMBO...). Like a notice, each is its own
// root, and each item of its body is one protocol, in an element named after
// the document with "Data" appended.
var protocols223 = map[string]documentFunc{
	"purchaseProtocol*": decodePurchaseProtocol,
}

// purchaseProtocolWire is a 223-FZ protocol document.
type purchaseProtocolWire = items223[purchaseProtocolData]

// purchaseProtocolData is one protocol: a purchaseProtocol*Data element.
type purchaseProtocolData struct {
	XMLName            xml.Name
	GUID               string        `xml:"guid"`
	RegistrationNumber string        `xml:"registrationNumber"`
	NoticeNumber       string        `xml:"purchaseInfo>purchaseNoticeNumber"`
	URLEIS             string        `xml:"urlEIS"`
	URLOOS             string        `xml:"urlOOS"`
	Customer           org223Wire    `xml:"customer>mainInfo"`
	Publication        eisTime       `xml:"publicationDateTime"`
	Created            eisTime       `xml:"createDateTime"`
	ProcedureDate      eisTime       `xml:"procedureDate"`
	SignDate           eisTime       `xml:"protocolSignDate"`
	Version            string        `xml:"version"`
	Cancellation       string        `xml:"purchaseCancellationReason"`
	Attachments        []document223 `xml:"attachments>document"`
	Lots               []lotApps223  `xml:"lotApplicationsList>protocolLotApplications"`
	MissedLots         []lotApps223  `xml:"lotApplicationsList>protocolLotApplication"`
	SingleLot          *lotApps223   `xml:"lotApplications"`
}

// lotApps223 is one lot of a protocol with its applications. Since TFF 3 the
// lot is described in a lot element; the PAEP protocols of TFF 2 give its
// number on the list itself.
type lotApps223 struct {
	OrdinalNumber string `xml:"ordinalNumber"`
	Lot           struct {
		OrdinalNumber string `xml:"ordinalNumber"`
	} `xml:"lot"`
	Applications []application223 `xml:"application"`
}

// application223 is one application: its number, the supplier, its price,
// and its place.
type application223 struct {
	Number   string `xml:"applicationNumber"`
	Supplier struct {
		Name      string `xml:"name"`
		ShortName string `xml:"shortName"`
		INN       string `xml:"inn"`
		KPP       string `xml:"kpp"`
		OGRN      string `xml:"ogrn"`
		Address   string `xml:"address"`
	} `xml:"supplierInfo"`
	// A participant that is not a Russian resident is described apart.
	NonResident struct {
		Name    string `xml:"name"`
		Info    string `xml:"info"`
		Address string `xml:"address"`
	} `xml:"nonResidentInfo"`
	Price           string `xml:"price"`
	LastPrice       string `xml:"lastPrice"`
	AdditionalPrice string `xml:"additionalPrice"`
	Winner          string `xml:"winnerIndication"`
	Place           string `xml:"applicationPlace"`
	Rating          string `xml:"rating"`
	ApplicationRate string `xml:"applicationRate"`
}

// winnerPlaces are the places winnerIndication (scheme type
// winnerIndication) and applicationPlace give: F the winner (Победитель), S
// second, T third; B (below the third) and N (not given in this protocol)
// give none.
var winnerPlaces = map[string]int{"F": 1, "S": 2, "T": 3}

// quotationWinnerPlaces are the places the winnerIndication of a quotation
// (purchaseProtocolZK, purchaseProtocolZPESMBO: scheme type
// winnerIndication3) gives: W the winner (Победитель), S the price next
// after the winner's. F is the participant who offered the winner's price
// (Участник, предложивший цену победителя) and is not the winner.
var quotationWinnerPlaces = map[string]int{"W": 1, "S": 2}

// quotationKinds are the protocols whose winnerIndication is of the
// quotation's scale.
var quotationKinds = map[string]bool{"purchaseProtocolZK": true, "purchaseProtocolZPESMBO": true}

// singleSupplierKind is the protocol of a purchase from a single supplier
// (Протокол проведения закупки у единственного поставщика): the supplier
// of a lot's one application is the winner.
const singleSupplierKind = "purchaseProtocolPAEP"

// cancellations223 words the reasons a 223-FZ procedure failed, as the
// scheme documents them.
var cancellations223 = map[string]string{
	"NO_APPLICATIONS":                      "На участие в закупке не подано ни одной заявки",
	"ONE_APPLICATION":                      "На участие в закупке была подана только одна заявка",
	"ACCESS_DENIED_ALL":                    "По итогам рассмотрения отказано в допуске всем участникам закупки",
	"ACCESS_GRANTED_ONE":                   "По итогам рассмотрения допущен только один участник закупки",
	"NO_PRICE_OFFERS":                      "Не подано ни одного ценового предложения",
	"OTHER":                                "Иная",
	"NO_APPLICATIONS_SUBMITTED":            "Не подано ни одной заявки на участие в закупке",
	"ALL_APPLICATIONS_CANCELED":            "Все заявки на участие в закупке отклонены",
	"ONE_APPLICATION_SUBMITTED":            "На участие в закупке подана только одна заявка",
	"ALL_APPLICATIONS_CANCELED_EXCEPT_ONE": "Отклонены все заявки, за исключением одной заявки на участие в закупке",
}

// decodePurchaseProtocol decodes a 223-FZ protocol document into one record
// per lot of each of its items.
func decodePurchaseProtocol(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w purchaseProtocolWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	var recs []tenderbase.Record
	for _, data := range w.data() {
		ps, err := data.protocols(strings.TrimSuffix(data.XMLName.Local, "Data"))
		if err != nil {
			return nil, err
		}
		recs = append(recs, ps...)
	}
	if len(recs) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "purchase protocol holds no protocol data")
	}
	return recs, nil
}

// protocols adapts one item: a record per lot, keyed by the item's guid
// alone when it has one lot, by the guid and the lot's number when it has
// several.
func (n *purchaseProtocolData) protocols(kind string) ([]tenderbase.Record, error) {
	base, err := n.protocol(kind)
	if err != nil {
		return nil, err
	}
	lots := append(n.Lots, n.MissedLots...)
	if n.SingleLot != nil {
		lots = append(lots, *n.SingleLot)
	}
	if len(lots) == 0 {
		lots = []lotApps223{{}}
	}
	var recs []tenderbase.Record
	for i, l := range lots {
		p := *base
		p.LotNumber = lotNumberOr(firstOf(l.Lot.OrdinalNumber, l.OrdinalNumber), 0)
		if len(lots) > 1 {
			p.LotNumber = lotNumberOr(firstOf(l.Lot.OrdinalNumber, l.OrdinalNumber), i+1)
			p.ID = base.ID + "-" + strconv.Itoa(p.LotNumber)
		}
		for _, a := range l.Applications {
			p.Participants = append(p.Participants, a.participant(kind))
		}
		if kind == singleSupplierKind {
			markSingleWinner(&p)
		}
		recs = append(recs, &p)
	}
	return recs, nil
}

// protocol returns what the item says of itself, before its lots.
func (n *purchaseProtocolData) protocol(kind string) (*tenderbase.Protocol, error) {
	version, err := parseVersion(n.Version, 0)
	if err != nil {
		return nil, err
	}
	p := &tenderbase.Protocol{
		ID:             cleanText(n.GUID),
		PurchaseNumber: firstOf(cleanText(n.NoticeNumber), purchaseOfRegistration(n.RegistrationNumber)),
		Law:            tenderbase.Law223,
		Type:           kind,
		Number:         cleanText(n.RegistrationNumber),
		Version:        version,
		ProtocolDate:   firstTime(n.ProcedureDate.Time, n.SignDate.Time),
		PublishedAt:    firstTime(n.Publication.Time, n.Created.Time),
		Customer:       n.Customer.party(),
		URL:            firstOf(cleanText(n.URLEIS), cleanText(n.URLOOS)),
	}
	if code := cleanText(n.Cancellation); code != "" {
		p.Failed, p.Reason = true, firstOf(cancellations223[code], code)
	}
	for _, doc := range n.Attachments {
		p.Attachments = append(p.Attachments, tenderbase.Attachment{
			FileName: cleanText(doc.FileName), Description: cleanText(doc.Description), URL: cleanText(doc.URL),
		})
	}
	return p, checkProtocol(p)
}

// purchaseOfRegistration returns the purchase number in a protocol's
// registration number, which is the notice's number with a suffix ("-02").
func purchaseOfRegistration(reg string) string {
	number, _, _ := strings.Cut(cleanText(reg), "-")
	return number
}

// participant adapts an application of a protocol of kind. Its place is
// the rating when given, else the place winnerIndication names, else
// applicationPlace's, each read on the scale its kind of protocol has.
// The winner is the one winnerIndication names so, or, without an
// indication, the one placed first.
func (a application223) participant(kind string) tenderbase.Participant {
	s, foreign := a.Supplier, a.NonResident
	indication := strings.ToUpper(cleanText(a.Winner))
	places := winnerPlaces
	if quotationKinds[kind] {
		places = quotationWinnerPlaces
	}
	part := tenderbase.Participant{
		Party: unmasked(tenderbase.Party{
			INN: cleanText(s.INN), KPP: cleanText(s.KPP), OGRN: cleanText(s.OGRN),
			Name:      firstOf(cleanText(s.Name), cleanText(s.ShortName), cleanText(foreign.Name), cleanText(foreign.Info)),
			ShortName: cleanText(s.ShortName),
			Address:   firstOf(cleanText(s.Address), cleanText(foreign.Address)),
		}),
		Price: parseAmount(firstOf(a.LastPrice, a.AdditionalPrice, a.Price)),
		Rank: lotNumberOr(firstOf(a.Rating, a.ApplicationRate),
			firstPlace(places[indication], winnerPlaces[strings.ToUpper(cleanText(a.Place))])),
		JournalNumber: cleanText(a.Number),
	}
	part.Winner = places[indication] == 1 || (indication == "" && part.Rank == 1)
	return part
}

// firstPlace returns the first of places that is set.
func firstPlace(places ...int) int {
	for _, p := range places {
		if p > 0 {
			return p
		}
	}
	return 0
}

// elementName names the element, which names the kind of document.
func (n purchaseProtocolData) elementName() string { return n.XMLName.Local }
