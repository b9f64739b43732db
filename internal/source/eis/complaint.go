package eis

import (
	"encoding/xml"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// complaintDocuments are the documents of the registers of complaints and
// checks (the "KO" subsystem of EIS, the control bodies).
var complaintDocuments = map[string]documentFunc{
	"complaint":         decodeComplaint,
	"complaintCancel":   decodeComplaintCancel,
	"complaintGroup":    decodeComplaintGroup,
	"checkResult":       decodeCheckResult,
	"checkResultCancel": decodeCheckResultCancel,
}

// complaintWire is a 44-FZ complaint, schemes 10.x and 14.x: both keep the
// element names read here; 14.x adds KOInfo, the registering body's INN.
type complaintWire struct {
	CommonInfo complaintCommonWire `xml:"commonInfo"`
	KOInfo     koParty             `xml:"KOInfo"`
	Indicted   []indictedBlock     `xml:"indicted"`
	applicantWire
	Object    koObject `xml:"object"`
	Text      string   `xml:"text"`
	PrintForm struct {
		URL string `xml:"url"`
	} `xml:"printForm"`
}

// complaintCommonWire is the commonInfo of a complaint or of a group of
// complaints.
type complaintCommonWire struct {
	ComplaintNumber string  `xml:"complaintNumber"`
	RegNumber       string  `xml:"regNumber"`
	VersionNumber   string  `xml:"versionNumber"`
	RegistrationKO  koParty `xml:"registrationKO"`
	ConsiderationKO koParty `xml:"considerationKO"`
	RegDate         eisTime `xml:"regDate"`
	PrintFormInfo   struct {
		PublishDate eisTime `xml:"publishDate"`
	} `xml:"printFormInfo"`
}

// applicantWire is who lodged a complaint: the legacy applicant, by name
// only, or the applicant as registered since 2015.
type applicantWire struct {
	Applicant struct {
		OrganizationName string `xml:"organizationName"`
	} `xml:"applicant"`
	ApplicantNew applicantNewWire `xml:"applicantNew"`
}

// koObject is what a complaint is about: a purchase, or a 94-FZ order.
type koObject struct {
	Purchase koPurchase `xml:"purchase"`
	Order    koPurchase `xml:"order"`
}

// applicantNewWire is the applicant as registered since 2015: an
// organization, a person or an individual entrepreneur.
type applicantNewWire struct {
	LegalEntity           koParty `xml:"legalEntity"`
	IndividualPerson      koParty `xml:"individualPerson"`
	IndividualBusinessman koParty `xml:"individualBusinessman"`
}

// koParty is an organization or a person as the KO documents give one; a
// person's name is name, an organization's fullName.
type koParty struct {
	RegNum           string  `xml:"regNum"`
	FullName         string  `xml:"fullName"`
	ShortName        string  `xml:"shortName"`
	Name             string  `xml:"name"`
	INN              string  `xml:"INN"`
	KPP              string  `xml:"KPP"`
	OKPO             string  `xml:"OKPO"`
	Address          string  `xml:"address"`
	RegistrationDate eisTime `xml:"registrationDate"`
}

// name returns the full name of an organization or the name of a person.
func (p koParty) name() string { return firstOf(p.FullName, p.Name) }

// koPurchase is the procurement a complaint or a check is about; a 94-FZ
// order gives the same facts under older names.
type koPurchase struct {
	PurchaseNumber      string  `xml:"purchaseNumber"`
	NotificationNumber  string  `xml:"notificationNumber"`
	PurchaseCode        string  `xml:"purchaseCode"`
	PurchaseName        string  `xml:"purchaseName"`
	OrderName           string  `xml:"orderName"`
	PurchasePlacingDate eisTime `xml:"purchasePlacingDate"`
	OrderPlacingDate    eisTime `xml:"orderPlacingDate"`
}

// either returns the purchase, or the order where no purchase is given.
func (p koPurchase) either(order koPurchase) koPurchase {
	if p.PurchaseNumber != "" {
		return p
	}
	return koPurchase{
		PurchaseNumber:      order.NotificationNumber,
		PurchaseName:        order.OrderName,
		PurchasePlacingDate: order.OrderPlacingDate,
	}
}

// decodeComplaint decodes a complaint into its record.
func decodeComplaint(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w complaintWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	c, err := w.record(src.fileName)
	if err != nil {
		return nil, err
	}
	return []tenderbase.Record{c}, nil
}

// record adapts the wire complaint to the domain record. resultFAS is left
// empty: the export sets it from the latest check result when it is read.
func (w complaintWire) record(fileName string) (*tenderbase.Complaint, error) {
	ci := w.CommonInfo
	if ci.ComplaintNumber == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "complaint without commonInfo/complaintNumber")
	}
	version, err := parseVersion(ci.VersionNumber, 0)
	if err != nil {
		return nil, err
	}
	purchase := w.Object.Purchase.either(w.Object.Order)
	applicant := w.ApplicantNew.party()
	indicted := indictedXML(w.Indicted)
	return &tenderbase.Complaint{
		PurchasePlacingDate:      purchase.PurchasePlacingDate.Time,
		ApplicantRD:              applicant.RegistrationDate.date(),
		ComplaintNumber:          ci.ComplaintNumber,
		ComplaintID:              complaintID(fileName),
		VersionNumber:            version,
		RegNum:                   ci.RegNumber,
		RegistrationFullName:     firstOf(ci.RegistrationKO.FullName, w.KOInfo.FullName),
		RegistrationINN:          w.KOInfo.INN,
		RegistrationKPP:          w.KOInfo.KPP,
		PurchaseObjectInfo:       purchase.PurchaseName,
		PurchaseNumber:           purchase.PurchaseNumber,
		SupplierName:             firstOf(applicant.name(), w.Applicant.OrganizationName),
		SupplierINN:              applicant.INN,
		Text:                     strings.TrimSpace(w.Text),
		Link:                     strings.TrimSpace(w.PrintForm.URL),
		ComplaintIndictedTextXML: indicted,
		DatePubl:                 firstTime(ci.PrintFormInfo.PublishDate.Time, ci.RegDate.Time),
		ComplaintIndictedText:    tenderbase.XMLText(indicted),
		CustomerINN:              customerINN(w.Indicted),
	}, nil
}

