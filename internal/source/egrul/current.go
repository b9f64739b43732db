package egrul

import (
	"encoding/xml"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// entity is <СвЮЛ> of the current layout (versions 4.0x).
type entity struct {
	Extracted string `xml:"ДатаВып,attr"`
	OGRN      string `xml:"ОГРН,attr"`
	OGRNDate  string `xml:"ДатаОГРН,attr"`
	INN       string `xml:"ИНН,attr"`
	KPP       string `xml:"КПП,attr"`
	LegalForm string `xml:"ПолнНаимОПФ,attr"`
	Name      struct {
		Full  string `xml:"НаимЮЛПолн,attr"`
		Short struct {
			Name string `xml:"НаимСокр,attr"`
		} `xml:"СвНаимЮЛСокр"`
		ShortOld string `xml:"НаимЮЛСокр,attr"` // format 4.0x before the element
		Language struct {
			Name string `xml:"НаимОКИН,attr"`
		} `xml:"СвНаимЮЛКодОКИН"`
		Foreign struct {
			Name string `xml:"НаимПолн,attr"`
		} `xml:"СвНаимЮЛПолнИн"`
		ForeignShort struct {
			Name string `xml:"НаимСокр,attr"`
		} `xml:"СвНаимЮЛСокрИн"`
	} `xml:"СвНаимЮЛ"`
	Address     addressBlock `xml:"СвАдресЮЛ"`
	Email       email        `xml:"СвАдрЭлПочты"`
	Status      statusBlock  `xml:"СвСтатус"`
	Termination *struct {
		Date string `xml:"ДатаПрекрЮЛ,attr"`
		Way  struct {
			Name string `xml:"НаимСпПрекрЮЛ,attr"`
		} `xml:"СпПрекрЮЛ"`
	} `xml:"СвПрекрЮЛ"`
	Heads []struct {
		Person   person `xml:"СвФЛ"`
		Position struct {
			Name string `xml:"НаимДолжн,attr"`
			Kind string `xml:"НаимВидДолжн,attr"`
		} `xml:"СвДолжн"`
	} `xml:"СведДолжнФЛ"`
	Managers []struct {
		Entity struct {
			OGRN string `xml:"ОГРН,attr"`
			INN  string `xml:"ИНН,attr"`
			Name string `xml:"НаимЮЛПолн,attr"`
		} `xml:"НаимИННЮЛ"`
		Address *addressRF `xml:"СвАдрРФ"`
	} `xml:"СвУпрОрг"`
	Subdivisions struct {
		Branches []subdivision `xml:"СвФилиал"`
		Offices  []subdivision `xml:"СвПредстав"`
	} `xml:"СвПодразд"`
	Activities activities `xml:"СвОКВЭД"`
	RegOrg     taxOffice  `xml:"СвРегОрг"`
}

// subdivision is a branch (<СвФилиал>) or a representative office
// (<СвПредстав>) of <СвПодразд>: its name, its address in Russia (under
// KLADR, <АдрМНРФ>, or the state address register, <АдрМНФИАС>) or abroad
// (<АдрМНИн>), and its registration with the tax office, whose KPP it has.
type subdivision struct {
	Name struct {
		Full string `xml:"НаимПолн,attr"`
	} `xml:"СвНаим"`
	RF     *addressRF `xml:"АдрМНРФ"`
	FIAS   *fiasParts `xml:"АдрМНФИАС"`
	Abroad *struct {
		Country string `xml:"НаимСтран,attr"`
		Address string `xml:"АдрИн,attr"`
	} `xml:"АдрМНИн"`
	Branch struct {
		KPP string `xml:"КПП,attr"`
	} `xml:"СвУчетНОФилиал"`
	Office struct {
		KPP string `xml:"КПП,attr"`
	} `xml:"СвУчетНОПредстав"`
}

func (s subdivision) branch(kind string) tenderbase.OrgBranch {
	b := tenderbase.OrgBranch{Kind: kind, Name: published(s.Name.Full), KPP: strings.TrimSpace(cmpOr(s.Branch.KPP, s.Office.KPP))}
	switch {
	case s.FIAS != nil:
		b.Address = s.FIAS.String()
	case s.RF != nil:
		b.Address = s.RF.String()
	case s.Abroad != nil:
		b.Address = joinNonEmpty(", ", s.Abroad.Country, s.Abroad.Address)
	}
	return b
}

// entrepreneur is <СвИП> of the current layout.
type entrepreneur struct {
	Extracted string `xml:"ДатаВып,attr"`
	OGRN      string `xml:"ОГРНИП,attr"`
	OGRNDate  string `xml:"ДатаОГРНИП,attr"`
	INN       string `xml:"ИННФЛ,attr"`
	Kind      string `xml:"НаимВидИП,attr"`
	Person    struct {
		Russian person `xml:"ФИОРус"`
	} `xml:"СвФЛ"`
	Home struct {
		RF *addressRF `xml:"АдресРФ"`
	} `xml:"СвАдрМЖ"`
	Email       email       `xml:"СвАдрЭлПочты"`
	Status      statusBlock `xml:"СвСтатус"`
	Termination *struct {
		Status status `xml:"СвСтатус"`
	} `xml:"СвПрекращ"`
	Activities activities `xml:"СвОКВЭД"`
	RegOrg     taxOffice  `xml:"СвРегОрг"`
}

type person struct {
	Last   string `xml:"Фамилия,attr"`
	First  string `xml:"Имя,attr"`
	Middle string `xml:"Отчество,attr"`
}

func (p person) String() string { return joinNonEmpty(" ", p.Last, p.First, p.Middle) }

type email struct {
	Address string `xml:"E-mail,attr"`
}

type taxOffice struct {
	Code string `xml:"КодНО,attr"`
}

// statusBlock is <СвСтатус>, which wraps a <СвСтатус> of the same name.
type statusBlock struct {
	Status status `xml:"СвСтатус"`
}

type status struct {
	EntityCode string `xml:"КодСтатусЮЛ,attr"`
	EntityName string `xml:"НаимСтатусЮЛ,attr"`
	Code       string `xml:"КодСтатус,attr"`
	Name       string `xml:"НаимСтатус,attr"`
	Ended      string `xml:"ДатаПрекращ,attr"`
}

type activities struct {
	Main  *activity  `xml:"СвОКВЭДОсн"`
	Other []activity `xml:"СвОКВЭДДоп"`
}

type activity struct {
	Code    string `xml:"КодОКВЭД,attr"`
	Name    string `xml:"НаимОКВЭД,attr"`
	Version string `xml:"ПрВерсОКВЭД,attr"` // "2014" is OKVED2; absent is OKVED (2001)
}

// decodeCurrent reads one <СвЮЛ> or <СвИП>; a subject without its own date
// of extract (@ДатаВып) takes extracted, the date of the file.
func decodeCurrent(d *xml.Decoder, start xml.StartElement, extracted string) (*tenderbase.Org, error) {
	if start.Name.Local == "СвИП" {
		w := entrepreneur{Extracted: extracted}
		if err := d.DecodeElement(&w, &start); err != nil {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "<СвИП> does not parse: %v", err)
		}
		return w.org(), nil
	}
	w := entity{Extracted: extracted}
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "<СвЮЛ> does not parse: %v", err)
	}
	return w.org(), nil
}

