package eis

import (
	"encoding/xml"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// executions decodes what customers report of their contracts' performance:
// the 44-FZ contractProcedure and its withdrawal, and the 223-FZ
// performanceContract.
var executions = map[string]documentFunc{
	"contractProcedure":       decodeContractProcedure,
	"contractProcedureCancel": decodeContractProcedureCancel,
	"performanceContract":     decodePerformanceContract,
}

// contractProcedureWire is a 44-FZ contractProcedure: the execution of one
// stage of a registered contract (its payments and acceptances), its
// termination, or a court's annulment of it. Penalties, bank guarantees and
// refunds of overpayments are not read.
type contractProcedureWire struct {
	ID            string              `xml:"id"`
	RegNum        string              `xml:"regNum"`
	PublishDate   eisTime             `xml:"publishDate"`
	VersionNumber int                 `xml:"versionNumber"`
	Executions    *stageExecutionWire `xml:"executions"`
	Termination   *terminationWire    `xml:"termination"`
	Invalidation  *invalidationWire   `xml:"contractInvalidation"`
	PrintForm     string              `xml:"printForm>url"`
	ContractStage string              `xml:"currentContractStage"`
	// The files, in the order the scheme lists them.
	TerminationFiles []attachmentWire `xml:"terminationDocuments>attachment"`
	Payments         []attachmentWire `xml:"paymentDocuments>attachment"`
	Receipts         []attachmentWire `xml:"receiptDocuments>attachment"`
	Origins          []attachmentWire `xml:"productOriginDocuments>attachment"`
	Examinations     []attachmentWire `xml:"examinationResultsDocuments>attachment"`
}

// stageExecutionWire is the execution of one stage. A stage is named by its
// dates, or in reports of 94-FZ contracts by the month it ends in.
type stageExecutionWire struct {
	Stage struct {
		StartDate eisTime         `xml:"startDate"`
		EndDate   eisTime         `xml:"endDate"`
		OldStage  contract44Month `xml:"oldStage"`
	} `xml:"stage"`
	OrdinalNumber int                 `xml:"ordinalNumber"`
	Final         bool                `xml:"finalStageExecution"`
	Executions    []executionItemWire `xml:"execution"`
}

// executionItemWire is one document of a stage's execution: a payment
// document, an acceptance document or another document of performance,
// with the sums paid under it.
type executionItemWire struct {
	PayDoc        *executionDocWire `xml:"payDoc"`
	DocAcceptance *executionDocWire `xml:"docAcceptance"`
	DocExecution  *executionDocWire `xml:"docExecution"`
	Currency      string            `xml:"currency>code"`
	Paid          string            `xml:"paid"`
	PaidRUR       string            `xml:"paidRUR"`
	PaidVAT       string            `xml:"paidVAT"`
	Improper      string            `xml:"improperExecutionText"`
}

// executionDocWire is the document itself. A payment document has a name
// of its own; an acceptance document is named from a classifier.
type executionDocWire struct {
	DocumentName string  `xml:"documentName"`
	Name         string  `xml:"name"`
	DocumentDate eisTime `xml:"documentDate"`
	DocumentNum  string  `xml:"documentNum"`
	Fulfilment   string  `xml:"fulfilmentSum"`
	// Advance marks an advance payment, made before acceptance.
	Advance bool `xml:"payDocTypeInfo>advancePaymentPayDoc>isAdvancePaymentPayDoc"`
	// Files are the scans of an acceptance document.
	Files []attachmentWire `xml:"receiptDocuments>attachment"`
}

type terminationWire struct {
	Paid       string  `xml:"paid"`
	Date       eisTime `xml:"terminationDate"`
	ReasonInfo string  `xml:"reasonInfo"`
	Reason     string  `xml:"reason>name"`
	Document   string  `xml:"docTermination>name"`
}

type invalidationWire struct {
	Paid     string           `xml:"paid"`
	Reason   string           `xml:"invalidationReason>name"`
	Document string           `xml:"invalidationReasonDocument>name"`
	Date     eisTime          `xml:"invalidationDate"`
	Files    []attachmentWire `xml:"invalidationDocuments>attachment"`
}

func decodeContractProcedure(d *xml.Decoder, start xml.StartElement, _ source) ([]tenderbase.Record, error) {
	var w contractProcedureWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	rec, err := w.record()
	if err != nil {
		return nil, err
	}
	return []tenderbase.Record{rec}, nil
}

// record adapts the report to the domain.
func (w *contractProcedureWire) record() (*tenderbase.ContractExecution, error) {
	id, regNum := cleanText(w.ID), cleanText(w.RegNum)
	if id == "" || regNum == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "contractProcedure without its id or the contract's regNum")
	}
	e := &tenderbase.ContractExecution{
		ID:          id,
		RegNumber:   regNum,
		Law:         tenderbase.Law44,
		Document:    "contractProcedure",
		Version:     w.VersionNumber,
		PublishedAt: w.PublishDate.Time,
		Termination: w.termination(),
		URL: firstOf(cleanText(w.PrintForm),
			"https://zakupki.gov.ru/epz/contract/contractCard/process-info.html?reestrNumber="+regNum),
	}
	if x := w.Executions; x != nil {
		e.Stage = &tenderbase.ExecutionStage{
			Number:   x.OrdinalNumber,
			StartsAt: x.Stage.StartDate.Time,
			EndsAt:   firstTime(x.Stage.EndDate.Time, contractMonthEnd(x.Stage.OldStage.Year, x.Stage.OldStage.Month)),
			Final:    x.Final,
		}
		for _, item := range x.Executions {
			doc, files := item.document()
			e.Documents = append(e.Documents, doc)
			e.Attachments = append(e.Attachments, files...)
		}
	}
	var annulment []attachmentWire
	if w.Invalidation != nil {
		annulment = w.Invalidation.Files
	}
	for _, list := range [][]attachmentWire{w.TerminationFiles, annulment, w.Payments, w.Receipts, w.Origins, w.Examinations} {
		e.Attachments = append(e.Attachments, attachmentsOf(list)...)
	}
	e.Status = executionStatus(contract44Stages[cleanText(w.ContractStage)], e)
	return e, nil
}

