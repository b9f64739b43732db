package eis

import (
	"encoding/xml"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// events decodes the documents of both laws that change or cancel a notice
// without restating it. Each becomes a tender event, a record of its own,
// so that it applies whatever order it arrives in. The names are exact, so
// that they win over the notice prefixes of notices44.
var events = map[string]documentFunc{
	"fcs_notificationEFDateChange": decodeEvent44,
	"fcsNotificationEFDateChange":  decodeEvent44,
	"fcsNotificationCancel":        decodeEvent44,
	"fcsNotificationCancelFailure": decodeEvent44,
	"fcsNotificationLotCancel":     decodeEvent44,
	"epNotificationCancel":         decodeEvent44,
	"epNotificationCancelFailure":  decodeEvent44,
	"epNoticeApplicationsAbsence":  decodeEvent44,

	// A protocol cancellation names the protocol by its number; exact
	// names, so that the protocol prefixes of protocols44 do not claim them.
	"fcsProtocolCancel":      decodeEvent44,
	"epProtocolCancel":       decodeEvent44,
	"epClosedProtocolCancel": decodeEvent44,
	"pprf615ProtocolCancel":  decodeEvent44,

	// A prolongation gives a new deadline of applications; a control body
	// or a court may cancel it.
	"epProlongationEOK":         decodeEvent44,
	"epProlongationEOKOU":       decodeEvent44,
	"epProlongationEOKD":        decodeEvent44,
	"epProlongationEZK":         decodeEvent44,
	"epProlongationCancelEOK":   decodeEvent44,
	"epProlongationCancelEOKOU": decodeEvent44,
	"epProlongationCancelEOKD":  decodeEvent44,
	"epProlongationCancelEZK":   decodeEvent44,

	// The closed procedures cancel in the documents of the open ones.
	"epClosedNotificationCancel":        decodeEvent44,
	"epClosedNotificationCancelFailure": decodeEvent44,

	// A lot change restates one lot and says what it changed; an
	// organization change names the organization that conducts the
	// purchase from then on. Each is an event saying so, which needs no
	// notice stored before it.
	"fcsNotificationLotChange": decodeEvent44,
	"fcsNotificationOrgChange": decodeEvent44,

	// Any other change of a legacy notice.
	"fcs_notification*": partialNotice("notice change"),

	"purchaseRejection":       decodeEvents223,
	"purchaseLotCancellation": decodeEvents223,
}

// eventTypes gives the event type of each 44-FZ document decodeEvent44
// reads.
var eventTypes = map[string]string{
	"fcs_notificationEFDateChange":      tenderbase.EventDateChange,
	"fcsNotificationEFDateChange":       tenderbase.EventDateChange,
	"fcsNotificationCancel":             tenderbase.EventCancellation,
	"epNotificationCancel":              tenderbase.EventCancellation,
	"epClosedNotificationCancel":        tenderbase.EventCancellation,
	"fcsNotificationCancelFailure":      tenderbase.EventCancellationFailure,
	"epNotificationCancelFailure":       tenderbase.EventCancellationFailure,
	"epClosedNotificationCancelFailure": tenderbase.EventCancellationFailure,
	"fcsNotificationLotCancel":          tenderbase.EventLotCancellation,
	"fcsNotificationLotChange":          tenderbase.EventLotChange,
	"fcsNotificationOrgChange":          tenderbase.EventOrgChange,
	"epNoticeApplicationsAbsence":       tenderbase.EventNoApplications,
	"epProlongationEOK":                 tenderbase.EventDateChange,
	"epProlongationEOKOU":               tenderbase.EventDateChange,
	"epProlongationEOKD":                tenderbase.EventDateChange,
	"epProlongationEZK":                 tenderbase.EventDateChange,
	"epProlongationCancelEOK":           tenderbase.EventDateChangeCancel,
	"epProlongationCancelEOKOU":         tenderbase.EventDateChangeCancel,
	"epProlongationCancelEOKD":          tenderbase.EventDateChangeCancel,
	"epProlongationCancelEZK":           tenderbase.EventDateChangeCancel,
	"fcsProtocolCancel":                 tenderbase.EventProtocolCancellation,
	"epProtocolCancel":                  tenderbase.EventProtocolCancellation,
	"epClosedProtocolCancel":            tenderbase.EventProtocolCancellation,
	"pprf615ProtocolCancel":             tenderbase.EventProtocolCancellation,
}

// event44Wire is any of the 44-FZ documents of events. Their elements do not
// clash, so one struct reads them all: the legacy documents (schemes up to
// 10.x) give their fields at the top, the 2019+ ones in commonInfo.
type event44Wire struct {
	ID             string  `xml:"id"`
	PurchaseNumber string  `xml:"purchaseNumber"`
	ProtocolNumber string  `xml:"protocolNumber"`          // the protocol a legacy cancellation cancels
	Purchase       string  `xml:"purchase>purchaseNumber"` // of an org change
	DocPublishDate eisTime `xml:"docPublishDate"`
	DocDate        eisTime `xml:"docDate"`
	Href           string  `xml:"href"`
	PrintForm      string  `xml:"printForm>url"`
	Common         struct {
		PurchaseNumber    string  `xml:"purchaseNumber"`
		DocPublishDate    eisTime `xml:"docPublishDate"` // of a capital repairs document
		DocPublishDTInEIS eisTime `xml:"docPublishDTInEIS"`
		PublishDTInEIS    eisTime `xml:"publishDTInEIS"` // of a protocol
		Href              string  `xml:"href"`
		CanceledProtocol  string  `xml:"canceledProtocolNumber"`
	} `xml:"commonInfo"`
	PrintFormInfo  string      `xml:"printFormInfo>url"`
	NewAuctionDate eisTime     `xml:"newAuctionDate"`
	Lot            fcsLotWire  `xml:"lot"`
	DateReason     reasonWire  `xml:"reason"`
	CancelReason   reasonWire  `xml:"cancelReason"`
	ReasonInfo     reasonWire  `xml:"cancelReasonInfo"`
	Failure        failureWire `xml:"cancelFailureInfo"`
	Abandoned      struct {
		Code string `xml:"code"`
		Name string `xml:"name"`
	} `xml:"abandonedReason"`
	AddInfo      string           `xml:"addInfo"`
	Prolongation prolongationWire `xml:"prolongationInfo"`
	// Modification is what a lot change says of itself.
	Modification struct {
		Info    string     `xml:"info"`
		AddInfo string     `xml:"addInfo"`
		Reason  reasonWire `xml:"reason"`
	} `xml:"modification"`
	BaseChange struct {
		Type    string `xml:"changeType"`
		AddInfo string `xml:"addInfo"`
	} `xml:"baseChange"`
	NewOrg orgWire `xml:"newRespOrg"`
	// ProlongationCancel is the basis of an epProlongationCancel*: a
	// control body's prescription or a court decision.
	ProlongationCancel struct {
		Reason  reasonWire `xml:"prolongationCancelReason"`
		AddInfo string     `xml:"addInfo"`
	} `xml:"prolongationCancelInfo"`
}

// prolongationWire is the new deadline of applications of an
// epProlongation*: at its top for EOK, EOKOU and EZK, in the first stage of
// a two-stage EOKD.
type prolongationWire struct {
	NewEnd        eisTime `xml:"newCollectingEndDT"`
	FirstStageEnd eisTime `xml:"firstStageInfo>newCollectingEndDT"`
}

// failureWire is what an epNotificationCancelFailure nests in one block.
type failureWire struct {
	Reason  reasonWire `xml:"cancelReasonInfo"`
	AddInfo string     `xml:"addInfo"`
}

// decodeEvent44 decodes a document of events44 into its tender event.
func decodeEvent44(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w event44Wire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	e, err := w.event(src)
	if err != nil {
		return nil, err
	}
	return []tenderbase.Record{e}, nil
}

// event adapts the document to a tender event. Its id is the kind of
// document and the document's id (or the last number of the file name where
// the document has none): the EIS numbers each kind of document apart, so a
// cancellation and a date change may share a number.
func (w *event44Wire) event(src source) (*tenderbase.TenderEvent, error) {
	e := &tenderbase.TenderEvent{
		ID:             eventID(src.kind, firstOf(cleanText(w.ID), complaintID(src.fileName))),
		PurchaseNumber: firstOf(cleanText(w.PurchaseNumber), cleanText(w.Common.PurchaseNumber), cleanText(w.Purchase)),
		Law:            tenderbase.Law44,
		Type:           eventTypes[src.kind],
		Document:       src.kind,
		PublishedAt: firstTime(w.DocPublishDate.Time, w.Common.DocPublishDTInEIS.Time, w.Common.PublishDTInEIS.Time,
			w.Common.DocPublishDate.Time, w.DocDate.Time),
		Reason:               w.reason(),
		ProtocolNumber:       protocolNumber(firstOf(cleanText(w.ProtocolNumber), cleanText(w.Common.CanceledProtocol))),
		BiddingDate:          w.NewAuctionDate.Time,
		ApplicationsDeadline: firstTime(w.Prolongation.NewEnd.Time, w.Prolongation.FirstStageEnd.Time),
		Changes:              cleanText(w.Modification.Info),
		Org:                  w.NewOrg.party(),
		URL:                  firstOf(cleanText(w.Href), cleanText(w.Common.Href), cleanText(w.PrintForm), cleanText(w.PrintFormInfo)),
	}
	lot, err := parseVersion(w.Lot.LotNumber, 0)
	if err != nil {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "lot number %q is not a whole number", cleanText(w.Lot.LotNumber))
	}
	e.LotNumber = lot
	return e, checkEvent(e)
}

