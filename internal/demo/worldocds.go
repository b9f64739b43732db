package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's newest world tenders as OCDS 1.1 release packages, the shape
// publishers release and internal/source/ocds reads: one package a
// contracting process, holding its tender release, named by its ocid.

// OCDSBorn reports whether r comes in through the demo's OCDS releases.
var OCDSBorn = worldBorn("ocds:")

// ocdsPrefix is the ocid prefix of the demo's publisher. It is registered
// with no one, as the demo's registry numbers belong to no one.
const ocdsPrefix = "ocds-tbdemo"

// ocdsCategories are OCDS's names of the natures TED and eForms name.
var ocdsCategories = map[string]string{"supplies": "goods", "works": "works", "services": "services"}

// noticeTitles name a tender notice in each language of the demo.
var noticeTitles = map[string]string{"de": "Auftragsbekanntmachung", "fr": "Avis de marché", "en": "Contract notice"}

// ocdsRelease makes w the contracting process of an OCDS tender release
// numbered n.number.
func ocdsRelease(w *tenderbase.WorldTender, n worldNotice) {
	w.ID = fmt.Sprintf("ocds:%s-%d-%06d", ocdsPrefix, w.PublishedAt.Year(), n.number)
	w.Source = "ocds"
	w.URL = n.documentsURL()
	b := n.buyer
	w.Buyer.Address = b.Street + ", " + b.Town + ", " + b.PostCode + ", " + n.country.Name
	w.NoticeType, w.ProcedureType, w.ContractType = "tender", "open", ocdsCategories[n.subject.Nature]
	w.Documents = []tenderbase.Attachment{{URL: w.URL, FileName: noticeTitles[w.Language], Description: "tenderNotice"}}
	w.Updated = w.PublishedAt
	w.Stage, w.ReleaseID = "tender", strings.TrimPrefix(w.ID, "ocds:")+"-tender"
}

// WriteOCDS returns the OCDS release packages of the world tenders of recs
// born of OCDS, one file each.
func WriteOCDS(recs []tenderbase.Record) ([]File, error) {
	return writeWorld(recs, OCDSBorn, "ocds:", ".json", func(w *tenderbase.WorldTender) ([]byte, error) {
		pkg, err := newOCDSPackage(w)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err = enc.Encode(pkg)
		return buf.Bytes(), err
	})
}

type ocdsPackage struct {
	URI           string        `json:"uri"`
	Version       string        `json:"version"`
	PublishedDate string        `json:"publishedDate"`
	Publisher     ocdsPublisher `json:"publisher"`
	Releases      []ocdsDoc     `json:"releases"`
}

type ocdsPublisher struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
}

type ocdsDoc struct {
	OCID           string      `json:"ocid"`
	ID             string      `json:"id"`
	Date           string      `json:"date"`
	Language       string      `json:"language"`
	Tag            []string    `json:"tag"`
	InitiationType string      `json:"initiationType"`
	Parties        []ocdsParty `json:"parties"`
	Buyer          ocdsRef     `json:"buyer"`
	// Tender is the tender (ocdsTender), or, in an award release, what
	// the award adds to it (ocdsTenderResult).
	Tender    any            `json:"tender"`
	Awards    []ocdsAward    `json:"awards,omitempty"`
	Contracts []ocdsContract `json:"contracts,omitempty"`
}

type ocdsRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type ocdsParty struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Identifier *ocdsIdentifier `json:"identifier,omitempty"`
	Address    ocdsAddress     `json:"address"`
	Details    *ocdsDetails    `json:"details,omitempty"`
	Roles      []string        `json:"roles"`
}

type ocdsIdentifier struct {
	ID        string `json:"id"`
	LegalName string `json:"legalName"`
}

type ocdsDetails struct {
	Scale string `json:"scale"`
}

type ocdsAddress struct {
	StreetAddress string `json:"streetAddress,omitempty"`
	Locality      string `json:"locality"`
	PostalCode    string `json:"postalCode,omitempty"`
	CountryName   string `json:"countryName"`
}