// termination returns the termination or the annulment the report gives,
// or nil.
func (w *contractProcedureWire) termination() *tenderbase.ContractTermination {
	switch {
	case w.Termination != nil:
		t := w.Termination
		return &tenderbase.ContractTermination{
			Type:     tenderbase.TerminationEnded,
			Date:     t.Date.Time,
			Reason:   joinDistinct(cleanText(t.Reason), cleanText(t.ReasonInfo)),
			Document: cleanText(t.Document),
			Paid:     parseAmount(t.Paid),
		}
	case w.Invalidation != nil:
		t := w.Invalidation
		return &tenderbase.ContractTermination{
			Type:     tenderbase.TerminationAnnulled,
			Date:     t.Date.Time,
			Reason:   cleanText(t.Reason),
			Document: cleanText(t.Document),
			Paid:     parseAmount(t.Paid),
		}
	}
	return nil
}

// document returns the execution document with its sums, and its files. An
// acceptance document gives the sum accepted; a payment, the sum paid.
func (w executionItemWire) document() (tenderbase.ExecutionDocument, []tenderbase.Attachment) {
	doc := tenderbase.ExecutionDocument{
		Currency:          currencyOr(w.Currency),
		Amount:            parseAmount(w.Paid),
		AmountRUB:         parseAmount(w.PaidRUR),
		VAT:               parseAmount(w.PaidVAT),
		ImproperExecution: cleanText(w.Improper),
	}
	var source *executionDocWire
	switch {
	case w.PayDoc != nil:
		doc.Type, source = tenderbase.ExecutionPayment, w.PayDoc
	case w.DocAcceptance != nil:
		doc.Type, source = tenderbase.ExecutionAcceptance, w.DocAcceptance
	case w.DocExecution != nil:
		doc.Type, source = tenderbase.ExecutionOther, w.DocExecution
	default:
		doc.Type, source = tenderbase.ExecutionOther, &executionDocWire{}
	}
	doc.Name = firstOf(cleanText(source.DocumentName), cleanText(source.Name))
	doc.Number = cleanText(source.DocumentNum)
	doc.Date = source.DocumentDate.Time
	doc.Advance = source.Advance
	if doc.Amount == 0 {
		doc.Amount = parseAmount(source.Fulfilment)
	}
	return doc, attachmentsOf(source.Files)
}

