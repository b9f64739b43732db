package tenderbase

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// Complaint is a complaint lodged in the unified procurement system (EIS)
// against a customer's actions in a procurement: spec 2.1. JSON names are the
// spec's field names. INNs are strings, because an INN may begin with a zero.
type Complaint struct {
	PurchasePlacingDate      time.Time `json:"purchasePlacingDate,omitzero"`
	ApplicantRD              string    `json:"applicantRD,omitempty"`
	ComplaintNumber          string    `json:"complaintNumber"`
	ComplaintID              string    `json:"complaintID,omitempty"`
	VersionNumber            int       `json:"versionNumber"`
	RegNum                   string    `json:"regNum,omitempty"`
	RegistrationFullName     string    `json:"registration_fullname,omitempty"`
	RegistrationINN          string    `json:"registration_inn,omitempty"`
	RegistrationKPP          string    `json:"registration_kpp,omitempty"`
	PurchaseObjectInfo       string    `json:"purchaseObjectInfo,omitempty"`
	PurchaseNumber           string    `json:"purchaseNumber,omitempty"`
	SupplierName             string    `json:"supplierName,omitempty"`
	SupplierINN              string    `json:"supplierInn,omitempty"`
	Text                     string    `json:"text,omitempty"`
	Link                     string    `json:"link,omitempty"`
	ResultFAS                string    `json:"resultFAS,omitempty"`
	ComplaintIndictedTextXML string    `json:"complaint_indicted_textXML,omitempty"`
	DatePubl                 time.Time `json:"date_publ,omitzero"`
	ComplaintIndictedText    string    `json:"complaint_indicted_text,omitempty"`
	CustomerINN              string    `json:"customerInn,omitempty"`
}

func (c *Complaint) Kind() Kind      { return KindComplaint }
func (c *Complaint) Key() string     { return c.ComplaintNumber }
func (c *Complaint) Revision() int   { return c.VersionNumber }
func (c *Complaint) Date() time.Time { return c.DatePubl }

// SearchText returns the procurement, the parties and the complaint's text.
func (c *Complaint) SearchText() []Text {
	ts := texts(
		"complaintNumber", c.ComplaintNumber, "regNum", c.RegNum,
		"purchaseNumber", c.PurchaseNumber, "purchaseObjectInfo", c.PurchaseObjectInfo,
		"supplierName", c.SupplierName, "supplierInn", c.SupplierINN, "customerInn", c.CustomerINN,
		"registration_fullname", c.RegistrationFullName, "text", c.Text,
	)
	for _, t := range c.indictedTexts() {
		ts = append(ts, Text{Field: "complaint_indicted_text", Value: t})
	}
	return ts
}

// indictedTexts returns the text of whom the complaint is against as
// search sees it. The EIS adapter joins the character data of the indicted
// XML into one text (XMLText); search takes the pieces apart, so that a
// phrase never spans two elements, such as a customer's name and its INN.
// A text written otherwise (the demo data's) is taken whole.
func (c *Complaint) indictedTexts() []string {
	if c.ComplaintIndictedText == "" {
		return nil
	}
	if c.ComplaintIndictedTextXML != "" {
		pieces := XMLTexts(c.ComplaintIndictedTextXML)
		if strings.Join(pieces, " ") == c.ComplaintIndictedText {
			return pieces
		}
	}
	return []string{c.ComplaintIndictedText}
}

// Flags returns nil: complaints are not filtered by flags.
func (c *Complaint) Flags() []string { return nil }

// Lookups returns the complaint's numbers, its procurement and both INNs.
func (c *Complaint) Lookups() []Lookup {
	return lookups(
		LookupComplaintNumber, c.ComplaintNumber,
		LookupComplaintID, c.ComplaintID,
		LookupRegNumber, c.RegNum,
		LookupPurchaseNumber, c.PurchaseNumber,
		LookupSupplierINN, c.SupplierINN,
		LookupCustomerINN, c.CustomerINN,
	)
}