// reason returns the reason the document gives: the basis of the decision
// (its document, number, date and issuer) and the free text added to it.
func (w *event44Wire) reason() string {
	if name := firstOf(cleanText(w.Abandoned.Name), cleanText(w.Abandoned.Code)); name != "" {
		return name
	}
	parts := []string{orgChangeBasis(cleanText(w.BaseChange.Type))}
	for _, r := range []reasonWire{w.DateReason, w.CancelReason, w.ReasonInfo, w.Failure.Reason, w.ProlongationCancel.Reason, w.Modification.Reason} {
		parts = append(parts, r.basis(), cleanText(r.AddInfo))
	}
	parts = append(parts, cleanText(w.AddInfo), cleanText(w.Failure.AddInfo), cleanText(w.ProlongationCancel.AddInfo),
		cleanText(w.Modification.AddInfo), cleanText(w.BaseChange.AddInfo))
	return joinNonEmpty(parts, "; ")
}

// orgChangeBases words the bases of an org change (changeType) as the
// scheme documents them.
var orgChangeBases = map[string]string{
	"C": "Прекращение действия права уполномоченного органа, уполномоченного учреждения, организации, осуществляющей полномочия заказчика " +
		"на осуществление закупок на основании договора (соглашения) в соответствии с частью 6 статьи 15 Федерального закона № 44-ФЗ " +
		"на размещение закупок для заказчика",
	"R": "Реорганизация заказчика или уполномоченного органа, осуществляющего закупку",
	"F": "Изменение организации, осуществляющей закупку в соответствии со статьей 26 Федерального закона № 44-ФЗ",
}

