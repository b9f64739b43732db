package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's TED contract award notices (form F03, the result of an open
// procedure under Directive 2014/24/EU), in the shape of the R2.0.9
// notices TED published since 2019: the form repeats the contract notice's
// buyer and object, the total awarded in place of the estimate, and gives
// an <AWARD_CONTRACT> a lot whose contract, tenders, contractors and values
// sit each in their own element of <AWARDED_CONTRACT>. A notice not divided
// into lots gives its award lot number 1.

// tedAwardSeed is the seed of the TED results, drawn apart from the
// eForms and OCDS ones so that those stay as they were.
const tedAwardSeed = awardSeed + 1

type tedAward struct {
	Item       string     `xml:"ITEM,attr"`
	ContractNo string     `xml:"CONTRACT_NO"`
	LotNo      string     `xml:"LOT_NO"`
	Title      tedP       `xml:"TITLE"`
	Awarded    tedAwarded `xml:"AWARDED_CONTRACT"`
}

type tedAwarded struct {
	Concluded   string          `xml:"DATE_CONCLUSION_CONTRACT"`
	Received    int             `xml:"TENDERS>NB_TENDERS_RECEIVED"`
	ReceivedSME int             `xml:"TENDERS>NB_TENDERS_RECEIVED_SME,omitempty"`
	NoGroup     struct{}        `xml:"CONTRACTORS>NO_AWARDED_TO_GROUP"`
	Contractors []tedContractor `xml:"CONTRACTORS>CONTRACTOR"`
	Estimated   *tedAmount      `xml:"VALUES>VAL_ESTIMATED_TOTAL"`
	Total       tedAmount       `xml:"VALUES>VAL_TOTAL"`
}

type tedContractor struct {
	Name       string    `xml:"ADDRESS_CONTRACTOR>OFFICIALNAME"`
	NationalID string    `xml:"ADDRESS_CONTRACTOR>NATIONALID"`
	Town       string    `xml:"ADDRESS_CONTRACTOR>TOWN"`
	Country    tedValue  `xml:"ADDRESS_CONTRACTOR>COUNTRY"`
	SME        *struct{} `xml:"SME"`
	NoSME      *struct{} `xml:"NO_SME"`
}

// tedAwardNotice returns the contract award notice of the TED tender w
// with the award a, numbered after it; false when it would come after the
// demo's last day. It is given as the notice gives it: no deadline, no
// documents, no estimate of the whole (the award's own is kept), the
// contract's date without a zone and its winners without their size.
func tedAwardNotice(w *tenderbase.WorldTender, a tenderbase.WorldAward, s *source) (*tenderbase.WorldTender, bool) {
	at, ok := s.awardNoticeDay(a)
	if !ok {
		return nil, false
	}
	number, _, _ := strings.Cut(strings.TrimPrefix(w.ID, "ted:"), "-")
	docID := fmt.Sprintf("%06d-%d", (atoi(number)-100000+s.between(1000, 90000))%900000+100000, at.Year())
	n := *w
	n.ID, n.URL = "ted:"+docID, tedURL(docID, w.Language)
	n.NoticeType, n.PublishedAt, n.Deadline = "Contract award notice", at, time.Time{}
	n.Documents, n.Value, n.Currency = nil, 0, ""
	signed := a.ContractDate
	a.LotID, a.Estimated, a.AwardDate = "1", w.Value, time.Time{}
	a.ContractDate = time.Date(signed.Year(), signed.Month(), signed.Day(), 0, 0, 0, 0, time.UTC)
	a.LowestTender, a.HighestTender = 0, 0
	for i := range a.Winners {
		a.Winners[i].Size = ""
	}
	n.Awards = []tenderbase.WorldAward{a}
	n.AwardedValue, n.AwardedCurrency = a.Value, a.Currency
	return &n, true
}

// awardExport makes e, filled as the contract notice of w, its award
// notice: form F03 with the total awarded and an AWARD_CONTRACT for each
// award of w, no deadline and no documents.
func awardExport(e *tedExport, w *tenderbase.WorldTender) {
	e.Technical.DeletionDate = w.PublishedAt.AddDate(0, 3, 0).Format("20060102")
	data, codif := &e.Coded.Data, &e.Coded.Codified
	data.ETendering = ""
	data.Value = tedValueText{Type: "PROCUREMENT_TOTAL", Currency: w.AwardedCurrency, Amount: amount(w.AwardedValue)}
	codif.Submission, codif.Document, codif.Heading = "", tedCode{Code: "7", Text: w.NoticeType}, "01B03"
	f := e.Form
	e.Form, e.Award = nil, f
	f.Form = "F03"
	f.Body.DocumentFull, f.Body.FurtherInfoIdem, f.Body.URLDocument, f.Body.URLParticipation = nil, nil, "", ""
	f.Object.Estimated = nil
	f.Object.Total = &tedAmount{Currency: w.AwardedCurrency, Amount: amount(w.AwardedValue)}
	f.Procedure = tedProcedure{}
	for i, a := range w.Awards {
		aw := tedAward{Item: fmt.Sprint(i + 1), ContractNo: a.ContractID, LotNo: a.LotID, Title: tedP{P: a.Title},
			Awarded: tedAwarded{Concluded: a.ContractDate.Format(time.DateOnly), Received: a.TendersReceived, ReceivedSME: a.TendersSME,
				Total: tedAmount{Currency: a.Currency, Amount: amount(a.Value)}}}
		if a.Estimated > 0 {
			aw.Awarded.Estimated = &tedAmount{Currency: a.Currency, Amount: amount(a.Estimated)}
		}
		for _, win := range a.Winners {
			aw.Awarded.Contractors = append(aw.Awarded.Contractors, tedWinner(win))
		}
		f.Awards = append(f.Awards, aw)
	}
}

// tedWinner returns the contractor of a winner: its name, VAT number, town
// and country, and whether it is an SME.
func tedWinner(win tenderbase.WorldWinner) tedContractor {
	c, _ := countryOf(win.Country)
	k := tedContractor{Name: win.Name, NationalID: win.ID, Town: win.Town, Country: tedValue{Value: c.Alpha2}}
	if win.SME {
		k.SME = &struct{}{}
	} else {
		k.NoSME = &struct{}{}
	}
	return k
}
