package eis

import (
	"encoding/xml"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// checkResultWire is the result of a control body's check, schemes 10.x and
// 14.x. The check answers either a complaint (complaint) or, for an
// unplanned check prompted by one, base/unplannedCheckComplaint; both carry
// the same elements under the same names, but for the complaint's
// publication date.
type checkResultWire struct {
	CommonInfo struct {
		CheckResultNumber string  `xml:"checkResultNumber"`
		RegNumber         string  `xml:"regNumber"`
		DocNumber         string  `xml:"docNumber"`
		VersionNumber     int     `xml:"versionNumber"` // absent: 0
		CreateDate        eisTime `xml:"createDate"`
		PublishDate       eisTime `xml:"publishDate"`
		Owner             koParty `xml:"owner"`
		PrintFormInfo     struct {
			CreateOrganization  koParty `xml:"createOrganization"`
			PublishOrganization koParty `xml:"publishOrganization"`
		} `xml:"printFormInfo"`
	} `xml:"commonInfo"`
	Complaint *checkedComplaint `xml:"complaint"`
	Base      struct {
		UnplannedCheckComplaint *checkedComplaint `xml:"unplannedCheckComplaint"`
	} `xml:"base"`
	PrintForm struct {
		URL string `xml:"url"`
	} `xml:"printForm"`
}

// checkedComplaint is what a check found of a complaint.
type checkedComplaint struct {
	ComplaintNumber        string  `xml:"complaintNumber"`
	RegNumber              string  `xml:"regNumber"`
	PublishDate            eisTime `xml:"publishDate"`
	ComplaintPlacementDate eisTime `xml:"complaintPlacementDate"`
	CheckSubjects          []struct {
		SubjectComplaint koSubjects `xml:"subjectComplaint"`
		koSubjects                  // unplanned checks name the parties directly
	} `xml:"checkSubjects"`
	CheckedObject []struct {
		Purchase koPurchase `xml:"purchase"`
		Order    koPurchase `xml:"order"`
	} `xml:"checkedObject"`
	Decision struct {
		DecisionNumber string         `xml:"decisionNumber"`
		DecisionDate   eisTime        `xml:"decisionDate"`
		DecisionText   string         `xml:"decisionText"`
		Attachments    []koAttachment `xml:"attachments>attachment"`
	} `xml:"decision"`
	Prescription struct {
		PrescriptionNumber string         `xml:"prescriptionNumber"`
		PrescriptionDate   eisTime        `xml:"prescriptionDate"`
		PrescriptionText   string         `xml:"prescriptionText"`
		Attachments        []koAttachment `xml:"attachments>attachment"`
	} `xml:"prescription"`
	ComplaintResult string `xml:"complaintResult"`
	IsGISNR         bool   `xml:"isGISNR"`
}

// koAttachment is a document attached to a decision or a prescription.
type koAttachment struct {
	FileName       string `xml:"fileName"`
	DocDescription string `xml:"docDescription"`
	DocNumber      string `xml:"docNumber"`
	URL            string `xml:"url"`
}

// firstAttachment returns the first of attachments, or none: the record has
// room for one, and the first is the decision (or prescription) itself.
func firstAttachment(attachments []koAttachment) koAttachment {
	if len(attachments) == 0 {
		return koAttachment{}
	}
	return attachments[0]
}

// decodeCheckResult decodes a check result into its record.
func decodeCheckResult(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w checkResultWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	r, err := w.record()
	if err != nil {
		return nil, err
	}
	return []tenderbase.Record{r}, nil
}

// record adapts the wire check result to the domain record.
func (w checkResultWire) record() (*tenderbase.ComplaintResult, error) {
	ci := w.CommonInfo
	c := w.Complaint
	if c == nil {
		c = w.Base.UnplannedCheckComplaint
	}
	if c == nil {
		return nil, tenderbase.Errorf(tenderbase.EINVALID,
			"checkResult %s is the result of a planned or unplanned check, not of a complaint", firstOf(ci.CheckResultNumber, ci.RegNumber))
	}
	if firstOf(ci.CheckResultNumber, ci.RegNumber) == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "checkResult without commonInfo/checkResultNumber or regNumber")
	}
	owner := w.ownerDetails()
	subject := c.subject()
	purchase := c.purchase()
	decision, prescription := firstAttachment(c.Decision.Attachments), firstAttachment(c.Prescription.Attachments)
	return &tenderbase.ComplaintResult{
		CheckResultNumber:                    strings.TrimSpace(ci.CheckResultNumber),
		ComplaintNumber:                      strings.TrimSpace(c.ComplaintNumber),
		RegNumber:                            strings.TrimSpace(ci.RegNumber),
		DocNumber:                            strings.TrimSpace(ci.DocNumber),
		VersionNumber:                        ci.VersionNumber,
		CreateDate:                           ci.CreateDate.Time,
		PublishDate:                          ci.PublishDate.Time,
		OwnerRegNum:                          strings.TrimSpace(owner.RegNum),
		OwnerFullName:                        strings.TrimSpace(owner.FullName),
		OwnerINN:                             strings.TrimSpace(owner.INN),
		OwnerKPP:                             strings.TrimSpace(owner.KPP),
		ComplaintRegNumber:                   strings.TrimSpace(c.RegNumber),
		ComplaintPublishDate:                 firstTime(c.PublishDate.Time, c.ComplaintPlacementDate.Time),
		SubjectFullName:                      subject.name(),
		SubjectShortName:                     strings.TrimSpace(subject.ShortName),
		SubjectINN:                           strings.TrimSpace(subject.INN),
		SubjectKPP:                           strings.TrimSpace(subject.KPP),
		SubjectOKPO:                          strings.TrimSpace(subject.OKPO),
		SubjectAddress:                       strings.TrimSpace(subject.Address),
		PurchaseNumber:                       purchase.PurchaseNumber,
		PurchaseCode:                         strings.TrimSpace(purchase.PurchaseCode),
		PurchaseName:                         strings.TrimSpace(purchase.PurchaseName),
		PurchasePlacingDate:                  purchase.PurchasePlacingDate.Time,
		DecisionNumber:                       strings.TrimSpace(c.Decision.DecisionNumber),
		DecisionDate:                         c.Decision.DecisionDate.Time,
		DecisionText:                         strings.TrimSpace(c.Decision.DecisionText),
		AttachmentFileName:                   strings.TrimSpace(decision.FileName),
		AttachmentDocDescription:             strings.TrimSpace(decision.DocDescription),
		AttachmentDocNumber:                  strings.TrimSpace(decision.DocNumber),
		AttachmentURL:                        strings.TrimSpace(decision.URL),
		ComplaintResult:                      strings.TrimSpace(c.ComplaintResult),
		IsGISNR:                              c.IsGISNR,
		PrintFormURL:                         strings.TrimSpace(w.PrintForm.URL),
		PrescriptionNumber:                   strings.TrimSpace(c.Prescription.PrescriptionNumber),
		PrescriptionDate:                     c.Prescription.PrescriptionDate.Time,
		PrescriptionText:                     strings.TrimSpace(c.Prescription.PrescriptionText),
		PrescriptionAttachmentFileName:       strings.TrimSpace(prescription.FileName),
		PrescriptionAttachmentDocDescription: strings.TrimSpace(prescription.DocDescription),
		PrescriptionAttachmentDocNumber:      strings.TrimSpace(prescription.DocNumber),
		PrescriptionAttachmentURL:            strings.TrimSpace(prescription.URL),
	}, nil
}