func (w *entity) org() *tenderbase.Org {
	o := &tenderbase.Org{
		INN: w.INN, KPP: w.KPP, OGRN: w.OGRN, Name: published(w.Name.Full),
		ShortName: published(cmpOr(w.Name.Short.Name, w.Name.ShortOld)), LegalForm: published(w.LegalForm),
		ForeignName: published(w.Name.Foreign.Name), ForeignShortName: published(w.Name.ForeignShort.Name),
		ForeignNameLanguage: published(w.Name.Language.Name),
		Address:             w.Address.String(), Region: w.Address.region(),
		RegisteredAt: date(w.OGRNDate), RegisterSource: "egrul", RegisterExtracted: date(w.Extracted),
	}
	if o.Region == 0 {
		o.Region = regionOfTaxOffice(w.RegOrg.Code)
	}
	o.Status, o.StatusText = entityStatus(w.Status.Status.EntityName), published(w.Status.Status.EntityName)
	if w.Termination != nil {
		o.Status, o.StatusText = tenderbase.OrgLiquidated, published(w.Termination.Way.Name)
		o.LiquidatedAt = date(w.Termination.Date)
	}
	if len(w.Heads) > 0 {
		o.Head, o.HeadPosition = w.Heads[0].Person.String(), published(cmpOr(w.Heads[0].Position.Name, w.Heads[0].Position.Kind))
	}
	for _, m := range w.Managers {
		mo := tenderbase.OrgManager{Name: published(m.Entity.Name), INN: strings.TrimSpace(m.Entity.INN), OGRN: strings.TrimSpace(m.Entity.OGRN)}
		if m.Address != nil {
			mo.Address = m.Address.String()
		}
		o.Managers = append(o.Managers, mo)
	}
	for _, b := range w.Subdivisions.Branches {
		o.Branches = append(o.Branches, b.branch(tenderbase.BranchOffice))
	}
	for _, b := range w.Subdivisions.Offices {
		o.Branches = append(o.Branches, b.branch(tenderbase.RepresentativeOffice))
	}
	w.Activities.setOn(o)
	finish(o, w.Email.Address)
	return o
}

