package demo

import (
	"encoding/xml"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// The demo's protocols and cancellations as EIS XML: a 44-FZ epProtocol* in
// an <export>, a 223-FZ purchaseProtocol* or purchaseRejection as its own
// root. A 223-FZ protocol words why a procedure failed with a code the
// scheme lists, or with the text where none fits, as the demo's reasons do.

// protocol44Wire is a 44-FZ protocol of one lot (protocolInfo).
type protocol44Wire struct {
	XMLName       xml.Name
	SchemeVersion string `xml:"schemeVersion,attr"`
	ID            string `xml:"id"`
	VersionNumber int    `xml:"versionNumber"`
	CommonInfo    struct {
		PurchaseNumber string `xml:"purchaseNumber"`
		DocNumber      string `xml:"docNumber"`
		ProcedureDT    string `xml:"procedureDT,omitempty"`
		PublishDT      string `xml:"publishDTInEIS"`
		Href           string `xml:"href,omitempty"`
	} `xml:"commonInfo"`
	Publisher struct {
		Org  epOrg  `xml:"publisherOrg"`
		Role string `xml:"publisherRole"`
	} `xml:"protocolPublisherInfo"`
	Info struct {
		Abandoned    *epCode         `xml:"abandonedReason"`
		Applications []application44 `xml:"applicationsInfo>applicationInfo"`
	} `xml:"protocolInfo"`
}

type application44 struct {
	Rating      int    `xml:"admittedInfo>appAdmittedInfo>appRating"`
	Price       string `xml:"priceOffers>lastOffer>price"`
	Participant struct {
		FullName  string `xml:"fullName"`
		ShortName string `xml:"shortName,omitempty"`
		INN       string `xml:"INN"`
		KPP       string `xml:"KPP,omitempty"`
		OGRN      string `xml:"ogrn,omitempty"`
		Address   string `xml:"factAddress,omitempty"`
	} `xml:"appParticipantInfo>legalEntityRFInfo"`
}

// protocolFile returns protocol p, of one lot.
func protocolFile(p *tenderbase.Protocol) (File, error) {
	if p.LotNumber != 0 {
		return File{}, fmt.Errorf("protocol of lot %d: the demo's protocols have one lot", p.LotNumber)
	}
	if p.Law == tenderbase.Law223 {
		return encodeEIS(fmt.Sprintf("%s_%s_%s.xml", p.Type, p.PurchaseNumber, p.ID), protocol223Doc(p))
	}
	w := &protocol44Wire{SchemeVersion: "15.3", ID: p.ID, VersionNumber: p.Version}
	w.XMLName = xml.Name{Space: nsEPTypes, Local: p.Type}
	ci := &w.CommonInfo
	ci.PurchaseNumber, ci.DocNumber, ci.Href = p.PurchaseNumber, p.Number, p.URL
	ci.ProcedureDT, ci.PublishDT = eisTime(p.ProtocolDate), eisTime(p.PublishedAt)
	c := p.Customer
	w.Publisher.Org = epOrg{RegNum: c.RegNum, FullName: c.Name, ShortName: c.ShortName, PostAddress: c.Address, INN: c.INN, KPP: c.KPP}
	w.Publisher.Role = "CU"
	if p.Failed {
		w.Info.Abandoned = &epCode{Code: "NA", Name: p.Reason}
	}
	for _, part := range p.Participants {
		a := application44{Rating: part.Rank, Price: amount(part.Price)}
		a.Participant.FullName, a.Participant.ShortName = part.Name, part.ShortName
		a.Participant.INN, a.Participant.KPP, a.Participant.OGRN, a.Participant.Address = part.INN, part.KPP, part.OGRN, part.Address
		w.Info.Applications = append(w.Info.Applications, a)
	}
	return encodeEIS(fmt.Sprintf("%s_%s_%s.xml", p.Type, p.PurchaseNumber, p.ID), eisExport{Document: w})
}

// purchaseProtocolWire is a 223-FZ protocol of one item and one lot. The
// element names follow the protocol's kind: purchaseProtocolSummingup
// holds purchaseProtocolSummingupData.
type purchaseProtocolWire struct {
	XMLName    xml.Name
	CreateDate string `xml:"header>createDateTime"`
	Item       struct {
		Data purchaseProtocolData
	} `xml:"body>item"`
}

type purchaseProtocolData struct {
	XMLName            xml.Name
	GUID               string           `xml:"guid"`
	RegistrationNumber string           `xml:"registrationNumber"`
	NoticeNumber       string           `xml:"purchaseInfo>purchaseNoticeNumber"`
	URL                string           `xml:"urlEIS,omitempty"`
	Customer           org223           `xml:"customer>mainInfo"`
	Publication        string           `xml:"publicationDateTime"`
	ProcedureDate      string           `xml:"procedureDate,omitempty"`
	Version            int              `xml:"version"`
	Cancellation       string           `xml:"purchaseCancellationReason,omitempty"`
	Applications       []application223 `xml:"lotApplicationsList>protocolLotApplications>application"`
}

type application223 struct {
	Supplier struct {
		Name      string `xml:"name"`
		ShortName string `xml:"shortName,omitempty"`
		INN       string `xml:"inn"`
		KPP       string `xml:"kpp,omitempty"`
		OGRN      string `xml:"ogrn,omitempty"`
		Address   string `xml:"address,omitempty"`
	} `xml:"supplierInfo"`
	Price  string `xml:"price"`
	Rating int    `xml:"rating"`
	Winner string `xml:"winnerIndication,omitempty"`
}

func protocol223Doc(p *tenderbase.Protocol) *purchaseProtocolWire {
	c := p.Customer
	d := purchaseProtocolData{
		GUID: p.ID, RegistrationNumber: p.Number, NoticeNumber: p.PurchaseNumber, URL: p.URL,
		Customer:    org223{FullName: c.Name, ShortName: c.ShortName, INN: c.INN, KPP: c.KPP, OGRN: c.OGRN, LegalAddress: c.Address},
		Publication: eisTime(p.PublishedAt), ProcedureDate: eisTime(p.ProtocolDate), Version: p.Version,
	}
	d.XMLName = xml.Name{Space: ns223Purchase, Local: p.Type + "Data"}
	if p.Failed {
		d.Cancellation = p.Reason
	}
	for _, part := range p.Participants {
		a := application223{Price: amount(part.Price), Rating: part.Rank}
		if part.Winner {
			a.Winner = "F"
		}
		s := &a.Supplier
		s.Name, s.ShortName, s.INN, s.KPP, s.OGRN, s.Address = part.Name, part.ShortName, part.INN, part.KPP, part.OGRN, part.Address
		d.Applications = append(d.Applications, a)
	}
	w := &purchaseProtocolWire{CreateDate: eisTime(p.PublishedAt)}
	w.XMLName = xml.Name{Space: ns223Purchase, Local: p.Type}
	w.Item.Data = d
	return w
}

// purchaseRejectionWire is a 223-FZ purchaseRejection: the customer cancels
// the purchase.
type purchaseRejectionWire struct {
	XMLName    xml.Name `xml:"http://zakupki.gov.ru/223fz/purchase/1 purchaseRejection"`
	CreateDate string   `xml:"header>createDateTime"`
	Data       struct {
		GUID        string `xml:"guid"`
		URL         string `xml:"urlEIS,omitempty"`
		Number      string `xml:"cancelNoticeRegistrationNumber"`
		Publication string `xml:"publicationDateTime"`
		Cause       string `xml:"causeForRejection"`
	} `xml:"body>item>purchaseRejectionData"`
}

// eventFile returns tender event e; only a 223-FZ cancellation has an EIS
// form here, as it is the only event of the demo.
func eventFile(e *tenderbase.TenderEvent) (File, error) {
	if e.Law != tenderbase.Law223 || e.Type != tenderbase.EventCancellation {
		return File{}, fmt.Errorf("no EIS document for a %s-FZ %s", e.Law, e.Type)
	}
	w := &purchaseRejectionWire{CreateDate: eisTime(e.PublishedAt)}
	w.Data.GUID, w.Data.URL, w.Data.Number = e.ID, e.URL, e.PurchaseNumber
	w.Data.Publication, w.Data.Cause = eisTime(e.PublishedAt), e.Reason
	return encodeEIS("purchaseRejection_"+e.PurchaseNumber+".xml", w)
}