// orgChangeBasis returns the wording of the basis code, the code itself
// when the scheme does not document it, or "" when none is given.
func orgChangeBasis(code string) string {
	return firstOf(orgChangeBases[code], code)
}

// checkEvent rejects an event that cannot be told apart or applied: one
// without an id or a purchase, a date change without a new date, a lot
// cancellation or change without its lot, an org change without the new
// organization, a protocol cancellation without its protocol.
func checkEvent(e *tenderbase.TenderEvent) error {
	what := strings.ReplaceAll(e.Type, "_", " ")
	switch {
	case e.PurchaseNumber == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "%s has no purchase number", what)
	case e.ID == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "%s of %s has no document id, neither inside nor in the file name", what, e.PurchaseNumber)
	case e.Type == tenderbase.EventDateChange && e.BiddingDate.IsZero() && e.ApplicationsDeadline.IsZero():
		return tenderbase.Errorf(tenderbase.EINVALID, "date change of %s gives no new date", e.PurchaseNumber)
	case (e.Type == tenderbase.EventLotCancellation || e.Type == tenderbase.EventLotChange) && e.LotNumber == 0:
		return tenderbase.Errorf(tenderbase.EINVALID, "%s of %s names no lot", what, e.PurchaseNumber)
	case e.Type == tenderbase.EventOrgChange && e.Org == (tenderbase.Party{}):
		return tenderbase.Errorf(tenderbase.EINVALID, "org change of %s names no new organization", e.PurchaseNumber)
	case e.Type == tenderbase.EventProtocolCancellation && e.ProtocolNumber == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "protocol cancellation of %s names no protocol", e.PurchaseNumber)
	}
	return nil
}

