package demo

import (
	"crypto/sha1"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's world tenders of the eForms years as eForms contract notices
// (UBL <ContractNotice>, subtype 16: an open procedure under Directive
// 2014/24/EU), the shape TED publishes and internal/source/eforms reads: one
// notice a file, named by its publication number, with one lot. The buyer
// is named once, in the organizations of the extension, and referred to by
// its id. As on TED, the notice's url is its page there and the buyer
// profile one of its documents.

// EFormsBorn reports whether r comes in through the demo's eForms notices.
var EFormsBorn = worldBorn("eforms:")

// eformsLanguages are the ISO 639-2 codes eForms writes languages in.
var eformsLanguages = map[string]string{"de": "DEU", "fr": "FRA", "en": "ENG"}

// eformsNotice makes w an eForms contract notice numbered n.number.
func eformsNotice(w *tenderbase.WorldTender, n worldNotice) {
	w.ID = fmt.Sprintf("eforms:%08d-%d", n.number, w.PublishedAt.Year())
	w.Source = "eforms"
	w.URL = fmt.Sprintf("https://ted.europa.eu/en/notice/-/detail/%d-%d", n.number, w.PublishedAt.Year())
	w.Buyer.Address = n.buyer.Street + ", " + n.buyer.PostCode + ", " + n.buyer.Town
	w.NoticeType, w.ProcedureType, w.ContractType = "cn-standard", "open", n.subject.Nature
	w.Lots = []tenderbase.WorldLot{{ID: "LOT-0001", Title: w.Title, Description: w.Description, CPVCodes: w.CPVCodes,
		Value: w.Value, Currency: w.Currency}}
	w.Documents = []tenderbase.Attachment{{URL: n.documentsURL(), Description: "non-restricted-document"},
		{URL: n.country.Platform, Description: buyerProfile}}
}

// buyerProfile describes the document of a demo eForms tender that is
// its buyer profile (cbc:BuyerProfileURI), not a procurement document.
const buyerProfile = "buyer profile"

// WriteEForms returns the eForms notices of the world tenders of recs born
// of eForms, one file each.
func WriteEForms(recs []tenderbase.Record) ([]File, error) {
	return writeWorld(recs, EFormsBorn, "eforms:", ".xml", func(w *tenderbase.WorldTender) ([]byte, error) {
		doc, err := newEFormsNotice(w)
		if err != nil {
			return nil, err
		}
		f, err := encodeEIS("", doc)
		return f.Data, err
	})
}

type efNotice struct {
	XMLName          xml.Name           // ContractNotice or ContractAwardNotice
	Xmlns            string             `xml:"xmlns,attr"`
	XmlnsCac         string             `xml:"xmlns:cac,attr"`
	XmlnsCbc         string             `xml:"xmlns:cbc,attr"`
	XmlnsEfac        string             `xml:"xmlns:efac,attr"`
	XmlnsEfbc        string             `xml:"xmlns:efbc,attr"`
	XmlnsEfext       string             `xml:"xmlns:efext,attr"`
	XmlnsExt         string             `xml:"xmlns:ext,attr"`
	Extension        efExtension        `xml:"ext:UBLExtensions>ext:UBLExtension>ext:ExtensionContent>efext:EformsExtension"`
	UBLVersionID     string             `xml:"cbc:UBLVersionID"`
	CustomizationID  string             `xml:"cbc:CustomizationID"`
	ID               efText             `xml:"cbc:ID"`
	ContractFolderID string             `xml:"cbc:ContractFolderID"`
	IssueDate        string             `xml:"cbc:IssueDate"`
	IssueTime        string             `xml:"cbc:IssueTime"`
	VersionID        string             `xml:"cbc:VersionID"`
	RequestedDate    string             `xml:"cbc:RequestedPublicationDate"`
	RegulatoryDomain string             `xml:"cbc:RegulatoryDomain"`
	NoticeTypeCode   efCode             `xml:"cbc:NoticeTypeCode"`
	NoticeLanguage   efCode             `xml:"cbc:NoticeLanguageCode"`
	ContractingParty efContractingParty `xml:"cac:ContractingParty"`
	ProcedureCode    efCode             `xml:"cac:TenderingProcess>cbc:ProcedureCode"`
	Project          efProject          `xml:"cac:ProcurementProject"`
	Lots             []efLot            `xml:"cac:ProcurementProjectLot"`
}

// efText is an identifier with its scheme.
type efText struct {
	SchemeName string `xml:"schemeName,attr,omitempty"`
	Text       string `xml:",chardata"`
}

// efCode is a code from a list.
type efCode struct {
	ListName string `xml:"listName,attr"`
	Code     string `xml:",chardata"`
}

// efLangText is a text in a language.
type efLangText struct {
	LanguageID string `xml:"languageID,attr"`
	Text       string `xml:",chardata"`
}

type efExtension struct {
	Result        *efResult        `xml:"efac:NoticeResult"`
	SubType       efCode           `xml:"efac:NoticeSubType>cbc:SubTypeCode"`
	Organizations []efOrganization `xml:"efac:Organizations>efac:Organization"`
	Publication   efPublication    `xml:"efac:Publication"`
}

// efOrganization is an organization of the notice: each is an element of
// its own, holding its company.
type efOrganization struct {
	Company efCompany `xml:"efac:Company"`
}

type efCompany struct {
	Size      *efCode    `xml:"efbc:CompanySizeCode"`
	ID        efText     `xml:"cac:PartyIdentification>cbc:ID"`
	Name      efLangText `xml:"cac:PartyName>cbc:Name"`
	Address   efAddress  `xml:"cac:PostalAddress"`
	CompanyID string     `xml:"cac:PartyLegalEntity>cbc:CompanyID,omitempty"`
}

type efAddress struct {
	Street  string `xml:"cbc:StreetName,omitempty"`
	City    string `xml:"cbc:CityName,omitempty"`
	Zone    string `xml:"cbc:PostalZone,omitempty"`
	Country efCode `xml:"cac:Country>cbc:IdentificationCode"`
}

type efPublication struct {
	NoticePublicationID efText `xml:"efbc:NoticePublicationID"`
	GazetteID           efText `xml:"efbc:GazetteID"`
	PublicationDate     string `xml:"efbc:PublicationDate"`
}

type efContractingParty struct {
	BuyerProfileURI string `xml:"cbc:BuyerProfileURI"`
	PartyID         efText `xml:"cac:Party>cac:PartyIdentification>cbc:ID"`
}

type efProject struct {
	Name        efLangText  `xml:"cbc:Name"`
	Description efLangText  `xml:"cbc:Description"`
	Nature      efCode      `xml:"cbc:ProcurementTypeCode"`
	Amount      *efAmount   `xml:"cac:RequestedTenderTotal>cbc:EstimatedOverallContractAmount"`
	Main        efCode      `xml:"cac:MainCommodityClassification>cbc:ItemClassificationCode"`
	Additional  []efCode    `xml:"cac:AdditionalCommodityClassification>cbc:ItemClassificationCode"`
	Location    *efLocation `xml:"cac:RealizedLocation"`
}

type efAmount struct {
	Currency string `xml:"currencyID,attr"`
	Amount   string `xml:",chardata"`
}

type efLocation struct {
	Country efCode `xml:"cac:Address>cac:Country>cbc:IdentificationCode"`
}

type efLot struct {
	ID        efText     `xml:"cbc:ID"`
	Documents []efDocRef `xml:"cac:TenderingTerms>cac:CallForTendersDocumentReference"`
	EndDate   string     `xml:"cac:TenderingProcess>cac:TenderSubmissionDeadlinePeriod>cbc:EndDate,omitempty"`
	EndTime   string     `xml:"cac:TenderingProcess>cac:TenderSubmissionDeadlinePeriod>cbc:EndTime,omitempty"`
	Project   efProject  `xml:"cac:ProcurementProject"`
}

type efDocRef struct {
	ID           string `xml:"cbc:ID"`
	DocumentType string `xml:"cbc:DocumentType"`
	LanguageID   string `xml:"cbc:LanguageID"`
	URI          string `xml:"cac:Attachment>cac:ExternalReference>cbc:URI"`
}

// newEFormsNotice fills the notice of w.
func newEFormsNotice(w *tenderbase.WorldTender) (*efNotice, error) {
	c, b, err := placeOf(w)
	if err != nil {
		return nil, err
	}
	lang := eformsLanguages[w.Language]
	id := strings.TrimPrefix(w.ID, "eforms:")
	const buyer = "ORG-0001"
	issued := localTime(w.PublishedAt.AddDate(0, 0, -2).Add(10*time.Hour), w.Country)
	deadline := localTime(w.Deadline, w.Country)
	n := &efNotice{
		XMLName:    xml.Name{Local: "ContractNotice"},
		Xmlns:      "urn:oasis:names:specification:ubl:schema:xsd:ContractNotice-2",
		XmlnsCac:   "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
		XmlnsCbc:   "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
		XmlnsEfac:  "http://data.europa.eu/p27/eforms-ubl-extension-aggregate-components/1",
		XmlnsEfbc:  "http://data.europa.eu/p27/eforms-ubl-extension-basic-components/1",
		XmlnsEfext: "http://data.europa.eu/p27/eforms-ubl-extensions/1",
		XmlnsExt:   "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
		Extension: efExtension{
			SubType: efCode{ListName: "notice-subtype", Code: "16"},
			Organizations: []efOrganization{{efCompany{ID: efText{SchemeName: "organization", Text: buyer},
				Name:    efLangText{LanguageID: lang, Text: b.Name},
				Address: efAddress{Street: b.Street, City: b.Town, Zone: b.PostCode, Country: efCode{ListName: "country", Code: c.Alpha3}}}}},
			Publication: efPublication{
				NoticePublicationID: efText{SchemeName: "ojs-notice-id", Text: id},
				GazetteID:           efText{SchemeName: "ojs-id", Text: fmt.Sprintf("%d/%d", ojIssue(w.PublishedAt), w.PublishedAt.Year())},
				PublicationDate:     w.PublishedAt.Format("2006-01-02Z07:00"),
			},
		},
		UBLVersionID:     "2.3",
		CustomizationID:  "eforms-sdk-1.10",
		ID:               efText{SchemeName: "notice-id", Text: uuidOf(w.ID + " notice")},
		ContractFolderID: procedureID(w),
		IssueDate:        issued.Format("2006-01-02Z07:00"),
		IssueTime:        issued.Format("15:04:05Z07:00"),
		VersionID:        "01",
		RequestedDate:    localTime(w.PublishedAt, w.Country).Format("2006-01-02Z07:00"),
		RegulatoryDomain: "32014L0024",
		NoticeTypeCode:   efCode{ListName: "competition", Code: w.NoticeType},
		NoticeLanguage:   efCode{ListName: "language", Code: lang},
		ContractingParty: efContractingParty{PartyID: efText{SchemeName: "organization", Text: buyer}},
		ProcedureCode:    efCode{ListName: "procurement-procedure-type", Code: w.ProcedureType},
		Project:          eformsProject(w.Title, w.Description, w.ContractType, w.CPVCodes, w.Value, w.Currency, lang),
	}
	n.Project.Location = &efLocation{Country: efCode{ListName: "country", Code: c.Alpha3}}
	for _, d := range w.Documents {
		if d.Description == buyerProfile {
			n.ContractingParty.BuyerProfileURI = d.URL
		}
	}
	for _, l := range w.Lots {
		lot := efLot{ID: efText{SchemeName: "Lot", Text: l.ID},
			Project: eformsProject(l.Title, l.Description, w.ContractType, l.CPVCodes, l.Value, l.Currency, lang)}
		if !w.Deadline.IsZero() {
			lot.EndDate, lot.EndTime = deadline.Format("2006-01-02Z07:00"), deadline.Format("15:04:05Z07:00")
		}
		for _, d := range w.Documents {
			if d.Description == buyerProfile {
				continue
			}
			lot.Documents = append(lot.Documents, efDocRef{ID: "TenderDoc", DocumentType: d.Description, LanguageID: lang, URI: d.URL})
		}
		n.Lots = append(n.Lots, lot)
	}
	if len(w.Awards) > 0 {
		awardNotice(n, w, lang)
	}
	return n, nil
}

// procedureID returns the id of the procedure of w (cbc:ContractFolderID),
// which its contract notice and its award notice share: made of what the
// two have in common.
func procedureID(w *tenderbase.WorldTender) string {
	return uuidOf(fmt.Sprint(w.Buyer.Name, w.Title, w.Value, w.CPVCodes, " procedure"))
}

// eformsProject returns the procurement project of a notice or a lot.
func eformsProject(title, descr, nature string, cpv []string, value float64, currency, lang string) efProject {
	p := efProject{
		Name:        efLangText{LanguageID: lang, Text: title},
		Description: efLangText{LanguageID: lang, Text: descr},
		Nature:      efCode{ListName: "contract-nature", Code: nature},
		Main:        efCode{ListName: "cpv", Code: cpv[0]},
	}
	if value > 0 {
		p.Amount = &efAmount{Currency: currency, Amount: amount(value)}
	}
	for _, c := range cpv[1:] {
		p.Additional = append(p.Additional, efCode{ListName: "cpv", Code: c})
	}
	return p
}

// uuidOf returns a UUID made of the SHA-1 of s, in the form of version 5,
// so that a notice's identifiers are the same on every run.
func uuidOf(s string) string {
	h := sha1.Sum([]byte(s))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
