// Package rsmp reads the open data of the Federal Tax Service on small and
// medium businesses, published as zip archives of XML files (<Файл> of
// <Документ>s): the SME register itself (ТипИнф РЕЕСТРМСП, files
// VO_RRMSPSV_*: category, inclusion date, the subject's names, place and
// OKVED codes), and two sets published beside it on the same subjects: the
// average headcount (ОТКРДАННЫЕ3, VO_OTKRDAN3_* and VO_OTKRDAN_3_*) and
// income and expenses by the accounts (ОТКРДАННЫЕ5). Each document is a
// part of a tenderbase.Org, merged with what other sources say of the INN.
package rsmp

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// Format is the tax service's SME open data as a source format.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "FNS SME open data XML" }

// The kinds of file, by their ТипИнф.
const (
	kindRegister  = "РЕЕСТРМСП"
	kindHeadcount = "ОТКРДАННЫЕ3"
	kindFinances  = "ОТКРДАННЫЕ5"
)

// Detect reports whether a file starting with prefix is one of the three
// sets: a <Файл> whose ТипИнф names it.
func (Format) Detect(prefix []byte) bool {
	root, err := xmlread.NextElement(xmlread.NewDecoder(strings.NewReader(string(prefix))))
	return err == nil && root.Name.Local == "Файл" && kindOf(root) != ""
}

func kindOf(root xml.StartElement) string {
	switch k := xmlread.Attr(root, "ТипИнф"); k {
	case kindRegister, kindHeadcount, kindFinances:
		return k
	}
	return ""
}

// document is a <Документ> of any of the three sets; each fills its part.
type document struct {
	AsOf     string `xml:"ДатаСост,attr"`
	Included string `xml:"ДатаВклМСП,attr"`
	Category string `xml:"КатСубМСП,attr"`
	Org      *struct {
		INN   string `xml:"ИННЮЛ,attr"`
		Name  string `xml:"НаимОрг,attr"`
		Short string `xml:"НаимОргСокр,attr"`
	} `xml:"ОргВклМСП"`
	Entrepreneur *struct {
		INN    string `xml:"ИННФЛ,attr"`
		OGRNIP string `xml:"ОГРНИП,attr"`
		Name   struct {
			Last   string `xml:"Фамилия,attr"`
			First  string `xml:"Имя,attr"`
			Middle string `xml:"Отчество,attr"`
		} `xml:"ФИОИП"`
	} `xml:"ИПВклМСП"`
	Place struct {
		Region string `xml:"КодРегион,attr"`
	} `xml:"СведМН"`
	Activities struct {
		Main *struct {
			Code    string `xml:"КодОКВЭД,attr"`
			Name    string `xml:"НаимОКВЭД,attr"`
			Version string `xml:"ВерсОКВЭД,attr"`
		} `xml:"СвОКВЭДОсн"`
	} `xml:"СвОКВЭД"`
	Payer *struct {
		INN  string `xml:"ИННЮЛ,attr"`
		Name string `xml:"НаимОрг,attr"`
	} `xml:"СведНП"`
	Headcount *struct {
		Employees string `xml:"КолРаб,attr"`
	} `xml:"СведССЧР"`
	Finances *struct {
		Income   string `xml:"СумДоход,attr"`
		Expenses string `xml:"СумРасход,attr"`
	} `xml:"СведДохРасх"`
}

// Decode reads every document of r, streaming.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	d := xmlread.NewDecoder(r)
	root, err := xmlread.NextElement(d)
	if err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "not SME register XML: %v", err))
	}
	kind := kindOf(root)
	for n := 1; ; {
		start, err := xmlread.NextElement(d)
		if err != nil {
			if err.Error() == "no element" {
				return nil
			}
			return emit(n, nil, tenderbase.Errorf(tenderbase.EINVALID, "%s XML does not parse after document %d: %v", kind, n-1, err))
		}
		if start.Name.Local != "Документ" {
			continue
		}
		var doc document
		if err := d.DecodeElement(&doc, &start); err != nil {
			return emit(n, nil, tenderbase.Errorf(tenderbase.EINVALID, "<Документ> %d does not parse: %v", n, err))
		}
		org, recErr := doc.org(kind)
		var rec tenderbase.Record
		if recErr == nil {
			rec = org
		}
		if err := emit(n, rec, recErr); err != nil {
			return err
		}
		n++
	}
}

