package eis

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// TestContract223Fixtures reads the two 223-FZ contract fixtures, one item
// a file as the schema has it, the second without a contract registry
// number, based on a 44-FZ notice, with a supplier who is a person and a
// position classified by OKDP only; then the same items as one file of two.
func TestContract223Fixtures(t *testing.T) {
	files := []string{"contract223_56164210044210001230002.xml", "contract223_56125025601210000040001.xml"}
	docs := readFixtures(t, "contract", files...)
	var got []*tenderbase.Contract
	for _, file := range files {
		got = append(got, decodeContractFile(t, filepath.Join("testdata", "contract", file))...)
	}
	want := []*tenderbase.Contract{{
		RegNumber:      "56164210044210001230000",
		Law:            "223",
		Version:        2,
		PurchaseNumber: "32110187345",
		Number:         "ДТ-218/21",
		Subject:        "Поставка оптического кабеля и муфт для строительства линий связи",
		Customer: tenderbase.Party{INN: "6164210044", KPP: "616401001", OGRN: "1026103284417",
			Name: `ОТКРЫТОЕ АКЦИОНЕРНОЕ ОБЩЕСТВО "ДОНТЕЛЕКОМ"`, ShortName: `ОАО "ДОНТЕЛЕКОМ"`,
			Address: "344002, Ростовская обл, г Ростов-на-Дону, пр-кт Буденновский, дом 30"},
		Suppliers: []tenderbase.Party{{INN: "2312270518", KPP: "231201001",
			Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЮГКАБЕЛЬСНАБ"`, ShortName: `ООО "ЮГКАБЕЛЬСНАБ"`,
			Address: "350059, Краснодарский край, КРАСНОДАР Г, ВАСНЕЦОВА УЛ, 39, 204"}},
		Region:      61,
		Price:       2871640.8,
		Currency:    "RUB",
		SignedAt:    contractAt(t, "2021-05-24T00:00:00+03:00"),
		PublishedAt: contractAt(t, "2021-06-09T18:01:57+03:00"),
		StartsAt:    contractAt(t, "2021-05-24T00:00:00+03:00"),
		EndsAt:      contractAt(t, "2021-12-31T00:00:00+03:00"),
		Objects: []tenderbase.PurchaseObject{{
			OKPD2Code: "27.31.12.110", OKPD2Name: "Кабели волоконно-оптические для передачи данных",
			Name: "Кабель оптический самонесущий 48 волокон", Quantity: 42.5, Unit: "Километр; тысяча метров", Price: 61240.08,
		}, {
			OKPD2Code: "27.33.13.190", OKPD2Name: "Изделия электроустановочные прочие",
			Name: "Муфта оптическая тупиковая", Quantity: 120, Unit: "Штука", Price: 2241.14,
		}},
		URL: "https://zakupki.gov.ru/223/contract/public/contract/view/general-information.html?id=11802254",
	}, {
		RegNumber:      "56125025601210000040001",
		Law:            "223",
		Version:        1,
		PurchaseNumber: "0358300009921000017",
		Subject:        "Оказание услуг по поверке приборов учета воды",
		Customer: tenderbase.Party{INN: "6125025601", KPP: "612501001",
			Name: `МУНИЦИПАЛЬНОЕ УНИТАРНОЕ ПРЕДПРИЯТИЕ "ОКТЯБРЬСКИЙ ВОДОКАНАЛ"`, ShortName: `МУП "ОКТЯБРЬСКИЙ ВОДОКАНАЛ"`,
			Address: "346480, Ростовская обл, Октябрьский р-н, рп Каменоломни, ул Комсомольская, дом 5"},
		Suppliers: []tenderbase.Party{{INN: "612500384617",
			Name:    "Индивидуальный предприниматель Гончаров Виктор Семенович",
			Address: "346480, Ростовская обл, рп Каменоломни, ул Мира, 14"}},
		Region:      61,
		Price:       96000,
		Currency:    "RUB",
		SignedAt:    contractAt(t, "2021-06-07T00:00:00+03:00"),
		PublishedAt: contractAt(t, "2021-06-09T17:26:40+03:00"),
		StartsAt:    contractAt(t, "2021-06-07T00:00:00+03:00"),
		EndsAt:      contractAt(t, "2021-09-30T00:00:00+03:00"),
		Objects: []tenderbase.PurchaseObject{{OKDPCode: "7421000", OKDPName: "Услуги в области метрологии",
			Name: "Поверка счетчиков холодной воды"}},
		URL: "https://zakupki.gov.ru/223/contract/public/contract/view/general-information.html?id=11802391",
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("contracts (-want +got):\n%s", diff)
	}

	recs, errs := decodeAll(t, "contract223_daily.xml", joinItems(t, docs[0], docs[1]))
	if len(errs) != 0 {
		t.Fatalf("two items: rejections %v", errs)
	}
	got = nil
	for _, rec := range recs {
		got = append(got, roundTripContract(t, rec))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("two items: contracts (-want +got):\n%s", diff)
	}
}

func TestContract223RealFiles(t *testing.T) {
	dir := filepath.Join("eis223", "Homyakin__ZakupkiParser")
	tests := []struct {
		file string
		want contractSummary
	}{
		{"contract_test2.xml", contractSummary{RegNumber: "50105018196180000870000", PurchaseNumber: "31806504639", Number: "АГ-1/0235/18",
			Version: 1, Region: 1, CustomerINN: "0105018196", CustomerName: `АКЦИОНЕРНОЕ ОБЩЕСТВО "ГАЗПРОМ ГАЗОРАСПРЕДЕЛЕНИЕ МАЙКОП"`,
			SupplierINNs:  []string{"2310140001"},
			SupplierNames: []string{`ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "КУБАНСКАЯ НЕФТЕГАЗОВАЯ КОМПАНИЯ"`},
			Price:         317962.72, Currency: "RUB", Signed: "2018-05-28", Ends: "2018-12-31"}},
		// A contract without a procurement notice (a single supplier), with
		// a double space in the customer's name.
		{"contract_Severnaia_Osetiya_Alaniia_Resp_20150101_000000_20150131_235959_001.xml", contractSummary{
			RegNumber: "51511012960150000010000", Version: 1, Region: 15,
			CustomerINN: "1511012960", CustomerName: `Открытое акционерное общество  "Международный аэропорт Владикавказ"`,
			SupplierINNs:  []string{"1513030845"},
			SupplierNames: []string{`ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ТОПЛИВОЗАПРАВОЧНАЯ КОМПАНИЯ АЭРОПОРТ"`},
			Price:         3984420, Currency: "RUB", Signed: "2015-01-15", Ends: "2015-01-31"}},
		// A daily file whose contract names no supplier.
		{"contract_Adygeya_Resp_20191217_000000_20191217_235959_daily_001.xml", contractSummary{
			RegNumber: "50105018196190002040000", PurchaseNumber: "31908645944", Number: "1638.12.2019", Version: 1, Region: 1,
			CustomerINN: "0105018196", CustomerName: `АКЦИОНЕРНОЕ ОБЩЕСТВО "ГАЗПРОМ ГАЗОРАСПРЕДЕЛЕНИЕ МАЙКОП"`,
			Price: 1750000, Currency: "RUB", Signed: "2019-12-16", Ends: "2020-12-31"}},
	}
	for _, tt := range tests {
		cs := realContracts(t, filepath.Join(dir, tt.file))
		if len(cs) != 1 {
			t.Errorf("%s: %d contracts, want 1", tt.file, len(cs))
			continue
		}
		if cs[0].Law != "223" {
			t.Errorf("%s: law %q, want 223", tt.file, cs[0].Law)
		}
		if diff := cmp.Diff(tt.want, summarizeContract(cs[0])); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.file, diff)
		}
	}
}

