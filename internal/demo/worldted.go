package demo

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/ted"
)

// The demo's oldest world tenders as TED XML R2.0.9 (<TED_EXPORT>), the
// shape TED published the standard forms in before eForms, and
// internal/source/ted reads: one contract notice (form F02) or contract
// award notice (form F03, worldtedaward.go) a file, in the buyer's
// language, with the coded data section TED adds to every notice.

// TEDBorn reports whether r comes in through the demo's TED XML.
var TEDBorn = worldBorn("ted:")

// tedNatures are TED's codes of the nature of a contract.
var tedNatures = map[string]string{"works": "1", "supplies": "2", "services": "4"}

// cpvLabels are the English names of the CPV codes the demo's subjects use.
var cpvLabels = map[string]string{
	"33600000": "Pharmaceutical products", "33690000": "Various medicinal products",
	"45261210": "Roof-repair work", "45261420": "Waterproofing work",
	"50750000": "Lift-maintenance services",
	"72260000": "Software-related services", "72267000": "Software maintenance and repair services",
	"34144900": "Electric vehicles",
	"90910000": "Cleaning services", "90911200": "Building-cleaning services",
	"55523100": "School-meal services",
	"33111000": "X-ray devices", "33115000": "Tomography devices",
	"71320000": "Engineering design services", "71311300": "Infrastructure works consultancy services",
	"09310000": "Electricity",
}

// tedNotice makes w a TED contract notice numbered n.number: its id and
// address on TED, and the rest as the notice gives it.
func tedNotice(w *tenderbase.WorldTender, n worldNotice) {
	year := w.PublishedAt.Year()
	w.ID = fmt.Sprintf("ted:%06d-%d", n.number, year)
	w.Source = "ted"
	w.URL = tedURL(strings.TrimPrefix(w.ID, "ted:"), w.Language)
	w.Buyer.Address = n.buyer.Street + ", " + n.buyer.PostCode + ", " + n.buyer.Town
	w.NoticeType, w.ProcedureType, w.ContractType = "Contract notice", "Open procedure", n.subject.Nature
	w.Documents = []tenderbase.Attachment{{URL: n.documentsURL(), Description: "procurement documents"}}
}

// tedURL returns the address on TED of the notice docID in language lang.
func tedURL(docID, lang string) string {
	return "https://ted.europa.eu/udl?uri=TED:NOTICE:" + docID + ":TEXT:" + strings.ToUpper(lang) + ":HTML"
}

// WriteTED returns the TED XML notices of the world tenders of recs born
// of TED, one file each, named by notice number.
func WriteTED(recs []tenderbase.Record) ([]File, error) {
	return writeWorld(recs, TEDBorn, "ted:", ".xml", func(w *tenderbase.WorldTender) ([]byte, error) {
		doc, err := newTEDExport(w)
		if err != nil {
			return nil, err
		}
		f, err := encodeEIS("", doc)
		return f.Data, err
	})
}

type tedExport struct {
	XMLName        xml.Name       `xml:"TED_EXPORT"`
	Xmlns          string         `xml:"xmlns,attr"`
	XmlnsXlink     string         `xml:"xmlns:xlink,attr"`
	XmlnsXsi       string         `xml:"xmlns:xsi,attr"`
	SchemaLocation string         `xml:"xsi:schemaLocation,attr"`
	Version        string         `xml:"VERSION,attr"`
	DocID          string         `xml:"DOC_ID,attr"`
	Edition        string         `xml:"EDITION,attr"`
	Technical      tedTechnical   `xml:"TECHNICAL_SECTION"`
	Links          tedLinks       `xml:"LINKS_SECTION"`
	Coded          tedCoded       `xml:"CODED_DATA_SECTION"`
	Translation    tedTranslation `xml:"TRANSLATION_SECTION"`
	Form           *tedForm       `xml:"FORM_SECTION>F02_2014,omitempty"`
	Award          *tedForm       `xml:"FORM_SECTION>F03_2014,omitempty"`
}