// party returns whichever kind of applicant is given.
func (a applicantNewWire) party() koParty {
	switch {
	case a.LegalEntity.name() != "":
		return a.LegalEntity
	case a.IndividualBusinessman.name() != "":
		return a.IndividualBusinessman
	}
	return a.IndividualPerson
}

// fileIDPattern matches the published name of a complaint's file,
// complaint_<complaintNumber>_<id>.xml, and captures the document id.
var fileIDPattern = regexp.MustCompile(`_(\d+)\.xml$`)

// complaintID returns the EIS document id that ends the file name, or ""
// when the name does not end so. Neither scheme version has an id element
// in a complaint; the file name is the only place EIS gives it.
func complaintID(fileName string) string {
	m := fileIDPattern.FindStringSubmatch(path.Base(fileName))
	if m == nil {
		return ""
	}
	return m[1]
}

// indictedBlock is one indicted element of a complaint: whom the complaint
// is against. It keeps the block as XML, re-serialized without namespaces,
// and the parties it names.
type indictedBlock struct {
	xml     string
	parties koSubjects
}

// koSubjects are the parties of an indicted block or of a check's subjects:
// one element each, named by role (customer, customerNew, authority, EP...).
type koSubjects struct {
	Customer    koParty   `xml:"customer"`
	CustomerNew koParty   `xml:"customerNew"`
	Others      []koParty `xml:",any"`
}

// first returns the customer, or else the first party of another role.
func (s koSubjects) first() koParty {
	switch {
	case s.Customer.name() != "":
		return s.Customer
	case s.CustomerNew.name() != "":
		return s.CustomerNew
	}
	for _, p := range s.Others {
		if p.name() != "" || p.INN != "" {
			return p
		}
	}
	return koParty{}
}

// UnmarshalXML keeps the block as XML and reads its parties from that XML.
func (b *indictedBlock) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	s, err := bareXML(d, start)
	if err != nil {
		return err
	}
	b.xml = s
	return xml.Unmarshal([]byte(s), &b.parties)
}

// bareXML re-serializes the element start, read from d, with local names
// only: prefixes and namespace declarations are dropped, so that the block
// stands alone as a well-formed fragment however the file bound its
// prefixes. Whitespace between elements and comments are dropped too, and
// only &, < and > are escaped in text, so that Russian quotes stay legible.
func bareXML(d *xml.Decoder, start xml.StartElement) (string, error) {
	var b strings.Builder
	writeStart(&b, start)
	for depth := 1; depth > 0; {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			writeStart(&b, t)
		case xml.EndElement:
			depth--
			b.WriteString("</" + t.Name.Local + ">")
		case xml.CharData:
			if len(strings.TrimSpace(string(t))) > 0 {
				textEscaper.WriteString(&b, string(t))
			}
		}
	}
	return b.String(), nil
}

var (
	textEscaper      = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	attributeEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
)