func (w *entrepreneur) org() *tenderbase.Org {
	o := &tenderbase.Org{
		INN: w.INN, OGRN: w.OGRN, Name: w.Person.Russian.String(), LegalForm: published(w.Kind),
		RegisteredAt: date(w.OGRNDate), RegisterSource: "egrip", RegisterExtracted: date(w.Extracted),
	}
	if w.Home.RF != nil {
		o.Region = atoi(w.Home.RF.Region)
		o.Address = w.Home.RF.String()
	}
	if o.Region == 0 {
		o.Region = regionOfTaxOffice(w.RegOrg.Code)
	}
	o.Status, o.StatusText = tenderbase.OrgActive, ""
	if s := w.Status.Status; s.Name != "" {
		o.Status, o.StatusText = entityStatus(s.Name), published(s.Name)
	}
	if w.Termination != nil {
		o.Status, o.StatusText = tenderbase.OrgLiquidated, published(w.Termination.Status.Name)
		o.LiquidatedAt = date(w.Termination.Status.Ended)
	}
	w.Activities.setOn(o)
	finish(o, w.Email.Address)
	return o
}

// setOn gives o the main and other activities, with their names.
func (a activities) setOn(o *tenderbase.Org) {
	all := a.Other
	if a.Main != nil {
		o.MainActivity = a.Main.Code
		o.ActivityVersion = okvedVersion(a.Main.Version)
		all = append([]activity{*a.Main}, all...)
	}
	for _, act := range all {
		addActivity(o, act.Code, act.Name)
	}
}

// okvedVersion names the classifier: OKVED2 (OK 029-2014) or the older OKVED
// (OK 029-2001) the register still shows for subjects not re-coded.
func okvedVersion(v string) string {
	if v == "2014" {
		return "OKVED2"
	}
	return "OKVED"
}

// finish fills what both layouts and kinds share: the contacts the extract
// gives, its source and its dates.
func finish(o *tenderbase.Org, emailAddress string) {
	if o.Status == "" {
		o.Status = tenderbase.OrgActive
	}
	seen := o.RegisterExtracted
	if o.Address != "" {
		o.Contacts = append(o.Contacts, tenderbase.OrgContact{Contact: tenderbase.Contact{Address: o.Address}, Source: o.RegisterSource, SeenAt: seen})
	}
	if e := strings.TrimSpace(emailAddress); e != "" {
		o.Contacts = append(o.Contacts, tenderbase.OrgContact{Contact: tenderbase.Contact{Email: e}, Source: o.RegisterSource, SeenAt: seen})
	}
	o.UpdatedAt = seen
	o.Sources = []string{o.RegisterSource}
}

// entityStatus reads the register's words of a status that has not ended the
// subject: liquidation, bankruptcy and a coming exclusion end in liquidation;
// reorganization in a successor.
func entityStatus(text string) string {
	t := strings.ToLower(text)
	switch {
	case t == "" || strings.HasPrefix(t, "действующ"):
		return tenderbase.OrgActive
	case strings.Contains(t, "прекрат") || strings.Contains(t, "исключен из"):
		return tenderbase.OrgLiquidated
	case strings.Contains(t, "ликвидац") || strings.Contains(t, "банкрот") || strings.Contains(t, "исключени") ||
		strings.Contains(t, "недостоверн"):
		return tenderbase.OrgLiquidating
	case strings.Contains(t, "реорганизац"):
		return tenderbase.OrgReorganizing
	}
	return tenderbase.OrgActive
}
