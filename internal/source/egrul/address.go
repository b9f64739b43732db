package egrul

import (
	"encoding/xml"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// addressBlock is <СвАдресЮЛ>: the address under the old classifier
// (<АдресРФ>), under the state address register (<СвАдрЮЛФИАС>), or only the
// place (<СвМНЮЛ>), as the extract gives it.
type addressBlock struct {
	RF    *addressRF `xml:"АдресРФ"`
	FIAS  *fiasParts `xml:"СвАдрЮЛФИАС"`
	Place *fiasParts `xml:"СвМНЮЛ"`
}

// String returns the most detailed address the block has.
func (a addressBlock) String() string {
	switch {
	case a.FIAS != nil:
		return a.FIAS.String()
	case a.RF != nil:
		return a.RF.String()
	case a.Place != nil:
		return a.Place.String()
	}
	return ""
}

func (a addressBlock) region() int {
	for _, p := range []*fiasParts{a.FIAS, a.Place} {
		if p != nil && p.Region != "" {
			return atoi(p.Region)
		}
	}
	if a.RF != nil {
		return atoi(a.RF.Region)
	}
	return 0
}

// addressRF is <АдресРФ>, the address under the KLADR classifier.
type addressRF struct {
	Postcode string `xml:"Индекс,attr"`
	Region   string `xml:"КодРегион,attr"`
	House    string `xml:"Дом,attr"`
	Building string `xml:"Корпус,attr"`
	Flat     string `xml:"Кварт,attr"`
	Subject  struct {
		Type string `xml:"ТипРегион,attr"`
		Name string `xml:"НаимРегион,attr"`
	} `xml:"Регион"`
	District struct {
		Type string `xml:"ТипРайон,attr"`
		Name string `xml:"НаимРайон,attr"`
	} `xml:"Район"`
	City struct {
		Type string `xml:"ТипГород,attr"`
		Name string `xml:"НаимГород,attr"`
	} `xml:"Город"`
	Locality struct {
		Type string `xml:"ТипНаселПункт,attr"`
		Name string `xml:"НаимНаселПункт,attr"`
	} `xml:"НаселПункт"`
	Street struct {
		Type string `xml:"ТипУлица,attr"`
		Name string `xml:"НаимУлица,attr"`
	} `xml:"Улица"`
}

// String writes the address as people do: postcode, region, district, city,
// locality, street, house, building, flat.
func (a *addressRF) String() string {
	return joinNonEmpty(", ", a.Postcode,
		joinNonEmpty(" ", a.Subject.Name, a.Subject.Type), joinNonEmpty(" ", a.District.Name, a.District.Type),
		joinNonEmpty(" ", a.City.Type, a.City.Name), joinNonEmpty(" ", a.Locality.Type, a.Locality.Name),
		joinNonEmpty(" ", a.Street.Type, a.Street.Name), a.House, a.Building, a.Flat)
}

// fiasParts is <СвАдрЮЛФИАС> or <СвМНЮЛ>: the region code, the region's
// name, then the address elements in the order of the register (municipal
// district, settlement, planning element, street, buildings, premises), each
// with a type and a name or number. They are read in document order, as
// they come, rather than by name, since the schema lets most repeat.
type fiasParts struct {
	Postcode   string
	Region     string
	RegionName string
	Parts      []string
}

// UnmarshalXML reads the parts in order, leaving out the register record
// references (<ГРНДата>) and the region code.
func (f *fiasParts) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	f.Postcode = attr(start, "Индекс")
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if err := f.part(d, t); err != nil {
				return err
			}
		}
	}
}

func (f *fiasParts) part(d *xml.Decoder, el xml.StartElement) error {
	var text string
	if err := d.DecodeElement(&text, &el); err != nil {
		return err
	}
	switch el.Name.Local {
	case "Регион":
		f.Region = strings.TrimSpace(text)
	case "НаимРегион":
		f.RegionName = strings.TrimSpace(text)
	case "ГРНДата", "ГРНДатаИспр":
	default:
		name := cmpOr(attr(el, "Наим"), attr(el, "Номер"))
		f.Parts = append(f.Parts, joinNonEmpty(" ", cmpOr(attr(el, "Тип"), attr(el, "Вид")), name, strings.TrimSpace(text)))
	}
	return nil
}

func (f *fiasParts) String() string {
	return joinNonEmpty(", ", append([]string{f.Postcode, f.RegionName}, f.Parts...)...)
}

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return strings.TrimSpace(a.Value)
		}
	}
	return ""
}

// regionOfTaxOffice returns the region of a tax office code: its first two
// digits, as for an entrepreneur, whose extract has no address.
func regionOfTaxOffice(code string) int {
	if len(code) < 2 {
		return 0
	}
	return atoi(code[:2])
}

// addActivity adds an OKVED code and its name to o, once.
func addActivity(o *tenderbase.Org, code, name string) {
	code = strings.TrimSpace(code)
	if code == "" {
		return
	}
	for _, c := range o.ActivityCodes {
		if c == code {
			return
		}
	}
	o.ActivityCodes = append(o.ActivityCodes, code)
	if name = published(name); name != "" {
		if o.ActivityNames == nil {
			o.ActivityNames = map[string]string{}
		}
		o.ActivityNames[code] = name
	}
}

// date reads a register date: 2006-01-02 in the current layout, 02.01.2006
// in the 2014 one (with a time after "_" in its header), in Moscow time.
func date(s string) time.Time {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '_'); i >= 0 {
		s = s[:i]
	}
	for _, layout := range []string{time.DateOnly, "02.01.2006"} {
		if t, err := time.ParseInLocation(layout, s, tenderbase.Moscow); err == nil {
			return t
		}
	}
	return time.Time{}
}

func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0
	}
	return n
}

// published returns a text of the register as published, without the white
// space around it: the register's names hold runs of spaces («ОБЩЕСТВО С
// ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ  "РИКС"»), and they are kept as they are,
// byte for byte, as for EIS. Search normalizes white space on its own.
func published(s string) string { return strings.TrimSpace(s) }

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = published(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}
