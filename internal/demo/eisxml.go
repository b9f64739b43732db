package demo

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's tenders and contracts as EIS XML, in the shapes the EIS
// publishes and internal/source/eis reads, so that the demo can come in through the
// importer as real data does: one document per version, a 44-FZ
// epNotification*2020 or contract in an <export>, a 223-FZ purchaseNotice or
// contract as its own root. Only what a document carries is written: a
// tender's status and participants come from its protocols, and a doc's
// text is not in the notice.

// Namespaces of the EIS export documents.
const (
	nsExport  = "http://zakupki.gov.ru/oos/export/1"
	nsEPTypes = "http://zakupki.gov.ru/oos/EPtypes/1"
)

// noticeElements names the notice document of each placing method.
var noticeElements = map[string]string{
	"EA20": "epNotificationEF2020",
	"OK20": "epNotificationEOK2020",
	"ZK20": "epNotificationEZK2020",
}

// WriteEIS returns the EIS XML documents of the tenders and contracts of
// recs, in the order of recs. Each notice lists the tender's attachments,
// dated by the doc records that describe them.
func WriteEIS(recs []tenderbase.Record) ([]File, error) {
	docs := map[string]*tenderbase.Doc{}
	for _, r := range recs {
		if d, ok := r.(*tenderbase.Doc); ok {
			docs[d.PurchaseNumber+"\n"+d.URL] = d
		}
	}
	var files []File
	var plans []*tenderbase.PlannedPurchase
	written := map[string]bool{}
	for _, r := range recs {
		var f File
		var err error
		switch r := r.(type) {
		case *tenderbase.Tender:
			var folder string
			var texts []File
			if folder, texts, err = documentation(r, docs, written); err == nil {
				f, err = tenderFile(r, docs)
				f.Name = folder + f.Name
				files = append(files, texts...)
			}
		case *tenderbase.Contract:
			f, err = contractFile(r)
		case *tenderbase.Complaint:
			f, err = complaintFile(r)
		case *tenderbase.ComplaintResult:
			f, err = checkResultFile(r)
		case *tenderbase.Withdrawal:
			f, err = withdrawalFile(r)
		case *tenderbase.Protocol:
			f, err = protocolFile(r)
		case *tenderbase.TenderEvent:
			f, err = eventFile(r)
		case *tenderbase.ContractExecution:
			f, err = executionFile(r)
		case *tenderbase.PlannedPurchase:
			plans = append(plans, r)
			continue
		case *tenderbase.UnfairSupplier:
			var fs []File
			if fs, err = unfairFiles(r); err == nil {
				files = append(files, fs[:len(fs)-1]...)
				f = fs[len(fs)-1]
			}
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s version %d: %w", r.Kind(), r.Key(), r.Revision(), err)
		}
		files = append(files, f)
	}
	planFiles, err := planFiles(plans)
	return append(files, planFiles...), err
}

// tenderFile returns the notice of tender version t, of its law.
func tenderFile(t *tenderbase.Tender, docs map[string]*tenderbase.Doc) (File, error) {
	if t.Law == tenderbase.Law223 {
		return purchaseNoticeFile(t, docs)
	}
	return noticeFile(t, docs)
}

// noticeFile returns the notice of tender version t.
func noticeFile(t *tenderbase.Tender, docs map[string]*tenderbase.Doc) (File, error) {
	elem, ok := noticeElements[t.PlacingMethodCode]
	if !ok {
		return File{}, fmt.Errorf("no notice for placing method %q", t.PlacingMethodCode)
	}
	n := newNotice(t, docs)
	n.XMLName = xml.Name{Space: nsEPTypes, Local: elem}
	return encodeEIS(fmt.Sprintf("%s_%s_%d.xml", elem, t.PurchaseNumber, t.Version), eisExport{Document: n})
}

// encodeEIS returns the file name holding the document doc, indented.
func encodeEIS(name string, doc any) (File, error) {
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return File{}, err
	}
	buf.WriteByte('\n')
	return File{Name: name, Data: buf.Bytes()}, nil
}

// eisExport is the <export> root that holds one 44-FZ document.
type eisExport struct {
	XMLName  xml.Name `xml:"http://zakupki.gov.ru/oos/export/1 export"`
	Document any
}

// epNotice is an epNotification*2020 document.
type epNotice struct {
	XMLName       xml.Name
	SchemeVersion string          `xml:"schemeVersion,attr"`
	ID            string          `xml:"id"`
	VersionNumber int             `xml:"versionNumber"`
	CommonInfo    epCommonInfo    `xml:"commonInfo"`
	Responsible   epResponsible   `xml:"purchaseResponsibleInfo"`
	Attachments   []epAttachment  `xml:"attachmentsInfo>attachmentInfo"`
	Info          epInfo          `xml:"notificationInfo"`
	Modification  *epModification `xml:"modificationInfo"`
}