// reasonWire is the basis of a change or a cancellation: one of a decision
// of the customer, a prescription of a control body (from the register of
// check results, or another), a court decision or the result of a public
// discussion. The legacy documents and the 2019+ ones name the same choices
// differently (responsibleDecision, responsibleDecisionInfo...).
type reasonWire struct {
	Decision     eisTime   `xml:"responsibleDecision>decisionDate"`
	DecisionEP   eisTime   `xml:"responsibleDecisionInfo>decisionDate"`
	Registry     basisWire `xml:"authorityPrescription>reestrPrescription"`
	RegistryEP   basisWire `xml:"authorityPrescriptionInfo>reestrPrescription"`
	External     basisWire `xml:"authorityPrescription>externalPrescription"`
	ExternalEP   basisWire `xml:"authorityPrescriptionInfo>externalPrescription"`
	Court        basisWire `xml:"courtDecision"`
	CourtEP      basisWire `xml:"courtDecisionInfo"`
	Discussion   basisWire `xml:"discussionResult"`
	DiscussionEP basisWire `xml:"discussionResultInfo"`
	AddInfo      string    `xml:"addInfo"` // inside the reason of a date change
	// An ep protocol cancellation nests the choice one level deeper.
	Within *reasonWire `xml:"reasonInfo"`
}

// basis describes the basis given, or returns "" when there is none.
func (r reasonWire) basis() string {
	if d := firstTime(r.Decision.Time, r.DecisionEP.Time); !d.IsZero() {
		return customerDecision(d)
	}
	for _, b := range []struct {
		doc  basisWire
		what string // the name of such a document when it gives none
	}{
		{r.Registry, "предписание"}, {r.RegistryEP, "предписание"}, {r.External, "предписание"}, {r.ExternalEP, "предписание"},
		{r.Court, "решение суда"}, {r.CourtEP, "решение суда"}, {r.Discussion, ""}, {r.DiscussionEP, ""},
	} {
		if s := b.doc.text(b.what); s != "" {
			return s
		}
	}
	if r.Within != nil {
		return r.Within.basis()
	}
	return ""
}

// basisWire is a document a change rests on. The legacy documents give its
// name, number and date directly; the 2019+ ones in a property block.
type basisWire struct {
	docPropertyWire
	Authority     string          `xml:"authorityName"`
	Court         string          `xml:"courtName"`
	Prescription  string          `xml:"prescriptionNumber"` // of the register of check results
	CheckResult   string          `xml:"checkResultNumber"`  // the check result the prescription is of
	Foundation    string          `xml:"foundation"`         // what the prescription requires, in words
	Property      docPropertyWire `xml:"prescriptionProperty"`
	CourtProperty docPropertyWire `xml:"decisionProperty"`
}