type tedTechnical struct {
	ReceptionID  string `xml:"RECEPTION_ID"`
	DeletionDate string `xml:"DELETION_DATE"`
	FormLgList   string `xml:"FORM_LG_LIST"`
}

type tedLink struct {
	Type  string `xml:"xlink:type,attr"`
	Href  string `xml:"xlink:href,attr"`
	Title string `xml:"xlink:title,attr,omitempty"`
}

type tedLinks struct {
	Schema      tedLink `xml:"XML_SCHEMA_DEFINITION_LINK"`
	Forms       tedLink `xml:"OFFICIAL_FORMS_LINK"`
	Labels      tedLink `xml:"FORMS_LABELS_LINK"`
	OriginalCPV tedLink `xml:"ORIGINAL_CPV_LINK"`
}

type tedCoded struct {
	CollOJ   string       `xml:"REF_OJS>COLL_OJ"`
	NoOJ     string       `xml:"REF_OJS>NO_OJ"`
	DatePub  string       `xml:"REF_OJS>DATE_PUB"`
	Data     tedData      `xml:"NOTICE_DATA"`
	Codified tedCodifData `xml:"CODIF_DATA"`
}

type tedData struct {
	NoDocOJS   string       `xml:"NO_DOC_OJS"`
	URI        tedLangText  `xml:"URI_LIST>URI_DOC"`
	LgOrig     string       `xml:"LG_ORIG"`
	Country    tedValue     `xml:"ISO_COUNTRY"`
	ETendering string       `xml:"IA_URL_ETENDERING,omitempty"`
	CPV        []tedCPV     `xml:"ORIGINAL_CPV"`
	Value      tedValueText `xml:"VALUES>VALUE"`
}

type tedLangText struct {
	LG   string `xml:"LG,attr"`
	Text string `xml:",chardata"`
}

type tedValue struct {
	Value string `xml:"VALUE,attr"`
}

type tedCPV struct {
	Code  string `xml:"CODE,attr"`
	Label string `xml:",chardata"`
}

type tedValueText struct {
	Type     string `xml:"TYPE,attr"`
	Currency string `xml:"CURRENCY,attr"`
	Amount   string `xml:",chardata"`
}

type tedCode struct {
	Code string `xml:"CODE,attr"`
	Text string `xml:",chardata"`
}

type tedCodifData struct {
	Dispatch   string  `xml:"DS_DATE_DISPATCH"`
	Submission string  `xml:"DT_DATE_FOR_SUBMISSION,omitempty"`
	Document   tedCode `xml:"TD_DOCUMENT_TYPE"`
	Nature     tedCode `xml:"NC_CONTRACT_NATURE"`
	Procedure  tedCode `xml:"PR_PROC"`
	Regulation tedCode `xml:"RP_REGULATION"`
	TypeBid    tedCode `xml:"TY_TYPE_BID"`
	AwardCrit  tedCode `xml:"AC_AWARD_CRIT"`
	Heading    string  `xml:"HEADING"`
	Initiator  string  `xml:"INITIATOR"`
}

type tedTranslation struct {
	Title  tedTitle    `xml:"ML_TITLES>ML_TI_DOC"`
	AAName tedLangText `xml:"ML_AA_NAMES>AA_NAME"`
}

type tedTitle struct {
	LG      string `xml:"LG,attr"`
	Country string `xml:"TI_CY"`
	Town    string `xml:"TI_TOWN"`
	Text    tedP   `xml:"TI_TEXT"`
}

// tedP is a text of paragraphs, of one here.
type tedP struct {
	P string `xml:"P"`
}

type tedForm struct {
	Category   string       `xml:"CATEGORY,attr"`
	Form       string       `xml:"FORM,attr"`
	LG         string       `xml:"LG,attr"`
	LegalBasis tedValue     `xml:"LEGAL_BASIS"`
	Body       tedBody      `xml:"CONTRACTING_BODY"`
	Object     tedObject    `xml:"OBJECT_CONTRACT"`
	Procedure  tedProcedure `xml:"PROCEDURE"`
	Awards     []tedAward   `xml:"AWARD_CONTRACT"`
	Dispatch   string       `xml:"COMPLEMENTARY_INFO>DATE_DISPATCH_NOTICE"`
}