type epCommonInfo struct {
	PurchaseNumber string `xml:"purchaseNumber"`
	PublishDT      string `xml:"publishDTInEIS"`
	Href           string `xml:"href,omitempty"`
	PlacingWay     epCode `xml:"placingWay"`
	ETP            *epETP `xml:"ETP"`
	ObjectInfo     string `xml:"purchaseObjectInfo"`
}

type epCode struct {
	Code string `xml:"code"`
	Name string `xml:"name"`
}

type epETP struct {
	Code string `xml:"code"`
	Name string `xml:"name"`
	URL  string `xml:"url,omitempty"`
}

type epResponsible struct {
	Org     epOrg     `xml:"responsibleOrgInfo"`
	Role    string    `xml:"responsibleRole"`
	Contact epContact `xml:"responsibleInfo"`
}

type epOrg struct {
	RegNum      string `xml:"regNum"`
	FullName    string `xml:"fullName"`
	ShortName   string `xml:"shortName,omitempty"`
	PostAddress string `xml:"postAddress,omitempty"`
	INN         string `xml:"INN"`
	KPP         string `xml:"KPP"`
}

type epContact struct {
	LastName   string `xml:"contactPersonInfo>lastName,omitempty"`
	FirstName  string `xml:"contactPersonInfo>firstName,omitempty"`
	MiddleName string `xml:"contactPersonInfo>middleName,omitempty"`
	Address    string `xml:"orgPostAddress,omitempty"`
	Email      string `xml:"contactEMail,omitempty"`
	Phone      string `xml:"contactPhone,omitempty"`
}

type epAttachment struct {
	ContentID   string `xml:"publishedContentId"`
	FileName    string `xml:"fileName"`
	FileSize    int64  `xml:"fileSize"`
	Description string `xml:"docDescription,omitempty"`
	Date        string `xml:"docDate,omitempty"`
	URL         string `xml:"url,omitempty"`
}

type epInfo struct {
	Start        string          `xml:"procedureInfo>collectingInfo>startDT,omitempty"`
	End          string          `xml:"procedureInfo>collectingInfo>endDT,omitempty"`
	BiddingDate  string          `xml:"procedureInfo>biddingDate,omitempty"`
	MaxPrice     string          `xml:"contractConditionsInfo>maxPriceInfo>maxPrice"`
	Currency     string          `xml:"contractConditionsInfo>maxPriceInfo>currency>code"`
	Requirements []epRequirement `xml:"customerRequirementsInfo>customerRequirementInfo"`
	Objects      []epObject      `xml:"purchaseObjectsInfo>notDrugPurchaseObjectsInfo>purchaseObject"`
}

// epRequirement names the customer by registry number and name; its
// customer code (a kind digit, the INN, the KPP) carries the INN and KPP.
type epRequirement struct {
	RegNum       string      `xml:"customer>regNum"`
	FullName     string      `xml:"customer>fullName"`
	MaxPrice     string      `xml:"contractConditionsInfo>maxPriceInfo>maxPrice"`
	PurchaseCode string      `xml:"contractConditionsInfo>IKZInfo>purchaseCode,omitempty"`
	CustomerCode string      `xml:"contractConditionsInfo>IKZInfo>customerCode"`
	Plan         *epPlanInfo `xml:"contractConditionsInfo>tenderPlan2020Info"`
}

// epPlanInfo names the position of the plan-schedule a purchase was
// planned as.
type epPlanInfo struct {
	PlanNumber     string `xml:"plan2020Number"`
	PositionNumber string `xml:"position2020Number"`
}

type epObject struct {
	OKPDCode string `xml:"OKPD2>OKPDCode"`
	OKPDName string `xml:"OKPD2>OKPDName"`
	Name     string `xml:"name"`
	Unit     string `xml:"OKEI>nationalCode"`
	Price    string `xml:"price"`
	Quantity string `xml:"quantity>value"`
	Sum      string `xml:"sum"`
}

type epModification struct {
	Info string `xml:"info"`
}