// executionStatus returns the contract's state after report e: the state
// the report gives, else the one its termination or its final stage implies.
func executionStatus(given string, e *tenderbase.ContractExecution) string {
	switch {
	case given != "":
		return given
	case e.Termination != nil && e.Termination.Type == tenderbase.TerminationAnnulled:
		return tenderbase.ContractAnnulled
	case e.Termination != nil:
		return tenderbase.ContractTerminated
	case e.Stage != nil && e.Stage.Final:
		return tenderbase.ContractCompleted
	}
	return ""
}

// joinDistinct joins the non-empty texts with "; ", leaving out a text
// that repeats an earlier one but for case.
func joinDistinct(texts ...string) string {
	var out []string
	for _, t := range texts {
		if t == "" {
			continue
		}
		seen := false
		for _, o := range out {
			seen = seen || strings.EqualFold(o, t)
		}
		if !seen {
			out = append(out, t)
		}
	}
	return strings.Join(out, "; ")
}

// contractProcedureCancelWire withdraws a contractProcedure, named by its
// id. It has no id of its own: one withdrawal is all a report can have.
type contractProcedureCancelWire struct {
	Cancelled    string  `xml:"cancelledProcedureId"`
	CancelDate   eisTime `xml:"cancelDate"`
	Reason       string  `xml:"reason"`
	Invalidation struct {
		Court string  `xml:"courtName"`
		Doc   string  `xml:"docName"`
		Date  eisTime `xml:"docDate"`
	} `xml:"contractInvalidationCancel>cancelReason"`
}

// decodeContractProcedureCancel decodes the withdrawal of a report of a
// contract's execution into a withdrawal record, which hides the report
// whether it was imported before or comes later. A withdrawn annulment
// gives the court's decision as its reason.
func decodeContractProcedureCancel(d *xml.Decoder, start xml.StartElement, _ source) ([]tenderbase.Record, error) {
	var w contractProcedureCancelWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	target := cleanText(w.Cancelled)
	if target == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "contractProcedureCancel without cancelledProcedureId")
	}
	return []tenderbase.Record{&tenderbase.Withdrawal{
		ID:          "contractProcedureCancel-" + target,
		TargetKind:  tenderbase.KindContractExecution,
		TargetKey:   target,
		Document:    "contractProcedureCancel",
		PublishedAt: firstTime(w.CancelDate.Time, w.Invalidation.Date.Time),
		Reason:      joinDistinct(cleanText(w.Reason), cleanText(w.Invalidation.Doc), cleanText(w.Invalidation.Court)),
	}}, nil
}

// performanceContractWire is a 223-FZ performanceContract: items, each the
// performance of one contract in one version: its payments, the documents
// accepting what was supplied, and whether the performance is complete.
type performanceContractWire struct {
	Items []performanceDataWire `xml:"body>item>performanceContractData"`
}