// docPropertyWire is the name, number and date of a document.
type docPropertyWire struct {
	Name   string  `xml:"docName"`
	Number string  `xml:"docNumber"`
	Date   eisTime `xml:"docDate"`
}

// text describes the document, or returns "" when nothing names it. A
// document with a number or a date but no name of its own (a prescription
// from the register, a court decision of dashes) is called what. A
// prescription may give only the number of its check result.
func (b basisWire) text(what string) string {
	doc := b.docPropertyWire
	for _, p := range []docPropertyWire{b.Property, b.CourtProperty} {
		if doc.Name == "" && doc.Number == "" && doc.Date.IsZero() {
			doc = p
		}
	}
	name, number := given(doc.Name), firstOf(given(doc.Number), given(b.Prescription))
	if check := given(b.CheckResult); number == "" && check != "" {
		what, number = "предписание по результату контроля", check
	}
	if name == "" && (number != "" || !doc.Date.IsZero()) {
		name = what
	}
	s := describeDocument(name, number, doc.Date.Time, firstOf(given(b.Authority), given(b.Court)))
	return joinNonEmpty([]string{s, given(b.Foundation)}, "; ")
}

// given returns the text cleaned, or "" where it is only a dash: the EIS
// accepts "-" in a required element that the publisher had nothing for.
func given(s string) string {
	s = cleanText(s)
	if strings.Trim(s, "-–—") == "" {
		return ""
	}
	return s
}

// describeDocument writes a document as Russian texts cite one:
// "Решение № 827-АК от 14.12.2017, Управление ФАС...".
func describeDocument(name, number string, date time.Time, issuer string) string {
	s := name
	if number != "" {
		s += " № " + number
	}
	if !date.IsZero() {
		s += " от " + date.Format("02.01.2006")
	}
	if s = strings.TrimSpace(s); s != "" && issuer != "" {
		s += ", " + issuer
	}
	return s
}

// customerDecision describes a decision of the customer taken on date, or
// returns "" when no date is given.
func customerDecision(date time.Time) string {
	if date.IsZero() {
		return ""
	}
	return describeDocument("решение заказчика", "", date, "")
}

