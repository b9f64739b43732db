package demo

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's complaints, check results and their withdrawals as EIS XML:
// complaint, checkResult and checkResultCancel documents in an <export>.
// The EIS names a complaint's file complaint_<number>_<id>.xml, and only
// that name gives the id; a later version of the complaint keeps the name,
// so it is written into a folder of its own, as a later day's archive would
// hold it.

// complaintWire is a 44-FZ complaint.
type complaintWire struct {
	XMLName       xml.Name `xml:"http://zakupki.gov.ru/oos/types/1 complaint"`
	SchemeVersion string   `xml:"schemeVersion,attr"`
	CommonInfo    struct {
		ComplaintNumber string `xml:"complaintNumber"`
		RegNumber       string `xml:"regNumber"`
		VersionNumber   int    `xml:"versionNumber"`
		RegistrationKO  string `xml:"registrationKO>fullName"`
		RegDate         string `xml:"regDate"`
		PublishDate     string `xml:"printFormInfo>publishDate"`
	} `xml:"commonInfo"`
	KOInfo struct {
		FullName string `xml:"fullName"`
		INN      string `xml:"INN"`
		KPP      string `xml:"KPP"`
	} `xml:"KOInfo"`
	Indicted  string `xml:",innerxml"`
	Applicant struct {
		FullName         string `xml:"fullName"`
		INN              string `xml:"INN"`
		RegistrationDate string `xml:"registrationDate,omitempty"`
	} `xml:"applicantNew>legalEntity"`
	Purchase struct {
		PurchaseNumber string `xml:"purchaseNumber"`
		PurchaseName   string `xml:"purchaseName"`
		PlacingDate    string `xml:"purchasePlacingDate,omitempty"`
	} `xml:"object>purchase"`
	Text      string `xml:"text"`
	PrintForm string `xml:"printForm>url,omitempty"`
}

// complaintFile returns complaint version c.
func complaintFile(c *tenderbase.Complaint) (File, error) {
	w := &complaintWire{SchemeVersion: "14.3", Indicted: c.ComplaintIndictedTextXML, Text: c.Text, PrintForm: c.Link}
	ci := &w.CommonInfo
	ci.ComplaintNumber, ci.RegNumber, ci.VersionNumber = c.ComplaintNumber, c.RegNum, c.VersionNumber
	ci.RegistrationKO, ci.RegDate, ci.PublishDate = c.RegistrationFullName, eisTime(c.DatePubl), eisTime(c.DatePubl)
	w.KOInfo.FullName, w.KOInfo.INN, w.KOInfo.KPP = c.RegistrationFullName, c.RegistrationINN, c.RegistrationKPP
	w.Applicant.FullName, w.Applicant.INN = c.SupplierName, c.SupplierINN
	w.Applicant.RegistrationDate = registrationDate(c.ApplicantRD)
	w.Purchase.PurchaseNumber, w.Purchase.PurchaseName = c.PurchaseNumber, c.PurchaseObjectInfo
	w.Purchase.PlacingDate = eisTime(c.PurchasePlacingDate)
	name := fmt.Sprintf("complaint_%s_%s.xml", c.ComplaintNumber, c.ComplaintID)
	if c.VersionNumber > 1 {
		name = fmt.Sprintf("v%d/%s", c.VersionNumber, name)
	}
	return encodeEIS(name, eisExport{Document: w})
}

// registrationDatePattern finds the date in the demo's description of an
// applicant's registration, "ОГРН ..., дата регистрации DD.MM.YYYY".
var registrationDatePattern = regexp.MustCompile(`(\d{2}\.\d{2}\.\d{4})$`)

// registrationDate returns the date of the registration description as
// xs:date, or "" when it names none.
func registrationDate(rd string) string {
	m := registrationDatePattern.FindString(rd)
	t, err := time.Parse("02.01.2006", m)
	if err != nil {
		return ""
	}
	return t.Format(time.DateOnly)
}

// checkResultWire is the result of the check of a complaint.
type checkResultWire struct {
	XMLName       xml.Name `xml:"http://zakupki.gov.ru/oos/types/1 checkResult"`
	SchemeVersion string   `xml:"schemeVersion,attr"`
	CommonInfo    struct {
		CheckResultNumber string  `xml:"checkResultNumber"`
		RegNumber         string  `xml:"regNumber"`
		DocNumber         string  `xml:"docNumber"`
		VersionNumber     int     `xml:"versionNumber,omitempty"`
		CreateDate        string  `xml:"createDate"`
		PublishDate       string  `xml:"publishDate"`
		Owner             koOwner `xml:"owner"`
		PublishOrg        koOwner `xml:"printFormInfo>publishOrganization"`
	} `xml:"commonInfo"`
	Complaint checkedComplaintWire `xml:"complaint"`
	PrintForm string               `xml:"printForm>url,omitempty"`
}

type koOwner struct {
	RegNum   string `xml:"regNum"`
	FullName string `xml:"fullName"`
	INN      string `xml:"INN,omitempty"`
	KPP      string `xml:"KPP,omitempty"`
}

type checkedComplaintWire struct {
	ComplaintNumber string          `xml:"complaintNumber"`
	RegNumber       string          `xml:"regNumber"`
	PublishDate     string          `xml:"publishDate,omitempty"`
	Subject         koSubject       `xml:"checkSubjects>subjectComplaint>participant"`
	Purchase        koPurchase      `xml:"checkedObject>purchase"`
	Decision        koDecision      `xml:"decision"`
	Prescription    *koPrescription `xml:"prescription"`
	ComplaintResult string          `xml:"complaintResult"`
	IsGISNR         bool            `xml:"isGISNR"`
}