type ocdsTender struct {
	ID                      string         `json:"id"`
	Title                   string         `json:"title"`
	Description             string         `json:"description"`
	Status                  string         `json:"status"`
	Items                   []ocdsItem     `json:"items"`
	Value                   ocdsValue      `json:"value"`
	ProcurementMethod       string         `json:"procurementMethod"`
	MainProcurementCategory string         `json:"mainProcurementCategory"`
	TenderPeriod            ocdsPeriod     `json:"tenderPeriod"`
	Documents               []ocdsDocument `json:"documents"`
}

type ocdsItem struct {
	ID             string             `json:"id"`
	Description    string             `json:"description"`
	Classification ocdsClassification `json:"classification"`
}

type ocdsClassification struct {
	Scheme      string `json:"scheme"`
	ID          string `json:"id"`
	Description string `json:"description"`
}

type ocdsValue struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

type ocdsPeriod struct {
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
}

type ocdsDocument struct {
	ID            string `json:"id"`
	DocumentType  string `json:"documentType"`
	Title         string `json:"title"`
	URL           string `json:"url"`
	DatePublished string `json:"datePublished"`
	Format        string `json:"format"`
	Language      string `json:"language"`
}

// newOCDSPackage fills the release package of w.
func newOCDSPackage(w *tenderbase.WorldTender) (*ocdsPackage, error) {
	c, b, err := placeOf(w)
	if err != nil {
		return nil, err
	}
	ocid := strings.TrimPrefix(w.ID, "ocds:")
	date := w.PublishedAt.Format(time.RFC3339)
	buyer := ocdsRef{ID: c.Alpha2 + "-" + uuidOf(b.Name)[:8], Name: b.Name}
	t := ocdsTender{
		ID: ocid, Title: w.Title, Description: w.Description, Status: "active",
		Value:             ocdsValue{Amount: w.Value, Currency: w.Currency},
		ProcurementMethod: w.ProcedureType, MainProcurementCategory: w.ContractType,
		TenderPeriod: ocdsPeriod{StartDate: date, EndDate: localTime(w.Deadline, w.Country).Format(time.RFC3339)},
	}
	for i, code := range w.CPVCodes {
		t.Items = append(t.Items, ocdsItem{ID: fmt.Sprint(i + 1), Description: w.Title,
			Classification: ocdsClassification{Scheme: "CPV", ID: code, Description: cpvLabels[code]}})
	}
	for i, d := range w.Documents {
		t.Documents = append(t.Documents, ocdsDocument{ID: fmt.Sprint(i + 1), DocumentType: d.Description, Title: d.FileName,
			URL: d.URL, DatePublished: date, Format: "text/html", Language: w.Language})
	}
	host := c.Platform
	if u, err := url.Parse(c.Platform); err == nil {
		host = u.Host
	}
	pkg := &ocdsPackage{
		URI:           c.Platform + "/ocds/" + ocid + ".json",
		Version:       "1.1",
		PublishedDate: date,
		Publisher:     ocdsPublisher{Name: host, URI: c.Platform},
		Releases: []ocdsDoc{{
			OCID: ocid, ID: ocid + "-tender", Date: date, Language: w.Language,
			Tag: []string{"tender"}, InitiationType: "tender",
			Parties: []ocdsParty{{ID: buyer.ID, Name: b.Name, Roles: []string{"buyer", "procuringEntity"},
				Address: ocdsAddress{StreetAddress: b.Street, Locality: b.Town, PostalCode: b.PostCode, CountryName: c.Name}}},
			Buyer:  buyer,
			Tender: t,
		}},
	}
	if len(w.Awards) > 0 {
		r := awardRelease(w, c, buyer)
		pkg.PublishedDate = r.Date
		pkg.Releases = append(pkg.Releases, r)
	}
	return pkg, nil
}