// writeStart writes the start tag of start with its local name and its
// attributes that are not namespace declarations, all without namespaces.
func writeStart(b *strings.Builder, start xml.StartElement) {
	b.WriteString("<" + start.Name.Local)
	for _, a := range start.Attr {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue
		}
		b.WriteString(" " + a.Name.Local + `="`)
		attributeEscaper.WriteString(b, a.Value)
		b.WriteByte('"')
	}
	b.WriteByte('>')
}

// indictedXML returns the indicted blocks of a complaint as one fragment.
func indictedXML(blocks []indictedBlock) string {
	var b strings.Builder
	for _, block := range blocks {
		b.WriteString(block.xml)
	}
	return b.String()
}

// customerINN returns the INN of the first customer a complaint is against.
func customerINN(blocks []indictedBlock) string {
	for _, block := range blocks {
		for _, p := range []koParty{block.parties.Customer, block.parties.CustomerNew} {
			if p.INN != "" {
				return strings.TrimSpace(p.INN)
			}
		}
	}
	return ""
}

// complaintCancelWire is an applicant's withdrawal of its complaint. It
// names the complaint by its number, the key our complaints have; its own
// number is its docNumber in the complaint's registry entry.
type complaintCancelWire struct {
	ComplaintNumber string  `xml:"complaintNumber"`
	DocNumber       string  `xml:"docNumber"`
	RegDate         eisTime `xml:"regDate"`
	Text            string  `xml:"text"`
}

// decodeComplaintCancel decodes the withdrawal of a complaint into a
// withdrawal record, which hides the complaint whether it was imported
// before or comes later.
func decodeComplaintCancel(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w complaintCancelWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	target := cleanText(w.ComplaintNumber)
	if target == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "complaintCancel without complaintNumber")
	}
	return []tenderbase.Record{&tenderbase.Withdrawal{
		ID:          firstOf(cleanText(w.DocNumber), src.fileName),
		TargetKind:  tenderbase.KindComplaint,
		TargetKey:   target,
		Document:    src.kind,
		PublishedAt: w.RegDate.Time,
		Reason:      cleanText(w.Text),
	}}, nil
}

// complaintGroupWire is a group of complaints against an operator of an
// electronic platform (a technical failure): commonInfo, the text and the
// indicted operator are the group's, and each item is a complaint of its
// own, with its number, applicant and purchase.
type complaintGroupWire struct {
	CommonInfo complaintCommonWire  `xml:"commonInfo"`
	Text       string               `xml:"text"`
	Indicted   []indictedBlock      `xml:"indicted"`
	Items      []complaintGroupItem `xml:"complaintGroupItems"`
	PrintForm  struct {
		URL string `xml:"url"`
	} `xml:"printForm"`
}

// complaintGroupItem is one complaint of a group. Its purchase is given
// directly, not inside an object.
type complaintGroupItem struct {
	Number    string  `xml:"itemComplaintNumber"`
	RegNumber string  `xml:"regNumber"` // its document in the group's registry entry
	RegDate   eisTime `xml:"regDate"`
	applicantWire
	koObject
}

// decodeComplaintGroup decodes a group of complaints into a complaint
// record per item.
func decodeComplaintGroup(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var g complaintGroupWire
	if err := d.DecodeElement(&g, &start); err != nil {
		return nil, err
	}
	var recs []tenderbase.Record
	for i, item := range g.Items {
		if firstOf(cleanText(item.Number), cleanText(item.RegNumber)) == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "complaintGroup item %d has neither itemComplaintNumber nor regNumber", i+1)
		}
		c, err := g.complaint(item).record(src.fileName)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		recs = append(recs, c)
	}
	if len(recs) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "complaintGroup without complaintGroupItems")
	}
	return recs, nil
}

// complaint returns the item as a complaint: its own number (else its
// document number in the group's entry), applicant, purchase and date of
// receipt, with the group's registry entry, version, control body, text,
// indicted operator, publication and print form.
func (g complaintGroupWire) complaint(item complaintGroupItem) complaintWire {
	ci := g.CommonInfo
	ci.ComplaintNumber = firstOf(cleanText(item.Number), cleanText(item.RegNumber))
	ci.RegDate = item.RegDate
	if ci.RegistrationKO.name() == "" {
		ci.RegistrationKO = ci.ConsiderationKO
	}
	w := complaintWire{CommonInfo: ci, Indicted: g.Indicted, applicantWire: item.applicantWire, Object: item.koObject, Text: g.Text}
	w.PrintForm.URL = g.PrintForm.URL
	return w
}