type tedBody struct {
	Name             string    `xml:"ADDRESS_CONTRACTING_BODY>OFFICIALNAME"`
	Address          string    `xml:"ADDRESS_CONTRACTING_BODY>ADDRESS"`
	Town             string    `xml:"ADDRESS_CONTRACTING_BODY>TOWN"`
	PostalCode       string    `xml:"ADDRESS_CONTRACTING_BODY>POSTAL_CODE"`
	Country          tedValue  `xml:"ADDRESS_CONTRACTING_BODY>COUNTRY"`
	DocumentFull     *struct{} `xml:"DOCUMENT_FULL"`
	URLDocument      string    `xml:"URL_DOCUMENT,omitempty"`
	FurtherInfoIdem  *struct{} `xml:"ADDRESS_FURTHER_INFO_IDEM"`
	URLParticipation string    `xml:"URL_PARTICIPATION,omitempty"`
}

type tedObject struct {
	Title      tedP         `xml:"TITLE"`
	CPVMain    tedValueCode `xml:"CPV_MAIN>CPV_CODE"`
	Type       tedCType     `xml:"TYPE_CONTRACT"`
	Descr      tedP         `xml:"SHORT_DESCR"`
	Estimated  *tedAmount   `xml:"VAL_ESTIMATED_TOTAL"`
	Total      *tedAmount   `xml:"VAL_TOTAL"`
	NoLots     struct{}     `xml:"NO_LOT_DIVISION"`
	ObjectDesc tedObjDescr  `xml:"OBJECT_DESCR"`
}

type tedValueCode struct {
	Code string `xml:"CODE,attr"`
}

// tedAdditional is an additional CPV code: one element each.
type tedAdditional struct {
	CPV tedValueCode `xml:"CPV_CODE"`
}

type tedCType struct {
	CType string `xml:"CTYPE,attr"`
}

type tedAmount struct {
	Currency string `xml:"CURRENCY,attr"`
	Amount   string `xml:",chardata"`
}

type tedObjDescr struct {
	Item       string          `xml:"ITEM,attr"`
	Additional []tedAdditional `xml:"CPV_ADDITIONAL"`
	Descr      tedP            `xml:"SHORT_DESCR"`
}

type tedProcedure struct {
	Open        struct{}  `xml:"PT_OPEN"`
	ReceiptDate string    `xml:"DATE_RECEIPT_TENDERS,omitempty"`
	ReceiptTime string    `xml:"TIME_RECEIPT_TENDERS,omitempty"`
	Language    *tedValue `xml:"LANGUAGES>LANGUAGE"`
}

