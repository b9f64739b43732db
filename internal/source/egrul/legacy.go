package egrul

import (
	"encoding/xml"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// legacySubject is <UL> or <IP> of the 2014 layout; the fields of an
// entrepreneur (OGRNIP, FL, ...) and of an entity share the struct.
type legacySubject struct {
	OGRN   string `xml:"OGRN,attr"`
	OGRNIP string `xml:"OGRNIP,attr"`
	INN    string `xml:"INN,attr"`
	KPP    string `xml:"KPP,attr"`
	Name   struct {
		Full  string `xml:"NAMEP,attr"`
		Short string `xml:"NAMES,attr"`
		Form  struct {
			Name string `xml:"NAME,attr"`
		} `xml:"OPF"`
		Foreign []struct {
			Name     string `xml:"NAME,attr"`
			Language struct {
				Name string `xml:"NAME,attr"`
			} `xml:"LANG"`
		} `xml:"NAMEI"`
	} `xml:"UL_NAME"`
	Person legacyPerson `xml:"FL"`
	Kind   struct {
		Name string `xml:"NAME,attr"`
	} `xml:"VIDIP"`
	Address struct {
		Place   legacyAddress `xml:"ADDRESS"`
		Contact []struct {
			CityCode string `xml:"KODGOROD,attr"`
			Phone    string `xml:"TELEFON,attr"`
		} `xml:"CONTACT"`
	} `xml:"UL_ADDRESS"`
	Start struct {
		Date string `xml:"DTREG,attr"`
	} `xml:"UL_START"`
	Finish *struct {
		Date string `xml:"DTREG,attr"`
		Way  struct {
			Name string `xml:"NAME,attr"`
		} `xml:"VIDREG"`
	} `xml:"UL_FINISH"`
	Status struct {
		Name  string `xml:"NAME,attr"`
		Since string `xml:"DTSTART,attr"`
	} `xml:"STATUS"`
	Heads []struct {
		Position string       `xml:"DOLGN,attr"`
		Person   legacyPerson `xml:"FL"`
	} `xml:"DOLGNFL"`
	Managers []struct {
		Name    string        `xml:"NAMEP,attr"`
		OGRN    string        `xml:"OGRN,attr"`
		INN     string        `xml:"INN,attr"`
		Address legacyAddress `xml:"ADDRESS"`
	} `xml:"UL_UPR"`
	Activities []struct {
		Code string `xml:"KOD_OKVED,attr"`
		Main string `xml:"MAIN,attr"`
		Name string `xml:"NAME,attr"`
	} `xml:"OKVED"`
	RegOrg struct {
		ID string `xml:"ID,attr"`
	} `xml:"REGORG"`
}

type legacyPerson struct {
	Last   string `xml:"FAM_FL,attr"`
	First  string `xml:"NAME_FL,attr"`
	Middle string `xml:"OTCH_FL,attr"`
}

func (p legacyPerson) String() string { return joinNonEmpty(" ", p.Last, p.First, p.Middle) }

// legacyAddress is <ADDRESS>: KLADR parts, each with a NAME such as
// "САНКТ-ПЕТЕРБУРГ Г" (the type after the name), and its region's code.
type legacyAddress struct {
	Postcode string `xml:"INDEKS,attr"`
	House    string `xml:"DOM,attr"`
	Building string `xml:"KORP,attr"`
	Flat     string `xml:"KVART,attr"`
	Region   struct {
		Code string `xml:"KOD_KL,attr"`
		Name string `xml:"NAME,attr"`
	} `xml:"REGION"`
	District named `xml:"RAION"`
	City     named `xml:"GOROD"`
	Locality named `xml:"NASPUNKT"`
	Street   named `xml:"STREET"`
}

type named struct {
	Name string `xml:"NAME,attr"`
}

func (a legacyAddress) String() string {
	return joinNonEmpty(", ", a.Postcode, a.Region.Name, a.District.Name, a.City.Name, a.Locality.Name,
		a.Street.Name, a.House, a.Building, a.Flat)
}

// decodeLegacy reads one <UL> or <IP> of a file whose header is dated
// extracted.
func decodeLegacy(d *xml.Decoder, start xml.StartElement, extracted string) (*tenderbase.Org, error) {
	var w legacySubject
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "<%s> does not parse: %v", start.Name.Local, err)
	}
	if start.Name.Local == "IP" {
		return w.entrepreneur(extracted), nil
	}
	return w.entity(extracted), nil
}