// joinNonEmpty joins the parts that are not empty.
func joinNonEmpty(parts []string, sep string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// partialNoticeWire is what a document of partialNotice names of the
// purchase it changes, wherever its scheme puts the number.
type partialNoticeWire struct {
	PurchaseNumber string `xml:"purchaseNumber"`
	Purchase       string `xml:"purchase>purchaseNumber"`
	CommonNumber   string `xml:"commonInfo>purchaseNumber"`
}

// partialNotice returns the decoder of a document that changes a notice in
// a way no tender event describes. Applying one needs the current tender,
// which a decoder does not have: the document is rejected, naming what it is
// and the purchase it concerns.
func partialNotice(what string) documentFunc {
	return func(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
		var w partialNoticeWire
		if err := d.DecodeElement(&w, &start); err != nil {
			return nil, err
		}
		number := firstOf(cleanText(w.PurchaseNumber), cleanText(w.Purchase), cleanText(w.CommonNumber), "an unnamed purchase")
		return nil, tenderbase.Errorf(tenderbase.EINVALID,
			"%s of %s: changes that do not restate the notice are not applied yet", what, number)
	}
}

// event223Wire is a 223-FZ purchaseRejection (the customer's refusal to
// hold a purchase) or purchaseLotCancellation. Each item of its body is one
// document.
type event223Wire struct {
	Items []struct {
		Rejection *rejection223Data `xml:"purchaseRejectionData"`
		LotCancel *lotCancel223Data `xml:"purchaseLotCancellationData"`
	} `xml:"body>item"`
}

// published223 is what every 223-FZ event document gives of itself.
type published223 struct {
	GUID      string  `xml:"guid"`
	Published eisTime `xml:"publicationDateTime"`
	Created   eisTime `xml:"createDateTime"`
	URL       string  `xml:"urlEIS"`
}

// event returns an event of the document: its id, law, document, date and
// address.
func (p published223) event(kind, typ, number string) *tenderbase.TenderEvent {
	return &tenderbase.TenderEvent{
		ID:             cleanText(p.GUID),
		PurchaseNumber: cleanText(number),
		Law:            tenderbase.Law223,
		Type:           typ,
		Document:       kind,
		PublishedAt:    firstTime(p.Published.Time, p.Created.Time),
		URL:            cleanText(p.URL),
	}
}

// rejection223Data is a purchaseRejectionData: the purchase is cancelled.
type rejection223Data struct {
	published223
	Number string  `xml:"cancelNoticeRegistrationNumber"`
	Date   eisTime `xml:"rejectionDate"`
	Cause  string  `xml:"causeForRejection"`
}

// lotCancel223Data is a purchaseLotCancellationData: some lots are
// cancelled, each for its own reason or all for the document's.
type lotCancel223Data struct {
	published223
	Number string `xml:"purchaseInfo>purchaseNoticeNumber"`
	Lots   []struct {
		Ordinal string  `xml:"ordinalNumber"`
		Date    eisTime `xml:"cancellation>cancelDate"`
		Info    string  `xml:"cancellation>cancelInfo"`
	} `xml:"cancelledLots>cancelledLot"`
	Date        eisTime `xml:"cancelDate"`
	Description string  `xml:"description"`
}

// decodeEvents223 decodes a 223-FZ event document: a cancellation per
// rejection, a lot cancellation per lot cancelled.
func decodeEvents223(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w event223Wire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	var recs []tenderbase.Record
	for _, item := range w.Items {
		var events []*tenderbase.TenderEvent
		var err error
		switch {
		case item.Rejection != nil:
			events = []*tenderbase.TenderEvent{item.Rejection.event(src.kind)}
		case item.LotCancel != nil:
			events, err = item.LotCancel.events(src.kind)
		}
		for _, e := range events {
			if err == nil {
				err = checkEvent(e)
			}
			recs = append(recs, e)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(recs) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s holds no item", src.kind)
	}
	return recs, nil
}

// event adapts the rejection; the reason is the customer's decision and
// its cause.
func (r *rejection223Data) event(kind string) *tenderbase.TenderEvent {
	e := r.published223.event(kind, tenderbase.EventCancellation, r.Number)
	e.Reason = joinNonEmpty([]string{customerDecision(r.Date.Time), cleanText(r.Cause)}, "; ")
	return e
}

// events returns an event per lot cancelled. A document may cancel several
// lots, so each event's id is the document's followed by the lot number.
func (c *lotCancel223Data) events(kind string) ([]*tenderbase.TenderEvent, error) {
	common := joinNonEmpty([]string{customerDecision(c.Date.Time), cleanText(c.Description)}, "; ")
	var out []*tenderbase.TenderEvent
	for _, l := range c.Lots {
		n, err := parseVersion(l.Ordinal, 0)
		if err != nil || n == 0 {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "lot number %q is not a whole number", cleanText(l.Ordinal))
		}
		e := c.published223.event(kind, tenderbase.EventLotCancellation, c.Number)
		if e.LotNumber = n; e.ID != "" {
			e.ID += "-" + strconv.Itoa(n)
		}
		e.Reason = firstOf(joinNonEmpty([]string{customerDecision(l.Date.Time), cleanText(l.Info)}, "; "), common)
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "lot cancellation of %s names no lot", cleanText(c.Number))
	}
	return out, nil
}

// eventID qualifies a document's number with its kind; no number gives no
// id, which the event's check refuses.
func eventID(kind, number string) string {
	if number == "" {
		return ""
	}
	return kind + "-" + number
}