// newTEDExport fills the notice of w: its contract notice, or its award
// notice when w has awards.
func newTEDExport(w *tenderbase.WorldTender) (*tedExport, error) {
	c, b, err := placeOf(w)
	if err != nil {
		return nil, err
	}
	docID := strings.TrimPrefix(w.ID, "ted:")
	number, _, _ := strings.Cut(docID, "-")
	lg := strings.ToUpper(w.Language)
	at := w.PublishedAt
	issue := ojIssue(at)
	dispatch := at.AddDate(0, 0, -5)
	link := tedLink{Type: "simple", Href: "https://ted.europa.eu"}
	cpvs := make([]tedCPV, len(w.CPVCodes))
	for i, code := range w.CPVCodes {
		cpvs[i] = tedCPV{Code: code, Label: cpvLabels[code]}
	}
	var additional []tedAdditional
	for _, code := range w.CPVCodes[1:] {
		additional = append(additional, tedAdditional{CPV: tedValueCode{Code: code}})
	}
	value := amount(w.Value)
	deadline := w.Deadline // TED gives it as the buyer's clock, in the buyer's zone where its country has one
	if loc := ted.Zone(c.Alpha2, ""); loc != nil {
		deadline = deadline.In(loc)
	}
	documents := ""
	if len(w.Documents) > 0 {
		documents = w.Documents[0].URL
	}
	e := &tedExport{
		Xmlns:          "http://publications.europa.eu/resource/schema/ted/R2.0.9/publication",
		XmlnsXlink:     "http://www.w3.org/1999/xlink",
		XmlnsXsi:       "http://www.w3.org/2001/XMLSchema-instance",
		SchemaLocation: "http://publications.europa.eu/resource/schema/ted/R2.0.9/publication TED_EXPORT.xsd",
		Version:        "R2.0.9.S05.E01",
		DocID:          docID,
		Edition:        fmt.Sprintf("%d%03d", at.Year(), issue),
		Technical: tedTechnical{ReceptionID: fmt.Sprintf("%02d-%s-001", dispatch.Year()%100, number),
			DeletionDate: w.Deadline.Format("20060102"), FormLgList: lg + " "},
		Links: tedLinks{Schema: tedLink{Type: "simple", Href: "https://ted.europa.eu", Title: "TED WEBSITE"},
			Forms: link, Labels: link, OriginalCPV: link},
		Coded: tedCoded{CollOJ: "S", NoOJ: strconv.Itoa(issue), DatePub: at.Format("20060102"),
			Data: tedData{
				NoDocOJS: fmt.Sprintf("%d/S %03d-%s", at.Year(), issue, number),
				URI:      tedLangText{LG: lg, Text: w.URL}, LgOrig: lg, Country: tedValue{Value: c.Alpha2},
				ETendering: c.Platform, CPV: cpvs,
				Value: tedValueText{Type: "ESTIMATED_TOTAL", Currency: w.Currency, Amount: value},
			},
			Codified: tedCodifData{
				Dispatch: dispatch.Format("20060102"), Submission: deadline.Format("20060102 15:04"),
				Document:   tedCode{Code: "3", Text: w.NoticeType},
				Nature:     tedCode{Code: tedNatures[w.ContractType], Text: titleCase(w.ContractType)},
				Procedure:  tedCode{Code: "1", Text: w.ProcedureType},
				Regulation: tedCode{Code: "5", Text: "European Union, with participation by GPA countries"},
				TypeBid:    tedCode{Code: "9", Text: "Not applicable"},
				AwardCrit:  tedCode{Code: "2", Text: "The most economic tender"},
				Heading:    "01A02", Initiator: "01",
			},
		},
		Translation: tedTranslation{
			Title:  tedTitle{LG: lg, Country: c.Local, Town: b.Town, Text: tedP{P: w.Title}},
			AAName: tedLangText{LG: lg, Text: w.Buyer.Name},
		},
		Form: &tedForm{Category: "ORIGINAL", Form: "F02", LG: lg, LegalBasis: tedValue{Value: "32014L0024"},
			Body: tedBody{Name: b.Name, Address: b.Street, Town: b.Town, PostalCode: b.PostCode, Country: tedValue{Value: c.Alpha2},
				DocumentFull: &struct{}{}, URLDocument: documents, FurtherInfoIdem: &struct{}{}, URLParticipation: documents},
			Object: tedObject{Title: tedP{P: w.Title}, CPVMain: tedValueCode{Code: w.CPVCodes[0]},
				Type: tedCType{CType: strings.ToUpper(w.ContractType)}, Descr: tedP{P: w.Description},
				Estimated:  &tedAmount{Currency: w.Currency, Amount: value},
				ObjectDesc: tedObjDescr{Item: "1", Additional: additional, Descr: tedP{P: w.Description}}},
			Procedure: tedProcedure{ReceiptDate: deadline.Format(time.DateOnly), ReceiptTime: deadline.Format("15:04"),
				Language: &tedValue{Value: lg}},
			Dispatch: dispatch.Format(time.DateOnly),
		},
	}
	if len(w.Awards) > 0 {
		awardExport(e, w)
	}
	return e, nil
}

// ojIssue returns the number of the issue of the Official Journal's S
// series of day at: about five a week.
func ojIssue(at time.Time) int { return max(1, at.YearDay()*5/7) }

// titleCase writes a word with a capital, as TED names a contract's nature.
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