// newNotice fills the notice of tender version t.
func newNotice(t *tenderbase.Tender, docs map[string]*tenderbase.Doc) *epNotice {
	c := t.Customer
	last, first, middle := personName(t.Contact.Person)
	n := &epNotice{
		SchemeVersion: "15.3",
		ID:            noticeID(t),
		VersionNumber: t.Version,
		CommonInfo: epCommonInfo{
			PurchaseNumber: t.PurchaseNumber,
			PublishDT:      eisTime(t.PublishedAt),
			Href:           t.URL,
			PlacingWay:     epCode{Code: t.PlacingMethodCode, Name: t.PlacingMethod},
			ObjectInfo:     t.Title,
		},
		Responsible: epResponsible{
			Org:  epOrg{RegNum: c.RegNum, FullName: c.Name, ShortName: c.ShortName, PostAddress: c.Address, INN: c.INN, KPP: c.KPP},
			Role: "CU",
			Contact: epContact{LastName: last, FirstName: first, MiddleName: middle,
				Address: t.Contact.Address, Email: t.Contact.Email, Phone: t.Contact.Phone},
		},
		Info: epInfo{
			Start:        eisTime(t.ApplicationsStart),
			End:          eisTime(t.ApplicationsDeadline),
			BiddingDate:  eisTime(t.BiddingDate),
			MaxPrice:     amount(t.MaxPrice),
			Currency:     t.Currency,
			Requirements: requirements(t),
		},
	}
	if o := t.Organizer; o != nil {
		n.Responsible.Org = epOrg{RegNum: o.RegNum, FullName: o.Name, ShortName: o.ShortName, PostAddress: o.Address, INN: o.INN, KPP: o.KPP}
		n.Responsible.Role = o.Role
	}
	if t.ETP != nil {
		n.CommonInfo.ETP = &epETP{Code: t.ETP.Code, Name: t.ETP.Name, URL: t.ETP.URL}
	}
	for _, l := range t.Lots {
		for _, o := range l.Objects {
			n.Info.Objects = append(n.Info.Objects, epObject{OKPDCode: o.OKPD2Code, OKPDName: o.OKPD2Name, Name: o.Name,
				Unit: o.Unit, Price: amount(o.Price), Quantity: amount(o.Quantity), Sum: amount(o.Sum)})
		}
	}
	for _, a := range t.Attachments {
		n.Attachments = append(n.Attachments, attachment(t, a, docs[t.PurchaseNumber+"\n"+a.URL]))
	}
	if t.Change != nil {
		n.Modification = &epModification{Info: t.Change.Reason}
	}
	return n
}

// requirements returns a requirement for each customer of a joint purchase,
// with its part of the price, or the one customer's.
func requirements(t *tenderbase.Tender) []epRequirement {
	if len(t.Customers) == 0 {
		c := t.Customer
		r := epRequirement{RegNum: c.RegNum, FullName: c.Name, MaxPrice: amount(t.MaxPrice), CustomerCode: "3" + c.INN + c.KPP}
		if len(t.Plans) == 1 {
			l := t.Plans[0]
			r.PurchaseCode = l.IKZ
			r.Plan = &epPlanInfo{PlanNumber: l.PositionNumber[:len(l.PositionNumber)-6], PositionNumber: l.PositionNumber}
		}
		return []epRequirement{r}
	}
	var rs []epRequirement
	for _, c := range t.Customers {
		rs = append(rs, epRequirement{RegNum: c.RegNum, FullName: c.Name, MaxPrice: amount(c.MaxPrice), CustomerCode: "3" + c.INN + c.KPP})
	}
	return rs
}

// attachment returns a notice's file; the doc record describing it, if
// any, gives its content id and date.
func attachment(t *tenderbase.Tender, a tenderbase.Attachment, d *tenderbase.Doc) epAttachment {
	w := epAttachment{FileName: a.FileName, FileSize: a.Size, Description: a.Description, URL: a.URL}
	if d != nil {
		w.ContentID, w.Date = d.ID, eisTime(d.PublishedAt)
	} else if _, uid, ok := strings.Cut(a.URL, "uid="); ok {
		w.ContentID = uid
	}
	return w
}

// noticeID returns a document id for a notice version, derived from its
// purchase number so that it is the same on every run.
func noticeID(t *tenderbase.Tender) string {
	n, _ := strconv.ParseUint(t.PurchaseNumber[len(t.PurchaseNumber)-7:], 10, 64)
	return strconv.FormatUint(40000000+n%10000000+uint64(t.Version), 10)
}

// personName splits a name in the Russian order into its three parts.
func personName(s string) (last, first, middle string) {
	parts := strings.Fields(s)
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	return parts[0], parts[1], strings.Join(parts[2:], " ")
}

// eisTime writes a time as the EIS does, with its offset; zero is empty.
func eisTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// amount writes an amount with no more digits than it needs.
func amount(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// EISBorn reports whether r comes in through the demo's EIS XML: every
// record of an EIS kind, the docs being the files of the notices.
func EISBorn(r tenderbase.Record) bool {
	switch r.Kind() {
	case tenderbase.KindTender, tenderbase.KindDoc, tenderbase.KindContract, tenderbase.KindProtocol,
		tenderbase.KindTenderEvent, tenderbase.KindComplaint, tenderbase.KindComplaintResult, tenderbase.KindWithdrawal,
		tenderbase.KindContractExecution, tenderbase.KindUnfairSupplier, tenderbase.KindPlannedPurchase:
		return true
	}
	return false
}