func (w *legacySubject) entity(extracted string) *tenderbase.Org {
	a := w.Address.Place
	o := &tenderbase.Org{
		INN: w.INN, KPP: w.KPP, OGRN: w.OGRN, Name: published(w.Name.Full), ShortName: published(w.Name.Short),
		LegalForm: published(w.Name.Form.Name), Address: a.String(), Region: atoi(a.Region.Code),
		RegisteredAt: date(w.Start.Date), RegisterSource: "egrul", RegisterExtracted: date(extracted),
	}
	o.Status, o.StatusText = legacyStatus(w.Status.Name), published(w.Status.Name)
	if w.Finish != nil {
		o.Status, o.LiquidatedAt = tenderbase.OrgLiquidated, date(w.Finish.Date)
	} else if o.Status == tenderbase.OrgLiquidated {
		o.LiquidatedAt = date(w.Status.Since)
	}
	if len(w.Heads) > 0 {
		o.Head, o.HeadPosition = w.Heads[0].Person.String(), published(w.Heads[0].Position)
	}
	for _, m := range w.Managers {
		o.Managers = append(o.Managers, tenderbase.OrgManager{Name: published(m.Name), INN: strings.TrimSpace(m.INN),
			OGRN: strings.TrimSpace(m.OGRN), Address: m.Address.String()})
	}
	if len(w.Name.Foreign) > 0 {
		o.ForeignName, o.ForeignNameLanguage = published(w.Name.Foreign[0].Name), published(w.Name.Foreign[0].Language.Name)
	}
	w.setActivities(o)
	finish(o, "")
	for _, c := range w.Address.Contact {
		if phone := joinNonEmpty(" ", parenthesized(c.CityCode), c.Phone); c.Phone != "" {
			o.Contacts = append(o.Contacts, tenderbase.OrgContact{Contact: tenderbase.Contact{Phone: phone}, Source: "egrul", SeenAt: o.RegisterExtracted})
		}
	}
	return o
}

func (w *legacySubject) entrepreneur(extracted string) *tenderbase.Org {
	o := &tenderbase.Org{
		INN: w.INN, OGRN: w.OGRNIP, Name: w.Person.String(), LegalForm: published(w.Kind.Name),
		Region: regionOfTaxOffice(w.RegOrg.ID), RegisterSource: "egrip", RegisterExtracted: date(extracted),
	}
	o.Status, o.StatusText = legacyStatus(w.Status.Name), published(w.Status.Name)
	w.setActivities(o)
	finish(o, "")
	return o
}

// setActivities gives o the OKVED codes, the main one first. The 2014 layout
// codes them in OKVED (OK 029-2001).
func (w *legacySubject) setActivities(o *tenderbase.Org) {
	for _, main := range []string{"1", "0"} {
		for _, a := range w.Activities {
			if a.Main == main {
				if main == "1" && o.MainActivity == "" {
					o.MainActivity = strings.TrimSpace(a.Code)
				}
				addActivity(o, a.Code, a.Name)
			}
		}
	}
	if len(o.ActivityCodes) > 0 {
		o.ActivityVersion = "OKVED"
	}
}

// legacyStatus reads a 2014 status name: "Действующее", "Находится в стадии
// ликвидации", "Прекратило деятельность при присоединении", "Исключен из
// ЕГРЮЛ ...", "... прекратил деятельность ...".
func legacyStatus(name string) string {
	t := strings.ToLower(name)
	if strings.Contains(t, "сведения отсутствуют") {
		return tenderbase.OrgActive
	}
	return entityStatus(name)
}

func parenthesized(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return ""
	}
	return "(" + s + ")"
}
