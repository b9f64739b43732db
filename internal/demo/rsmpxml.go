package demo

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's small and medium suppliers as the tax service publishes the
// SME register (VO_RRMSPSV, format 4.04): a zip archive of a UTF-8 XML file
// on one line, read by internal/source/rsmp in place. A document gives the
// category, the inclusion date and the state's date, the subject's names,
// region and OKVED codes.

// RSMPBorn reports whether r comes in through the demo's SME register: an
// organization listed in it.
func RSMPBorn(r tenderbase.Record) bool {
	o, ok := r.(*tenderbase.Org)
	return ok && o.SME != ""
}

// smeCategoryCodes are the codes of КатСубМСП.
var smeCategoryCodes = map[string]string{"micro": "1", "small": "2", "medium": "3"}

// WriteRSMP returns the archive of the SME register's state holding the
// organizations of recs listed in it, in the order of recs.
func WriteRSMP(recs []tenderbase.Record) ([]File, error) {
	var listed []*tenderbase.Org
	for _, r := range recs {
		if o, ok := r.(*tenderbase.Org); ok && RSMPBorn(o) {
			listed = append(listed, o)
		}
	}
	if len(listed) == 0 {
		return nil, nil
	}
	asOf := listed[0].SMEReported
	var inns []string
	var docs strings.Builder
	for _, o := range listed {
		if !o.SMEReported.Equal(asOf) {
			return nil, fmt.Errorf("SME register: INN %s reported on %s, others on %s", o.INN, smeDay(o.SMEReported), smeDay(asOf))
		}
		if err := smeDocument(&docs, o); err != nil {
			return nil, fmt.Errorf("SME register: INN %s: %w", o.INN, err)
		}
		inns = append(inns, o.INN)
	}
	// The file is dated the day after the state it gives, as published.
	published := asOf.AddDate(0, 0, 1)
	id := fmt.Sprintf("VO_RRMSPSV_0000_9965_%s_%s", published.Format("20060102"), registerUUID("РЕЕСТРМСП"+strings.Join(inns, ",")))
	xml := `<?xml version="1.0" encoding="UTF-8"?>` +
		startTag("Файл", "ИдФайл", id, "ВерсФорм", "4.04", "ТипИнф", "РЕЕСТРМСП", "КолДок", fmt.Sprint(len(listed))) +
		`<ИдОтпр><ФИООтв Фамилия="-" Имя="-"/></ИдОтпр>` + docs.String() + "</Файл>\n"
	data, err := zipOf(id+".xml", []byte(xml), published.Add(6*time.Hour))
	if err != nil {
		return nil, fmt.Errorf("SME register archive: %w", err)
	}
	return []File{{Name: "data-" + asOf.Format("02012006") + ".zip", Data: data}}, nil
}

// smeDocument writes the <Документ> of o.
func smeDocument(b *strings.Builder, o *tenderbase.Org) error {
	category := smeCategoryCodes[o.SME]
	r, ok := registerRegions[o.Region]
	if category == "" || !ok {
		return fmt.Errorf("category %q in region %d", o.SME, o.Region)
	}
	kind := "1"
	if o.RegisterSource == "egrip" {
		kind = "2"
	}
	b.WriteString(startTag("Документ", "ИдДок", registerUUID("МСП"+o.INN+smeDay(o.SMEReported)), "ДатаСост", smeDay(o.SMEReported),
		"ДатаВклМСП", smeDay(o.SMESince), "ВидСубМСП", kind, "КатСубМСП", category, "ПризНовМСП", "2", "СведСоцПред", "2"))
	if kind == "2" {
		last, first, middle := personName(o.Name)
		b.WriteString(startTag("ИПВклМСП", "ИННФЛ", o.INN, "ОГРНИП", o.OGRN) +
			emptyTag("ФИОИП", "Фамилия", last, "Имя", first, "Отчество", middle) + "</ИПВклМСП>")
	} else {
		b.WriteString(emptyTag("ОргВклМСП", "НаимОрг", o.Name, "НаимОргСокр", o.ShortName, "ИННЮЛ", o.INN))
	}
	b.WriteString(startTag("СведМН", "КодРегион", fmt.Sprintf("%02d", o.Region)))
	if r.Type == "" { // a federal city: "Г.МОСКВА"
		name, _ := strings.CutPrefix(r.Name, cityType)
		b.WriteString(emptyTag("Регион", "Тип", cityType, "Наим", name))
	} else {
		b.WriteString(emptyTag("Регион", "Тип", r.Type, "Наим", r.Name) + emptyTag("Город", "Тип", cityType, "Наим", r.City))
	}
	b.WriteString("</СведМН><СвОКВЭД>")
	for i, code := range o.ActivityCodes {
		el := "СвОКВЭДДоп"
		if i == 0 {
			el = "СвОКВЭДОсн"
		}
		b.WriteString(emptyTag(el, "КодОКВЭД", code, "НаимОКВЭД", o.ActivityNames[code], "ВерсОКВЭД", "2014"))
	}
	b.WriteString("</СвОКВЭД></Документ>")
	return nil
}

// emptyTag returns an empty element as the SME register writes it.
func emptyTag(name string, attrs ...string) string {
	t := startTag(name, attrs...)
	return t[:len(t)-1] + "/>"
}

// smeDay writes a date of the SME register.
func smeDay(t time.Time) string { return t.Format("02.01.2006") }

// zipOf returns a zip archive holding data as name, modified at mod.
func zipOf(name string, data []byte, mod time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod})
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