type performanceDataWire struct {
	GUID              string            `xml:"guid"`
	ContractRegNumber string            `xml:"contractRegNumber"`
	URLEIS            string            `xml:"urlEIS"`
	URLOOS            string            `xml:"urlOOS"`
	CreateDateTime    eisTime           `xml:"createDateTime"`
	PublicationDate   eisTime           `xml:"publicationDate"`
	Version           int               `xml:"version"`
	Completed         bool              `xml:"completed"`
	StageEnd          eisTime           `xml:"completionStageEndDate"`
	Positions         []paymentWire     `xml:"positions>position"`
	Attachments       []document223Wire `xml:"attachments>document"`
}

// paymentWire is a position of a 223-FZ performance: a payment with the
// documents of acceptance it pays for. Schemes since 2019 move the payment
// into paymentInfos, one position holding several.
type paymentWire struct {
	paymentInfoWire
	Infos []paymentInfoWire `xml:"paymentInfos>paymentInfo"`
	Docs  []acceptance223   `xml:"docs>doc"`
}

type paymentInfoWire struct {
	PaymentDate eisTime `xml:"paymentDate"`
	Price       string  `xml:"price"`
	Currency    string  `xml:"currency>code"`
	RubPrice    string  `xml:"rubPrice"`
	Prepaid     bool    `xml:"prepaid"`
}

type acceptance223 struct {
	Date   eisTime `xml:"date"`
	Name   string  `xml:"name"`
	Number string  `xml:"number"`
}

// document223Wire is a file attached to a 223-FZ document.
type document223Wire struct {
	FileName    string `xml:"fileName"`
	Description string `xml:"description"`
	URL         string `xml:"url"`
	RegNumber   string `xml:"registrationNumber"`
}

// decodePerformanceContract decodes the document that start opens: one
// ContractExecution per item.
func decodePerformanceContract(d *xml.Decoder, start xml.StartElement, _ source) ([]tenderbase.Record, error) {
	var w performanceContractWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	if len(w.Items) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "performanceContract holds no item with performanceContractData")
	}
	recs := make([]tenderbase.Record, 0, len(w.Items))
	for i, item := range w.Items {
		id, regNum := cleanText(item.GUID), cleanText(item.ContractRegNumber)
		if id == "" || regNum == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "performanceContract item %d without its guid or contractRegNumber", i+1)
		}
		e := &tenderbase.ContractExecution{
			ID:          id,
			RegNumber:   regNum,
			Law:         tenderbase.Law223,
			Document:    "performanceContract",
			Version:     item.Version,
			PublishedAt: firstTime(item.PublicationDate.Time, item.CreateDateTime.Time),
			Documents:   item.documents(),
			URL:         firstOf(cleanText(item.URLEIS), cleanText(item.URLOOS)),
		}
		if !item.StageEnd.IsZero() || item.Completed {
			e.Stage = &tenderbase.ExecutionStage{EndsAt: item.StageEnd.Time, Final: item.Completed}
		}
		e.Attachments = append(e.Attachments, attachments223(item.Attachments)...)
		e.Status = executionStatus("", e)
		recs = append(recs, e)
	}
	return recs, nil
}

// documents returns each payment, followed by the acceptance documents it
// pays for.
func (w performanceDataWire) documents() []tenderbase.ExecutionDocument {
	var docs []tenderbase.ExecutionDocument
	for _, p := range w.Positions {
		for _, info := range append([]paymentInfoWire{p.paymentInfoWire}, p.Infos...) {
			if info.PaymentDate.IsZero() && info.Price == "" {
				continue
			}
			docs = append(docs, tenderbase.ExecutionDocument{
				Type:      tenderbase.ExecutionPayment,
				Advance:   info.Prepaid,
				Date:      info.PaymentDate.Time,
				Amount:    parseAmount(info.Price),
				Currency:  currencyOr(info.Currency),
				AmountRUB: parseAmount(info.RubPrice),
			})
		}
		for _, a := range p.Docs {
			docs = append(docs, tenderbase.ExecutionDocument{
				Type: tenderbase.ExecutionAcceptance, Name: cleanText(a.Name), Number: cleanText(a.Number), Date: a.Date.Time,
			})
		}
	}
	return docs
}
