package demo

import (
	"encoding/xml"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's reports of contracts' performance as 44-FZ contractProcedure
// documents of scheme 14.1. The codes of the termination's reason and
// document are those of the EIS classifiers for termination by agreement
// and an additional agreement.

// contractProcedureWire is a contractProcedure.
type contractProcedureWire struct {
	XMLName       xml.Name            `xml:"http://zakupki.gov.ru/oos/export/1 contractProcedure"`
	SchemeVersion string              `xml:"schemeVersion,attr"`
	ID            string              `xml:"http://zakupki.gov.ru/oos/types/1 id"`
	RegNum        string              `xml:"http://zakupki.gov.ru/oos/types/1 regNum"`
	PublishDate   string              `xml:"http://zakupki.gov.ru/oos/types/1 publishDate"`
	VersionNumber int                 `xml:"http://zakupki.gov.ru/oos/types/1 versionNumber"`
	Executions    *stageExecutionWire `xml:"http://zakupki.gov.ru/oos/types/1 executions"`
	Termination   *terminationWire    `xml:"http://zakupki.gov.ru/oos/types/1 termination"`
	PrintForm     *printFormWire      `xml:"http://zakupki.gov.ru/oos/types/1 printForm"`
	Stage         string              `xml:"http://zakupki.gov.ru/oos/types/1 currentContractStage,omitempty"`
}

type printFormWire struct {
	URL string `xml:"url"`
}

type stageExecutionWire struct {
	StartDate string          `xml:"stage>startDate,omitempty"`
	EndDate   string          `xml:"stage>endDate,omitempty"`
	Ordinal   int             `xml:"ordinalNumber"`
	Final     bool            `xml:"finalStageExecution"`
	Items     []executionWire `xml:"execution"`
}

type executionWire struct {
	Name     string `xml:"payDoc>documentName"`
	Date     string `xml:"payDoc>documentDate"`
	Number   string `xml:"payDoc>documentNum"`
	Advance  *bool  `xml:"payDoc>payDocTypeInfo>advancePaymentPayDoc>isAdvancePaymentPayDoc"`
	Currency string `xml:"currency>code"`
	Paid     string `xml:"paid"`
	PaidRUR  string `xml:"paidRUR,omitempty"`
}

type terminationWire struct {
	Date         string `xml:"terminationDate"`
	ReasonCode   string `xml:"reason>code"`
	Reason       string `xml:"reason>name"`
	DocumentCode string `xml:"docTermination>code"`
	Document     string `xml:"docTermination>name"`
}

// executionFile returns report e as a contractProcedure.
func executionFile(e *tenderbase.ContractExecution) (File, error) {
	if len(e.Documents) > 0 && e.Stage == nil {
		return File{}, fmt.Errorf("payments without a stage: the demo's reports are of stage 1")
	}
	w := &contractProcedureWire{
		SchemeVersion: "14.1",
		ID:            e.ID,
		RegNum:        e.RegNumber,
		PublishDate:   eisTime(e.PublishedAt),
		VersionNumber: e.Version,
		PrintForm:     &printFormWire{URL: e.URL},
		Stage:         contractStages[e.Status],
	}
	if s := e.Stage; s != nil {
		w.Executions = &stageExecutionWire{StartDate: eisDate(s.StartsAt), EndDate: eisDate(s.EndsAt), Ordinal: s.Number, Final: s.Final}
		for _, d := range e.Documents {
			item := executionWire{Name: d.Name, Date: eisDate(d.Date), Number: d.Number, Currency: d.Currency,
				Paid: amount(d.Amount), PaidRUR: amount(d.AmountRUB)}
			if d.Advance {
				item.Advance = &d.Advance
			}
			w.Executions.Items = append(w.Executions.Items, item)
		}
	}
	if t := e.Termination; t != nil {
		w.Termination = &terminationWire{Date: eisDate(t.Date), ReasonCode: "1", Reason: t.Reason, DocumentCode: "11", Document: t.Document}
	}
	return encodeEIS(fmt.Sprintf("contractProcedure_%s_%s.xml", e.RegNumber, e.ID), eisExport{Document: w})
}

// eisDate writes the date of t as the EIS does; zero is empty.
func eisDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}
