package demo

import (
	"crypto/sha1"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/text/encoding/charmap"

	"github.com/tenderbase/tenderbase"
)

// The demo's organizations as the tax service publishes its registers, so
// that they come in through internal/source/egrul as real extracts do: the
// legal entities as an EGRUL file (VO_RUGFO), the entrepreneurs as an EGRIP
// file (VO_RIGFO), in the current layout of format 4.06, in windows-1251
// with CRLF line ends. Only what the published extracts show is written,
// and of that only what the demo knows: no founders, capital, insurance
// funds or e-mail.

// EGRULBorn reports whether r comes in through the demo's EGRUL or EGRIP
// files: every organization, each having an extract.
func EGRULBorn(r tenderbase.Record) bool {
	o, ok := r.(*tenderbase.Org)
	return ok && (o.RegisterSource == "egrul" || o.RegisterSource == "egrip")
}

// The kinds of register file, by ТипИнф.
const (
	egrulKind = "ЕГРЮЛ_ОТКР_СВЕД"
	egripKind = "ЕГРИП_ОТКР_СВЕД"
)

// WriteEGRUL returns one EGRUL file of the organizations of recs and one
// EGRIP file of the entrepreneurs, each in the order of recs.
func WriteEGRUL(recs []tenderbase.Record) ([]File, error) {
	var entities, entrepreneurs []*tenderbase.Org
	for _, r := range recs {
		if o, ok := r.(*tenderbase.Org); ok && EGRULBorn(o) {
			if o.RegisterSource == "egrip" {
				entrepreneurs = append(entrepreneurs, o)
			} else {
				entities = append(entities, o)
			}
		}
	}
	var files []File
	for _, set := range []struct {
		prefix, kind string
		orgs         []*tenderbase.Org
		doc          func(*registerWriter, *tenderbase.Org) error
	}{
		{"VO_RUGFO", egrulKind, entities, (*registerWriter).entity},
		{"VO_RIGFO", egripKind, entrepreneurs, (*registerWriter).entrepreneur},
	} {
		if len(set.orgs) == 0 {
			continue
		}
		f, err := registerFile(set.prefix, set.kind, set.orgs, set.doc)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// registerFile writes the <Файл> of kind holding a document per org, named
// as the tax service names its files: prefix, sender and receiver codes,
// the date of the latest extract and an id.
func registerFile(prefix, kind string, orgs []*tenderbase.Org, doc func(*registerWriter, *tenderbase.Org) error) (File, error) {
	latest := slices.MaxFunc(orgs, func(a, b *tenderbase.Org) int { return a.RegisterExtracted.Compare(b.RegisterExtracted) })
	var inns []string
	for _, o := range orgs {
		inns = append(inns, o.INN)
	}
	id := fmt.Sprintf("%s_0000_9965_%s_%s", prefix, latest.RegisterExtracted.Format("20060102"), registerUUID(prefix+strings.Join(inns, ",")))
	w := &registerWriter{}
	w.b.WriteString(`<?xml version="1.0" encoding="windows-1251"?>` + "\r\n")
	w.open(0, "Файл", "ИдФайл", id, "ВерсФорм", "4.06", "ТипИнф", kind, "ВерсПрог", "1.0.0.2", "КолДок", fmt.Sprintf("%10d", len(orgs)))
	w.open(1, "ИдОтпр", "ДолжОтв", "Ведущий специалист-эксперт", "Тлф", "(495)0000000")
	w.empty(2, "ФИООтв", "Фамилия", "Никитина", "Имя", "Ольга", "Отчество", "Андреевна")
	w.close(1, "ИдОтпр")
	for _, o := range orgs {
		if err := doc(w, o); err != nil {
			return File{}, fmt.Errorf("%s %s: %w", kind, o.INN, err)
		}
	}
	w.b.WriteString("</Файл>")
	data, err := charmap.Windows1251.NewEncoder().String(w.b.String())
	if err != nil {
		return File{}, fmt.Errorf("%s file %s: %w", kind, id, err)
	}
	return File{Name: id + ".xml", Data: []byte(data)}, nil
}

// entity writes the document of a legal entity.
func (w *registerWriter) entity(o *tenderbase.Org) error {
	form, ok := legalFormNamed(o.LegalForm)
	if !ok {
		return fmt.Errorf("legal form %q has no OKOPF code", o.LegalForm)
	}
	addr, err := parseRegisterAddress(o.Region, o.Address)
	if err != nil {
		return err
	}
	last, first, middle := personName(o.Head)
	if middle == "" && (o.Head != "" || len(o.Managers) == 0) {
		return fmt.Errorf("head %q is not a full name", o.Head)
	}
	rec, office := w.record(o.OGRN, o.RegisteredAt, "ГРНДата", "ГРН"), o.INN[:4]
	w.b.WriteString("  " + startTag("Документ", "ИдДок", registerUUID("ЮЛ"+o.INN+registerDay(o.RegisterExtracted))))
	w.b.WriteString(startTag("СвЮЛ", "ДатаВып", registerDay(o.RegisterExtracted), "ОГРН", o.OGRN, "ДатаОГРН", registerDay(o.RegisteredAt),
		"ИНН", o.INN, "КПП", o.KPP, "СпрОПФ", "ОКОПФ", "КодОПФ", form.Code, "ПолнНаимОПФ", form.Name) + "\r\n")
	w.open(1, "СвНаимЮЛ", "НаимЮЛПолн", o.Name)
	rec(2)
	if o.ShortName != "" {
		w.open(2, "СвНаимЮЛСокр", "НаимСокр", o.ShortName)
		rec(3)
		w.close(2, "СвНаимЮЛСокр")
	}
	w.close(1, "СвНаимЮЛ")
	w.address(addr, rec)
	w.open(1, "СвОбрЮЛ", "ОГРН", o.OGRN, "ДатаОГРН", registerDay(o.RegisteredAt))
	w.empty(2, "СпОбрЮЛ", "КодСпОбрЮЛ", "11", "НаимСпОбрЮЛ", "Создание юридического лица")
	rec(2)
	w.close(1, "СвОбрЮЛ")
	w.taxOffice(o, office, "ИНН", rec)
	if err := w.managers(o, rec); err != nil {
		return err
	}
	if o.Head != "" {
		w.open(1, "СведДолжнФЛ")
		w.record(o.OGRN, o.RegisteredAt, "ГРНДатаПерв", "ГРН")(2)
		w.open(2, "СвФЛ", "Фамилия", last, "Имя", first, "Отчество", middle)
		rec(3)
		w.close(2, "СвФЛ")
		w.open(2, "СвДолжн", "ВидДолжн", "02", "НаимВидДолжн", "Руководитель юридического лица", "НаимДолжн", o.HeadPosition)
		rec(3)
		w.close(2, "СвДолжн")
		w.close(1, "СведДолжнФЛ")
	}
	if err := w.activities(o, rec); err != nil {
		return err
	}
	if err := w.subdivisions(o, rec); err != nil {
		return err
	}
	w.registration(o, office, "СвЗапЕГРЮЛ", "ГРН", "11201", "Создание юридического лица")
	w.b.WriteString("</СвЮЛ></Документ>\r\n")
	return nil
}

// entrepreneur writes the document of an individual entrepreneur, whose
// extract names him and gives no address.
func (w *registerWriter) entrepreneur(o *tenderbase.Org) error {
	if o.LegalForm != entrepreneurKind {
		return fmt.Errorf("entrepreneur of kind %q", o.LegalForm)
	}
	last, first, middle := personName(o.Name)
	if middle == "" {
		return fmt.Errorf("entrepreneur %q is not a full name", o.Name)
	}
	sex := "1"
	if strings.HasSuffix(middle, "на") {
		sex = "2"
	}
	rec, office := w.record(o.OGRN, o.RegisteredAt, "ГРНИПДата", "ГРНИП"), o.INN[:4]
	w.b.WriteString("  " + startTag("Документ", "ИдДок", registerUUID("ИП"+o.INN+registerDay(o.RegisterExtracted))))
	w.b.WriteString(startTag("СвИП", "ДатаВып", registerDay(o.RegisterExtracted), "ОГРНИП", o.OGRN, "ДатаОГРНИП", registerDay(o.RegisteredAt),
		"ИННФЛ", o.INN, "КодВидИП", "1", "НаимВидИП", entrepreneurKind) + "\r\n")
	w.open(1, "СвФЛ", "Пол", sex)
	w.empty(2, "ФИОРус", "Фамилия", last, "Имя", first, "Отчество", middle)
	rec(2)
	w.close(1, "СвФЛ")
	w.empty(1, "СвРегИП", "ОГРНИП", o.OGRN, "ДатаОГРНИП", registerDay(o.RegisteredAt))
	w.taxOffice(o, office, "ИННФЛ", rec)
	if err := w.activities(o, rec); err != nil {
		return err
	}
	w.registration(o, office, "СвЗапЕГРИП", "ГРНИП", "21211", "Государственная регистрация физического лица в качестве индивидуального предпринимателя")
	w.b.WriteString("</СвИП></Документ>\r\n")
	return nil
}

// registration writes the register's record of o's registration, the
// element of its register (СвЗапЕГРЮЛ, СвЗапЕГРИП) with the kind of record
// and the tax office that made it.
func (w *registerWriter) registration(o *tenderbase.Org, office, element, grn, kind, kindName string) {
	w.open(1, element, "ИдЗап", o.OGRN, grn, o.OGRN, "ДатаЗап", registerDay(o.RegisteredAt))
	w.empty(2, "ВидЗап", "КодСПВЗ", kind, "НаимВидЗап", kindName)
	w.empty(2, "СвРегОрг", "КодНО", office, "НаимНО", taxOfficeName(office, o.Region))
	w.close(1, element)
}

// address writes <СвАдресЮЛ> with the address under the KLADR classifier.
func (w *registerWriter) address(a registerAddress, rec func(int)) {
	w.open(1, "СвАдресЮЛ")
	w.addressRF(2, "АдресРФ", a, rec)
	w.close(1, "СвАдресЮЛ")
}

// addressRF writes an address under the KLADR classifier as element el
// (<АдресРФ>, or <СвАдрРФ> of a manager, <АдрМНРФ> of a subdivision).
func (w *registerWriter) addressRF(depth int, el string, a registerAddress, rec func(int)) {
	r := registerRegions[a.Region]
	w.open(depth, el, "Индекс", a.Postcode, "КодРегион", fmt.Sprintf("%02d", a.Region), "Дом", a.House)
	w.empty(depth+1, "Регион", "ТипРегион", r.Type, "НаимРегион", r.Name)
	if r.City != "" {
		w.empty(depth+1, "Город", "ТипГород", cityType, "НаимГород", r.City)
	}
	w.empty(depth+1, "Улица", "ТипУлица", a.StreetType, "НаимУлица", a.Street)
	rec(depth + 1)
	w.close(depth, el)
}

// managers writes a <СвУпрОрг> for each managing organization of o: its
// name, INN and OGRN, and its address.
func (w *registerWriter) managers(o *tenderbase.Org, rec func(int)) error {
	for _, m := range o.Managers {
		w.open(1, "СвУпрОрг")
		w.record(o.OGRN, o.RegisteredAt, "ГРНДатаПерв", "ГРН")(2)
		w.open(2, "НаимИННЮЛ", "ОГРН", m.OGRN, "ИНН", m.INN, "НаимЮЛПолн", m.Name)
		rec(3)
		w.close(2, "НаимИННЮЛ")
		if m.Address != "" {
			a, err := anyRegisterAddress(m.Address)
			if err != nil {
				return fmt.Errorf("manager %s: %w", m.INN, err)
			}
			w.addressRF(2, "СвАдрРФ", a, rec)
		}
		w.close(1, "СвУпрОрг")
	}
	return nil
}

// subdivisions writes <СвПодразд>: the branches of o (<СвФилиал>), then its
// representative offices (<СвПредстав>), each with its name, its address
// and its registration with the tax office of its KPP.
func (w *registerWriter) subdivisions(o *tenderbase.Org, rec func(int)) error {
	if len(o.Branches) == 0 {
		return nil
	}
	w.open(1, "СвПодразд")
	for _, kind := range []struct{ kind, el, reg string }{
		{tenderbase.BranchOffice, "СвФилиал", "СвУчетНОФилиал"},
		{tenderbase.RepresentativeOffice, "СвПредстав", "СвУчетНОПредстав"},
	} {
		for _, b := range o.Branches {
			if b.Kind != kind.kind {
				continue
			}
			a, err := anyRegisterAddress(b.Address)
			if err != nil {
				return fmt.Errorf("subdivision %s: %w", b.KPP, err)
			}
			w.open(2, kind.el)
			w.record(o.OGRN, o.RegisteredAt, "ГРНДатаПерв", "ГРН")(3)
			w.open(3, "СвНаим", "НаимПолн", b.Name)
			rec(4)
			w.close(3, "СвНаим")
			w.addressRF(3, "АдрМНРФ", a, rec)
			w.open(3, kind.reg, "КПП", b.KPP, "ДатаПостУч", registerDay(o.RegisteredAt))
			w.empty(4, "СвНО", "КодНО", b.KPP[:4], "НаимНО", taxOfficeName(b.KPP[:4], a.Region))
			rec(4)
			w.close(3, kind.reg)
			w.close(2, kind.el)
		}
	}
	w.close(1, "СвПодразд")
	return nil
}

// taxOffice writes the registering office and the registration with it;
// the demo registers every subject with the office its INN names.
func (w *registerWriter) taxOffice(o *tenderbase.Org, office, innAttr string, rec func(int)) {
	name := taxOfficeName(office, o.Region)
	w.open(1, "СвРегОрг", "КодНО", office, "НаимНО", name)
	rec(2)
	w.close(1, "СвРегОрг")
	w.open(1, "СвУчетНО", innAttr, o.INN, "КПП", o.KPP, "ДатаПостУч", registerDay(o.RegisteredAt))
	w.empty(2, "СвНО", "КодНО", office, "НаимНО", name)
	rec(2)
	w.close(1, "СвУчетНО")
}

// activities writes <СвОКВЭД>: the main activity, then the others.
func (w *registerWriter) activities(o *tenderbase.Org, rec func(int)) error {
	if len(o.ActivityCodes) == 0 || o.ActivityCodes[0] != o.MainActivity || o.ActivityVersion != "OKVED2" {
		return fmt.Errorf("activities %v of main %q in %q", o.ActivityCodes, o.MainActivity, o.ActivityVersion)
	}
	w.open(1, "СвОКВЭД")
	for i, code := range o.ActivityCodes {
		name := o.ActivityNames[code]
		if name == "" {
			return fmt.Errorf("OKVED %s has no name", code)
		}
		el := "СвОКВЭДДоп"
		if i == 0 {
			el = "СвОКВЭДОсн"
		}
		w.open(2, el, "КодОКВЭД", code, "НаимОКВЭД", name, "ПрВерсОКВЭД", "2014")
		rec(3)
		w.close(2, el)
	}
	w.close(1, "СвОКВЭД")
	return nil
}

// registerWriter writes a register file as the tax service lays it out:
// two spaces a level, CRLF, a space before the slash of an empty element.
type registerWriter struct {
	b strings.Builder
}

func (w *registerWriter) open(depth int, name string, attrs ...string) {
	w.b.WriteString(strings.Repeat("  ", depth) + startTag(name, attrs...) + "\r\n")
}

func (w *registerWriter) empty(depth int, name string, attrs ...string) {
	t := startTag(name, attrs...)
	w.b.WriteString(strings.Repeat("  ", depth) + t[:len(t)-1] + " />\r\n")
}

func (w *registerWriter) close(depth int, name string) {
	w.b.WriteString(strings.Repeat("  ", depth) + "</" + name + ">\r\n")
}

// record returns a writer of the reference to the register record number
// at date, the record every element of the demo's extracts was made by.
func (w *registerWriter) record(number string, at time.Time, el, attr string) func(depth int) {
	return func(depth int) { w.empty(depth, el, attr, number, "ДатаЗаписи", registerDay(at)) }
}

// startTag returns the start tag of name with the attributes, given as
// name and value pairs; an empty value is left out.
func startTag(name string, attrs ...string) string {
	var b strings.Builder
	b.WriteString("<" + name)
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i+1] != "" {
			b.WriteString(" " + attrs[i] + `="` + attrEscaper.Replace(attrs[i+1]) + `"`)
		}
	}
	b.WriteString(">")
	return b.String()
}

// attrEscaper escapes an attribute value as the tax service does.
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// registerDay writes a register date of the current layout.
func registerDay(t time.Time) string { return t.Format(time.DateOnly) }

// registerUUID returns an id in the form of a UUID, the same for the same
// seed, as the tax service names its files and documents by UUIDs.
func registerUUID(seed string) string {
	h := sha1.Sum([]byte(seed))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