// ComplaintResult is the result of the check of a complaint: spec 2.2.
// VersionNumber is the EIS version of the result: its revision, kept in the
// canonical form but no field of spec 2.2, so the export leaves it out
// (export:"-").
type ComplaintResult struct {
	CheckResultNumber                    string    `json:"checkResultNumber,omitempty"`
	ComplaintNumber                      string    `json:"complaintNumber,omitempty"`
	ComplaintID                          string    `json:"complaintID,omitempty"`
	RegNumber                            string    `json:"regNumber,omitempty"`
	DocNumber                            string    `json:"docNumber,omitempty"`
	VersionNumber                        int       `json:"versionNumber,omitempty" export:"-"`
	CreateDate                           time.Time `json:"createDate,omitzero"`
	PublishDate                          time.Time `json:"publishDate,omitzero"`
	OwnerRegNum                          string    `json:"owner_regNum,omitempty"`
	OwnerFullName                        string    `json:"owner_fullName,omitempty"`
	OwnerINN                             string    `json:"owner_INN,omitempty"`
	OwnerKPP                             string    `json:"owner_KPP,omitempty"`
	ComplaintRegNumber                   string    `json:"complaint_regNumber,omitempty"`
	ComplaintPublishDate                 time.Time `json:"complaint_publishDate,omitzero"`
	SubjectFullName                      string    `json:"subject_fullName,omitempty"`
	SubjectShortName                     string    `json:"subject_shortName,omitempty"`
	SubjectINN                           string    `json:"subject_INN,omitempty"`
	SubjectKPP                           string    `json:"subject_KPP,omitempty"`
	SubjectOKPO                          string    `json:"subject_OKPO,omitempty"`
	SubjectAddress                       string    `json:"subject_address,omitempty"`
	PurchaseNumber                       string    `json:"purchaseNumber,omitempty"`
	PurchaseCode                         string    `json:"purchaseCode,omitempty"`
	PurchaseName                         string    `json:"purchaseName,omitempty"`
	PurchasePlacingDate                  time.Time `json:"purchasePlacingDate,omitzero"`
	DecisionNumber                       string    `json:"decisionNumber,omitempty"`
	DecisionDate                         time.Time `json:"decisionDate,omitzero"`
	DecisionText                         string    `json:"decisionText,omitempty"`
	AttachmentFileName                   string    `json:"attachment_fileName,omitempty"`
	AttachmentDocDescription             string    `json:"attachment_docDescription,omitempty"`
	AttachmentDocNumber                  string    `json:"attachment_docNumber,omitempty"`
	AttachmentURL                        string    `json:"attachment_url,omitempty"`
	ComplaintResult                      string    `json:"complaintResult,omitempty"`
	IsGISNR                              bool      `json:"isGISNR"`
	PrintFormURL                         string    `json:"printForm_url,omitempty"`
	PrescriptionNumber                   string    `json:"prescriptionNumber,omitempty"`
	PrescriptionDate                     time.Time `json:"prescriptionDate,omitzero"`
	PrescriptionText                     string    `json:"prescriptionText,omitempty"`
	PrescriptionAttachmentFileName       string    `json:"prescription_attachment_fileName,omitempty"`
	PrescriptionAttachmentDocDescription string    `json:"prescription_attachment_docDescription,omitempty"`
	PrescriptionAttachmentDocNumber      string    `json:"prescription_attachment_docNumber,omitempty"`
	PrescriptionAttachmentURL            string    `json:"prescription_attachment_url,omitempty"`
}

func (r *ComplaintResult) Kind() Kind { return KindComplaintResult }

// Key returns the check result's number, or its registry number when the
// number is not given.
func (r *ComplaintResult) Key() string {
	if r.CheckResultNumber != "" {
		return r.CheckResultNumber
	}
	return r.RegNumber
}
func (r *ComplaintResult) Revision() int   { return r.VersionNumber }
func (r *ComplaintResult) Date() time.Time { return r.PublishDate }

// SearchText returns nil: results are found through their complaint.
func (r *ComplaintResult) SearchText() []Text { return nil }

// Flags returns nil.
func (r *ComplaintResult) Flags() []string { return nil }