// org returns the part of an organization a document gives.
func (doc *document) org(kind string) (*tenderbase.Org, error) {
	asOf := date(doc.AsOf)
	o := &tenderbase.Org{UpdatedAt: asOf, Sources: []string{"rsmp"}}
	switch {
	case kind == kindRegister && doc.Org != nil:
		o.INN, o.Name, o.ShortName = doc.Org.INN, clean(doc.Org.Name), clean(doc.Org.Short)
	case kind == kindRegister && doc.Entrepreneur != nil:
		n := doc.Entrepreneur.Name
		o.INN, o.OGRN, o.Name = doc.Entrepreneur.INN, doc.Entrepreneur.OGRNIP, clean(n.Last+" "+n.First+" "+n.Middle)
	case doc.Payer != nil:
		o.INN, o.Name = doc.Payer.INN, clean(doc.Payer.Name)
	}
	if o.INN == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s document has no INN", kind)
	}
	switch kind {
	case kindRegister:
		return o, doc.register(o, asOf)
	case kindHeadcount:
		return o, doc.headcount(o, asOf)
	}
	return o, doc.finances(o, asOf)
}

// smeCategories reads КатСубМСП.
var smeCategories = map[string]string{"1": "micro", "2": "small", "3": "medium"}

func (doc *document) register(o *tenderbase.Org, asOf time.Time) error {
	o.SME = smeCategories[doc.Category]
	if o.SME == "" {
		return tenderbase.Errorf(tenderbase.EINVALID, "SME register document of INN %s has category %q, not 1, 2 or 3", o.INN, doc.Category)
	}
	o.SMESince, o.SMEReported = date(doc.Included), asOf
	o.Region, _ = strconv.Atoi(doc.Place.Region)
	if m := doc.Activities.Main; m != nil && m.Code != "" {
		o.MainActivity, o.ActivityCodes = m.Code, []string{m.Code}
		if m.Name != "" {
			o.ActivityNames = map[string]string{m.Code: clean(m.Name)}
		}
		o.ActivityVersion = "OKVED"
		if m.Version == "2014" {
			o.ActivityVersion = "OKVED2"
		}
	}
	return nil
}

func (doc *document) headcount(o *tenderbase.Org, asOf time.Time) error {
	if doc.Headcount == nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "headcount document of INN %s has no <СведССЧР>", o.INN)
	}
	n, err := strconv.Atoi(strings.TrimSpace(doc.Headcount.Employees))
	if err != nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "headcount of INN %s is %q, not a number", o.INN, doc.Headcount.Employees)
	}
	o.Employees, o.EmployeesAsOf = &n, asOf
	return nil
}

func (doc *document) finances(o *tenderbase.Org, asOf time.Time) error {
	if doc.Finances == nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "income document of INN %s has no <СведДохРасх>", o.INN)
	}
	income, err1 := strconv.ParseFloat(strings.TrimSpace(doc.Finances.Income), 64)
	expenses, err2 := strconv.ParseFloat(strings.TrimSpace(doc.Finances.Expenses), 64)
	if err1 != nil || err2 != nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "income %q and expenses %q of INN %s are not amounts", doc.Finances.Income, doc.Finances.Expenses, o.INN)
	}
	o.Income, o.Expenses, o.FinancesAsOf = &income, &expenses, asOf
	return nil
}

// date reads the sets' dates, 02.01.2006, in Moscow time.
func date(s string) time.Time {
	t, err := time.ParseInLocation("02.01.2006", strings.TrimSpace(s), tenderbase.Moscow)
	if err != nil {
		return time.Time{}
	}
	return t
}

func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
