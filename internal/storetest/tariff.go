package storetest

import (
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Keys of the records of TariffRecords.
const (
	dCartridges  = "tariff-doc-cartridges" // open: поставка бумаги; tariff text: картриджи для принтера
	dSplit       = "tariff-doc-split"      // open ends "техническое", tariff text begins "задание"
	dLong        = "tariff-doc-long"       // a tariff text of one word 300 times: a lossy tsvector
	cCleaning    = "2770000000125000001"   // open: уборка помещений; tariff: supplier ООО Чистота
	tariffTender = "0373100000125000001"   // the tender the documents are of
	tPaperOnly   = "0373100000125000002"   // a tender: its kind has no tariff text
	cRemoval     = "2770000000125000009"   // put after the others: supplier ООО Экология
)

// TariffRecords returns records with words in the text of tariff fields
// (tenderbase.TariffText) and others in the text every plan sees, which
// the TariffText part of the suite searches.
func TariffRecords() []tenderbase.Record {
	doc := func(id, description, text string, d int) *tenderbase.Doc {
		return &tenderbase.Doc{ID: id, PurchaseNumber: tariffTender, Region: 77, FileName: id + ".docx",
			Description: description, Text: text, PublishedAt: day(d)}
	}
	return []tenderbase.Record{
		doc(dCartridges, "Поставка бумаги", "Картриджи для принтера", 1),
		doc(dSplit, "Документация техническое", "задание на поставку", 2),
		doc(dLong, "Поставка бумаги офисной", strings.Repeat("картридж ", 300)+"тонер черный", 3),
		&tenderbase.Tender{PurchaseNumber: tPaperOnly, Law: "44", Version: 1, Title: "Поставка бумаги для школы",
			Customer: tenderbase.Party{INN: "7701000001", Name: "ГБУ Школа"}, Region: 77, PublishedAt: day(5),
			Contact: tenderbase.Contact{Person: "Иванова"}},
		&tenderbase.Contract{RegNumber: cCleaning, Law: "44", Subject: "Уборка помещений", Region: 77,
			Customer:  tenderbase.Party{INN: "7701000001", Name: "ГБУ Школа"},
			Suppliers: []tenderbase.Party{{INN: "7701234567", Name: "ООО Чистота"}}, SignedAt: day(4)},
	}
}

// tariffCase is a search of a caller who may match the text of tariff
// fields (want) and of one who may not (wantOpen).
type tariffCase struct {
	name           string
	kind           tenderbase.Kind
	query          string
	where          []tenderbase.Lookup
	want, wantOpen []string
}

func tariffCases() []tariffCase {
	docs, contracts := tenderbase.KindDoc, tenderbase.KindContract
	byTender := []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: tariffTender}}
	return []tariffCase{
		{"open word", docs, "бумаги", nil, []string{dLong, dCartridges}, []string{dLong, dCartridges}},
		{"tariff word", docs, "картридж", nil, []string{dLong, dCartridges}, nil},
		{"tariff exact word", docs, "=картриджи", nil, []string{dCartridges}, nil},
		{"open and tariff words", docs, "бумаги & принтера", nil, []string{dCartridges}, nil},
		{"either", docs, "принтера | офисной", nil, []string{dLong, dCartridges}, []string{dLong}},
		{"excluding a tariff word", docs, "бумаги & !принтера", nil, []string{dLong}, []string{dLong, dCartridges}},
		{"tariff phrase", docs, `"картриджи для"`, nil, []string{dCartridges}, nil},
		{"mixed tariff phrase", docs, `"=картриджи для"`, nil, []string{dCartridges}, nil},
		{"phrase in a lossy tariff text", docs, `"тонер черный"`, nil, []string{dLong}, nil},
		{"phrase in an open text beside a lossy one", docs, `"бумаги офисной"`, nil, []string{dLong}, []string{dLong}},
		{"phrase across the open and the tariff text", docs, `"техническое задание"`, nil, nil, nil},
		{"tariff word within a lookup", docs, "принтера", byTender, []string{dCartridges}, nil},
		{"mixed phrase within a lookup", docs, `"=картриджи для"`, byTender, []string{dCartridges}, nil},
		{"open word within a lookup", docs, "поставка", byTender, []string{dLong, dSplit, dCartridges}, []string{dLong, dCartridges}},
		{"supplier's name", contracts, "чистота", nil, []string{cCleaning}, nil},
		{"supplier's INN", contracts, "7701234567", nil, []string{cCleaning}, nil},
		{"customer's INN", contracts, "7701000001", nil, []string{cCleaning}, []string{cCleaning}},
		{"a kind without tariff text", tenderbase.KindTender, "бумаги & !=поставки", nil, []string{tPaperOnly}, []string{tPaperOnly}},
		{"a phrase of a kind without tariff text", tenderbase.KindTender, `"бумаги для"`, nil, []string{tPaperOnly}, []string{tPaperOnly}},
		{"a word in a tariff field that is not searched", tenderbase.KindTender, "иванова", nil, nil, nil},
	}
}

// CheckTariffText runs the searches of the TariffText part of the suite
// against st, which holds TariffRecords, however they came there: a store
// test also runs them on a database it made in an older layout. Then it
// puts a contract and finds it by its open text alone and by its
// supplier's name only where the tariff text may match.
func CheckTariffText(t *testing.T, st tenderbase.Store) {
	c := &corpusStore{st: st, records: TariffRecords()}
	for _, tc := range tariffCases() {
		t.Run(tc.name, func(t *testing.T) {
			s := tenderbase.Search{Kind: tc.kind, Query: mustParse(t, tc.query, query.MCP), Where: tc.where}
			c.check(t, s, tc.want...)
			s.OpenTextOnly = true
			c.check(t, s, tc.wantOpen...)
		})
	}
	t.Run("put afterwards", func(t *testing.T) {
		added := &tenderbase.Contract{RegNumber: cRemoval, Law: "44", Subject: "Вывоз мусора", SignedAt: day(6),
			Suppliers: []tenderbase.Party{{Name: "ООО Экология"}}}
		put(t, st, added)
		c.records = append(c.records, added)
		s := tenderbase.Search{Kind: tenderbase.KindContract, Query: mustParse(t, "экология | мусора", query.MCP)}
		c.check(t, s, cRemoval)
		s.Query, s.OpenTextOnly = mustParse(t, "экология", query.MCP), true
		c.check(t, s)
	})
}