// Lookups returns the numbers that link the result to its complaint.
func (r *ComplaintResult) Lookups() []Lookup {
	return lookups(
		LookupComplaintID, r.ComplaintID,
		LookupComplaintNumber, r.ComplaintNumber,
		LookupComplaintRegNumber, r.ComplaintRegNumber,
		LookupPurchaseNumber, r.PurchaseNumber,
		LookupRegNumber, r.RegNumber,
		LookupCustomerINN, r.OwnerINN,
	)
}

// FASCase is a case of the antimonopoly service: spec 2.3.
type FASCase struct {
	ID            int64     `json:"id"`
	RemoteID      string    `json:"remote_id,omitempty"`
	Name          string    `json:"name"`
	Type          int       `json:"type,omitempty"`
	CaseDate      time.Time `json:"date,omitzero"`
	Upr           string    `json:"upr,omitempty"`
	Sphera        string    `json:"sphera,omitempty"`
	Delo          string    `json:"delo,omitempty"`
	ProcedureName string    `json:"procedure_name,omitempty"`
	Attachment    string    `json:"attachment,omitempty"`
	Text          string    `json:"text,omitempty"`
	Link          string    `json:"link,omitempty"`
	OrgXML        string    `json:"orgXML,omitempty"`
}

func (f *FASCase) Kind() Kind { return KindFASCase }

// Key returns the case id in decimal, or "" when it has none.
func (f *FASCase) Key() string {
	if f.ID <= 0 {
		return ""
	}
	return strconv.FormatInt(f.ID, 10)
}
func (f *FASCase) Revision() int   { return 0 }
func (f *FASCase) Date() time.Time { return f.CaseDate }

// SearchText returns the case's names and description and the text of the
// organizations it names, so that a search for an INN finds the case. Each
// piece of character data of orgXML is a text of its own, so that a phrase
// never spans two elements, such as a party's role and its name.
func (f *FASCase) SearchText() []Text {
	ts := texts(
		"delo", f.Delo, "name", f.Name, "upr", f.Upr, "sphera", f.Sphera,
		"procedure_name", f.ProcedureName, "text", f.Text,
	)
	for _, t := range XMLTexts(f.OrgXML) {
		ts = append(ts, Text{Field: "orgXML", Value: t})
	}
	return ts
}

// Flags returns nil.
func (f *FASCase) Flags() []string { return nil }

// Lookups returns the source id and every INN named in orgXML.
func (f *FASCase) Lookups() []Lookup {
	ls := lookups(LookupRemoteID, f.RemoteID)
	for _, inn := range INNsIn(XMLText(f.OrgXML)) {
		ls = append(ls, Lookup{Field: LookupINN, Value: inn})
	}
	return ls
}

// XMLText returns the character data of an XML fragment, pieces separated by
// spaces (XMLTexts). A fragment that is not well-formed yields what could be
// read of it.
func XMLText(fragment string) string { return strings.Join(XMLTexts(fragment), " ") }

// XMLTexts returns the pieces of character data of an XML fragment, each
// run of text between two tags (or CDATA section) trimmed of spaces, and
// none that is empty. A fragment that is not well-formed yields what could
// be read of it, or itself whole when nothing could.
func XMLTexts(fragment string) []string {
	if fragment == "" {
		return nil
	}
	dec := xml.NewDecoder(strings.NewReader(fragment))
	dec.Strict = false
	var pieces []string
	for {
		tok, err := dec.Token()
		if err != nil {
			if !errors.Is(err, io.EOF) && len(pieces) == 0 {
				return []string{fragment}
			}
			return pieces
		}
		if cd, ok := tok.(xml.CharData); ok {
			if s := strings.TrimSpace(string(cd)); s != "" {
				pieces = append(pieces, s)
			}
		}
	}
}

// INNsIn returns the distinct runs of exactly 10 or 12 digits in text, in the
// order they first appear.
func INNsIn(text string) []string {
	var inns []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r < '0' || r > '9' }) {
		if (len(f) == 10 || len(f) == 12) && !seen[f] {
			seen[f] = true
			inns = append(inns, f)
		}
	}
	return inns
}