// TestContractsThroughTheStore imports the contract fixtures into a real
// SQLite store: every contract lands, is found by its numbers and by the INN
// of any supplier, is filtered by region and law, and a second import
// changes nothing.
func TestContractsThroughTheStore(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tenderbase.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	dir := filepath.Join("testdata", "contract")
	opts := importer.Options{Decoders: []importer.Decoder{Format{}}}
	sum, err := importer.Import(ctx, store, []string{dir}, opts)
	if err != nil || sum.Records != 9 || sum.Inserted != 9 || sum.Rejected != 0 {
		t.Fatalf("first import: %+v, %v; want 7 contracts and 2 annulments inserted", sum, err)
	}
	for _, where := range []tenderbase.Lookup{
		{Field: tenderbase.LookupRegNumber, Value: "0358100021512000009"},
		{Field: tenderbase.LookupPurchaseNumber, Value: "32110187345"},
		{Field: tenderbase.LookupSupplierINN, Value: "9909512784"},
		{Field: tenderbase.LookupCustomerINN, Value: "6125025601"},
	} {
		page, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindContract, Where: []tenderbase.Lookup{where}})
		if err != nil || page.Total != 1 {
			t.Errorf("contracts by %s %s: %+v, %v; want 1", where.Field, where.Value, page, err)
		}
	}
	rostov223, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindContract,
		Filters: tenderbase.Filters{Regions: []int{61}, Laws: []string{"223"}}})
	if err != nil || rostov223.Total != 2 {
		t.Errorf("223-FZ contracts of region 61: %+v, %v; want 2", rostov223, err)
	}
	again, err := importer.Import(ctx, store, []string{dir}, opts)
	if err != nil || again.Unchanged != 9 {
		t.Fatalf("second import: %+v, %v; want every record unchanged", again, err)
	}
}

// TestContract223SupplierPhone: a 223-FZ supplier's phone, given with its
// address, is its contact.
func TestContract223SupplierPhone(t *testing.T) {
	cs := realContracts(t, filepath.Join("eis223", "Homyakin__ZakupkiParser", "contract_test.xml"))
	if len(cs) != 1 || len(cs[0].Suppliers) != 1 {
		t.Fatalf("%d contracts, want 1 with one supplier", len(cs))
	}
	if s := cs[0].Suppliers[0]; s.INN != "0105055790" || s.Contact.Phone != "89184230101" {
		t.Errorf("supplier %s, contact %+v; want 0105055790 with phone 89184230101", s.INN, s.Contact)
	}
}
