package demo

import (
	"encoding/xml"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// The demo's eForms contract award notices (UBL <ContractAwardNotice>,
// subtype 29: the result of an open procedure under Directive 2014/24/EU),
// in the shape of those TED publishes: the results (efac:NoticeResult)
// name each part once and refer to it by id, a lot result (RES-) to its
// lot, its tenders (TEN-) and its contracts (CON-); a tender to its
// tendering party (TPA-), whose tenderer is an organization (ORG-) beside
// the buyer's.

type efResult struct {
	Total      efAmount      `xml:"cbc:TotalAmount"`
	LotResults []efLotResult `xml:"efac:LotResult"`
	Tenders    []efLotTender `xml:"efac:LotTender"`
	Contracts  []efContract  `xml:"efac:SettledContract"`
	Parties    []efParty     `xml:"efac:TenderingParty"`
}

// efRef refers to a part of the results by its id.
type efRef struct {
	ID efText `xml:"cbc:ID"`
}

type efLotResult struct {
	ID        efText    `xml:"cbc:ID"`
	Higher    *efAmount `xml:"cbc:HigherTenderAmount"`
	Lower     *efAmount `xml:"cbc:LowerTenderAmount"`
	Code      efCode    `xml:"cbc:TenderResultCode"`
	Tenders   []efRef   `xml:"efac:LotTender"`
	Stats     []efStat  `xml:"efac:ReceivedSubmissionsStatistics"`
	Contracts []efRef   `xml:"efac:SettledContract"`
	Lot       efRef     `xml:"efac:TenderLot"`
}

type efStat struct {
	Code   efCode `xml:"efbc:StatisticsCode"`
	Number int    `xml:"efbc:StatisticsNumeric"`
}

type efLotTender struct {
	ID      efText   `xml:"cbc:ID"`
	Ranked  bool     `xml:"efbc:TenderRankedIndicator"`
	Variant bool     `xml:"efbc:TenderVariantIndicator"`
	Payable efAmount `xml:"cac:LegalMonetaryTotal>cbc:PayableAmount"`
	Party   efRef    `xml:"efac:TenderingParty"`
	Lot     efRef    `xml:"efac:TenderLot"`
}

type efContract struct {
	ID        efText     `xml:"cbc:ID"`
	AwardDate string     `xml:"cbc:AwardDate"`
	IssueDate string     `xml:"cbc:IssueDate"`
	Title     efLangText `xml:"cbc:Title"`
	Reference string     `xml:"efac:ContractReference>cbc:ID"`
	Tenders   []efRef    `xml:"efac:LotTender"`
}

type efParty struct {
	ID        efText  `xml:"cbc:ID"`
	Tenderers []efRef `xml:"efac:Tenderer"`
}

// eformsDay writes an eForms date with its zone.
const eformsDay = "2006-01-02Z07:00"

// awardNotice makes n the award notice of w: a notice of the result list
// whose results hold, for each award of w, the lot's result, the winning
// tender, its tendering party and the contract concluded, and whose
// organizations hold the winners after the buyer.
func awardNotice(n *efNotice, w *tenderbase.WorldTender, lang string) {
	n.XMLName = xml.Name{Local: "ContractAwardNotice"}
	n.Xmlns = "urn:oasis:names:specification:ubl:schema:xsd:ContractAwardNotice-2"
	n.Extension.SubType.Code = "29"
	n.NoticeTypeCode.ListName = "result"
	r := &efResult{Total: efAmount{Currency: w.AwardedCurrency, Amount: amount(w.AwardedValue)}}
	for i, a := range w.Awards {
		res, ten, con, tpa := efID("result", "RES", i), efID("tender", "TEN", i), efID("contract", "CON", i), efID("tendering-party", "TPA", i)
		lot := efRef{efText{SchemeName: "Lot", Text: a.LotID}}
		lr := efLotResult{ID: res, Code: efCode{ListName: "winner-selection-status", Code: a.Status},
			Higher:  &efAmount{Currency: a.Currency, Amount: amount(a.HighestTender)},
			Lower:   &efAmount{Currency: a.Currency, Amount: amount(a.LowestTender)},
			Tenders: []efRef{{ten}}, Contracts: []efRef{{con}}, Lot: lot,
			Stats: []efStat{{efCode{ListName: "received-submission-type", Code: "tenders"}, a.TendersReceived}},
		}
		if a.TendersSME > 0 {
			lr.Stats = append(lr.Stats, efStat{efCode{ListName: "received-submission-type", Code: "t-sme"}, a.TendersSME})
		}
		r.LotResults = append(r.LotResults, lr)
		r.Tenders = append(r.Tenders, efLotTender{ID: ten, Payable: efAmount{Currency: a.Currency, Amount: amount(a.Value)}, Party: efRef{tpa}, Lot: lot})
		r.Contracts = append(r.Contracts, efContract{ID: con, AwardDate: a.AwardDate.Format(eformsDay), IssueDate: a.ContractDate.Format(eformsDay),
			Title: efLangText{LanguageID: lang, Text: a.Title}, Reference: a.ContractID, Tenders: []efRef{{ten}}})
		party := efParty{ID: tpa}
		for _, win := range a.Winners {
			org := efID("organization", "ORG", len(n.Extension.Organizations))
			party.Tenderers = append(party.Tenderers, efRef{org})
			n.Extension.Organizations = append(n.Extension.Organizations, efOrganization{winnerCompany(org, win, lang)})
		}
		r.Parties = append(r.Parties, party)
	}
	n.Extension.Result = r
}

// winnerCompany returns the organization of a winner: its size, name, town
// and country, and its VAT number as its legal entity's company id.
func winnerCompany(id efText, win tenderbase.WorldWinner, lang string) efCompany {
	c, _ := countryOf(win.Country)
	return efCompany{
		Size: &efCode{ListName: "economic-operator-size", Code: win.Size}, ID: id,
		Name:      efLangText{LanguageID: lang, Text: win.Name},
		Address:   efAddress{City: win.Town, Country: efCode{ListName: "country", Code: c.Alpha3}},
		CompanyID: win.ID,
	}
}

// efID returns the i-th id, counted from 0, of a kind of part of a
// notice: RES-0001, TEN-0001...
func efID(scheme, prefix string, i int) efText {
	return efText{SchemeName: scheme, Text: fmt.Sprintf("%s-%04d", prefix, i+1)}
}
