package eis

import (
	"encoding/xml"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// valuesSummary is what TestPublishedValues checks of a notice: the values
// as published, amounts in the shortest form that reads back the same.
type valuesSummary struct {
	Title     string
	Region    int
	MaxPrice  string
	Currency  string
	MaxPrices []tenderbase.Money
	Lots      []string
	Objects   []string
	Files     []string
}

func valuesOf(t *tenderbase.Tender) valuesSummary {
	s := valuesSummary{Title: t.Title, Region: t.Region, MaxPrice: fmt.Sprint(t.MaxPrice), Currency: t.Currency, MaxPrices: t.MaxPrices}
	for _, l := range t.Lots {
		s.Lots = append(s.Lots, fmt.Sprintf("%d %q %v %s", l.Number, l.Title, l.MaxPrice, l.Currency))
		for _, o := range l.Objects {
			s.Objects = append(s.Objects, fmt.Sprintf("OKPD2 %s %s | OKPD %s %s | KTRU %s | MNN %q | %q",
				o.OKPD2Code, o.OKPD2Name, o.OKPDCode, o.OKPDName, o.KTRUCode, o.MNN, o.Name))
		}
	}
	for _, a := range t.Attachments {
		s.Files = append(s.Files, fmt.Sprintf("%q | %q", a.FileName, a.Description))
	}
	return s
}

// TestPublishedValues: the notices of testdata/notice-values come back as
// published: objects of every classifier, money summed exactly and per
// currency, runs of spaces kept, the region of Baikonur.
func TestPublishedValues(t *testing.T) {
	tests := []struct {
		file string
		want valuesSummary
	}{
		{"fcsNotificationOK_0198100000115000007_5561234.xml", valuesSummary{
			Title:  "Обслуживание  зданий и  территорий города Байконур",
			Region: 99, // INN and KPP of the tax office of Baikonur, 9901
			// 11710183.86 + 11710183.87, which floats add up to 23420367.729999997.
			MaxPrice: "2.342036773e+07", Currency: "RUB",
			Lots: []string{
				`1 "Уборка  административных зданий" 1.171018386e+07 RUB`,
				`2 "Уборка прилегающих территорий" 1.171018387e+07 RUB`,
			},
			Objects: []string{
				`OKPD2   | OKPD 74.70.13.000 Услуги по уборке зданий | KTRU  | MNN "" | "Влажная  уборка   помещений"`,
				// Without a name of its own, the object is named by its class.
				`OKPD2   | OKPD 90.02.13.000 Услуги по уборке улиц и дорог | KTRU  | MNN "" | "Услуги по уборке улиц и дорог"`,
			},
			Files: []string{`"Конкурсная  документация   (лоты 1 и 2).docx" | "Конкурсная  документация"`},
		}},
		{"fcsNotificationOK_0373100064615000125_5561300.xml", valuesSummary{
			Title: "Поставка медицинского оборудования для НИИ", Region: 77,
			MaxPrice: "0", MaxPrices: []tenderbase.Money{{Amount: 1520000.50, Currency: "RUB"}, {Amount: 20450.75, Currency: "EUR"}},
			Lots: []string{
				`1 "Аппараты ультразвуковой диагностики" 1.5200005e+06 RUB`,
				`2 "Томограф (поставка из-за рубежа)" 20450.75 EUR`,
			},
			Objects: []string{
				`OKPD2   | OKPD 33.10.12.110 Аппараты ультразвуковые диагностические | KTRU  | MNN "" | "Аппарат УЗИ"`,
				`OKPD2   | OKPD 33.10.13.110 Томографы | KTRU  | MNN "" | "Томографы"`,
			},
			Files: []string{`"Техническое задание.pdf" | "Техническое задание"`},
		}},
		{"epNotificationEZT2020_0372200067924000512_1.xml", valuesSummary{
			// The notice names no object: the drug's MNN names it and the tender.
			Title:  "Амоксициллин  +  Клавулановая кислота",
			Region: 78, MaxPrice: "48960", Currency: "RUB",
			Lots: []string{`1 "Амоксициллин  +  Клавулановая кислота" 48960 RUB`},
			Objects: []string{
				`OKPD2 21.20.10.131 Пенициллины широкого спектра действия | OKPD   | KTRU  | MNN "Амоксициллин  +  Клавулановая кислота" | "Амоксициллин  +  Клавулановая кислота"`,
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			recs, errs := decodeRecords(t, filepath.Join("testdata", "notice-values", tt.file))
			if len(errs) > 0 || len(recs) == 0 {
				t.Fatalf("rejections %v, %d records", errs, len(recs))
			}
			summarize(t, recs) // every doc describes its tender; every record round-trips
			if diff := cmp.Diff(tt.want, valuesOf(recs[0].(*tenderbase.Tender))); diff != "" {
				t.Errorf("tender (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKTRUObjects: an object given by a KTRU position keeps the position's
// code besides its OKPD2 class.
func TestKTRUObjects(t *testing.T) {
	path := filepath.Join(sharedData, "eis44-unverified-templates", "rezident1989__portal44_xml", "epNotificationEZT2020.xml")
	recs, errs := decodeRecords(t, path)
	if len(errs) > 0 || len(recs) == 0 {
		t.Skipf("%s: %v", path, errs)
	}
	o := recs[0].(*tenderbase.Tender).Lots[0].Objects[0]
	if o.KTRUCode != "56.10.10.000-00000001" || o.OKPD2Code != "32.99.11.120" {
		t.Errorf("KTRU object: %+v; want KTRU 56.10.10.000-00000001 of OKPD2 32.99.11.120", o)
	}
}

// TestContractProductClassifiers: a contract's product keeps the code of
// the classifier it is given by: OKPD (2014-2016), OKPD2 or KTRU.
func TestContractProductClassifiers(t *testing.T) {
	tests := []struct {
		xml  string
		want tenderbase.PurchaseObject
	}{
		{`<product><OKPD><code>74.70.13.000</code><name>Услуги по уборке зданий</name></OKPD><price>97.58</price></product>`,
			tenderbase.PurchaseObject{OKPDCode: "74.70.13.000", OKPDName: "Услуги по уборке зданий", Name: "Услуги по уборке зданий", Price: 97.58}},
		{`<product><OKPD2><code>81.21.10.000</code><name>Услуги по общей уборке зданий</name></OKPD2><name>Уборка  помещений</name></product>`,
			tenderbase.PurchaseObject{OKPD2Code: "81.21.10.000", OKPD2Name: "Услуги по общей уборке зданий", Name: "Уборка  помещений"}},
		{`<product><KTRU><code>17.23.13.191-00000002</code><name>Тетрадь школьная</name></KTRU></product>`,
			tenderbase.PurchaseObject{OKPD2Code: "17.23.13.191", KTRUCode: "17.23.13.191-00000002", Name: "Тетрадь школьная"}},
	}
	for _, tt := range tests {
		var p contract44Product
		if err := xml.Unmarshal([]byte(tt.xml), &p); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, p.object()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.xml, diff)
		}
	}
}