// ownerDetails returns the owner of the result with its INN and KPP. The
// schemes give the owner as a reference without them; the print form's
// publishing (or creating) organization carries them, and lends them when
// its registry number is the owner's.
func (w checkResultWire) ownerDetails() koParty {
	owner := w.CommonInfo.Owner
	info := w.CommonInfo.PrintFormInfo
	for _, org := range []koParty{info.PublishOrganization, info.CreateOrganization} {
		if org.RegNum != "" && strings.TrimSpace(org.RegNum) == strings.TrimSpace(owner.RegNum) {
			owner.INN, owner.KPP = org.INN, org.KPP
			owner.FullName = firstOf(owner.FullName, org.FullName)
			break
		}
	}
	return owner
}

// subject returns the first party the check was about.
func (c *checkedComplaint) subject() koParty {
	for _, s := range c.CheckSubjects {
		for _, p := range []koParty{s.SubjectComplaint.first(), s.koSubjects.first()} {
			if p.name() != "" || p.INN != "" {
				return p
			}
		}
	}
	return koParty{}
}

// purchase returns the first procurement the check was about.
func (c *checkedComplaint) purchase() koPurchase {
	for _, o := range c.CheckedObject {
		if p := o.Purchase.either(o.Order); p.PurchaseNumber != "" {
			return p
		}
	}
	return koPurchase{}
}

// checkResultCancelWire is the withdrawal of a check result. Its
// commonInfo names the result it withdraws; its own number is its
// docNumber.
type checkResultCancelWire struct {
	CommonInfo struct {
		CheckResultNumber string  `xml:"checkResultNumber"`
		RegNumber         string  `xml:"regNumber"`
		DocNumber         string  `xml:"docNumber"`
		PublishDate       eisTime `xml:"publishDate"`
	} `xml:"commonInfo"`
	CancelType string `xml:"cancelType"`
	Info       string `xml:"info"`
}

// decodeCheckResultCancel decodes the withdrawal of a check result into a
// withdrawal record, which hides the result whether it was imported before
// or comes later.
func decodeCheckResultCancel(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w checkResultCancelWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	ci := w.CommonInfo
	// The key the withdrawn result has: ComplaintResult.Key prefers the
	// check result number to the registry number, as this does.
	target := firstOf(ci.CheckResultNumber, ci.RegNumber)
	if target == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "checkResultCancel without commonInfo/checkResultNumber or regNumber")
	}
	return []tenderbase.Record{&tenderbase.Withdrawal{
		ID:          firstOf(ci.DocNumber, src.fileName),
		TargetKind:  tenderbase.KindComplaintResult,
		TargetKey:   target,
		Document:    "checkResultCancel",
		PublishedAt: ci.PublishDate.Time,
		Reason:      firstOf(w.Info, w.CancelType),
	}}, nil
}