type koSubject struct {
	FullName  string `xml:"fullName"`
	ShortName string `xml:"shortName,omitempty"`
	INN       string `xml:"INN"`
	KPP       string `xml:"KPP,omitempty"`
	OKPO      string `xml:"OKPO,omitempty"`
	Address   string `xml:"address,omitempty"`
}

type koPurchase struct {
	PurchaseNumber string `xml:"purchaseNumber"`
	PurchaseCode   string `xml:"purchaseCode,omitempty"`
	PurchaseName   string `xml:"purchaseName"`
	PlacingDate    string `xml:"purchasePlacingDate,omitempty"`
}

type koDecision struct {
	Number      string   `xml:"decisionNumber"`
	Date        string   `xml:"decisionDate,omitempty"`
	Text        string   `xml:"decisionText"`
	Attachments []koFile `xml:"attachments>attachment"`
}

type koPrescription struct {
	Number      string   `xml:"prescriptionNumber"`
	Date        string   `xml:"prescriptionDate,omitempty"`
	Text        string   `xml:"prescriptionText"`
	Attachments []koFile `xml:"attachments>attachment"`
}

type koFile struct {
	FileName    string `xml:"fileName"`
	Description string `xml:"docDescription,omitempty"`
	DocNumber   string `xml:"docNumber,omitempty"`
	URL         string `xml:"url,omitempty"`
}

// koFiles returns the one document of a decision or prescription, if any.
func koFiles(name, description, number, url string) []koFile {
	if name == "" && url == "" {
		return nil
	}
	return []koFile{{FileName: name, Description: description, DocNumber: number, URL: url}}
}

// checkResultFile returns check result r.
func checkResultFile(r *tenderbase.ComplaintResult) (File, error) {
	w := &checkResultWire{SchemeVersion: "14.3", PrintForm: r.PrintFormURL}
	ci := &w.CommonInfo
	ci.CheckResultNumber, ci.RegNumber, ci.DocNumber, ci.VersionNumber = r.CheckResultNumber, r.RegNumber, r.DocNumber, r.VersionNumber
	ci.CreateDate, ci.PublishDate = eisTime(r.CreateDate), eisTime(r.PublishDate)
	ci.Owner = koOwner{RegNum: r.OwnerRegNum, FullName: r.OwnerFullName}
	ci.PublishOrg = koOwner{RegNum: r.OwnerRegNum, FullName: r.OwnerFullName, INN: r.OwnerINN, KPP: r.OwnerKPP}
	c := &w.Complaint
	c.ComplaintNumber, c.RegNumber, c.PublishDate = r.ComplaintNumber, r.ComplaintRegNumber, eisTime(r.ComplaintPublishDate)
	c.Subject = koSubject{FullName: r.SubjectFullName, ShortName: r.SubjectShortName, INN: r.SubjectINN,
		KPP: r.SubjectKPP, OKPO: r.SubjectOKPO, Address: r.SubjectAddress}
	c.Purchase = koPurchase{PurchaseNumber: r.PurchaseNumber, PurchaseCode: r.PurchaseCode,
		PurchaseName: r.PurchaseName, PlacingDate: eisTime(r.PurchasePlacingDate)}
	c.Decision = koDecision{Number: r.DecisionNumber, Date: eisTime(r.DecisionDate), Text: r.DecisionText,
		Attachments: koFiles(r.AttachmentFileName, r.AttachmentDocDescription, r.AttachmentDocNumber, r.AttachmentURL)}
	if r.PrescriptionNumber != "" || r.PrescriptionText != "" {
		c.Prescription = &koPrescription{Number: r.PrescriptionNumber, Date: eisTime(r.PrescriptionDate), Text: r.PrescriptionText,
			Attachments: koFiles(r.PrescriptionAttachmentFileName, r.PrescriptionAttachmentDocDescription,
				r.PrescriptionAttachmentDocNumber, r.PrescriptionAttachmentURL)}
	}
	c.ComplaintResult, c.IsGISNR = r.ComplaintResult, r.IsGISNR
	return encodeEIS(fmt.Sprintf("checkResult_%s_%s.xml", r.ComplaintNumber, r.CheckResultNumber), eisExport{Document: w})
}

// checkResultCancelWire withdraws a check result.
type checkResultCancelWire struct {
	XMLName       xml.Name `xml:"http://zakupki.gov.ru/oos/types/1 checkResultCancel"`
	SchemeVersion string   `xml:"schemeVersion,attr"`
	CommonInfo    struct {
		CheckResultNumber string `xml:"checkResultNumber"`
		DocNumber         string `xml:"docNumber"`
		PublishDate       string `xml:"publishDate"`
	} `xml:"commonInfo"`
	Info string `xml:"info"`
}

// withdrawalFile returns the withdrawal w of a check result; a withdrawal of
// anything else has no EIS form here.
func withdrawalFile(w *tenderbase.Withdrawal) (File, error) {
	if w.TargetKind != tenderbase.KindComplaintResult {
		return File{}, fmt.Errorf("no EIS document withdraws a %s", w.TargetKind)
	}
	c := &checkResultCancelWire{SchemeVersion: "14.3", Info: w.Reason}
	c.CommonInfo.CheckResultNumber, c.CommonInfo.DocNumber, c.CommonInfo.PublishDate = w.TargetKey, w.ID, eisTime(w.PublishedAt)
	return encodeEIS(fmt.Sprintf("checkResultCancel_%s.xml", w.ID), eisExport{Document: c})
}
