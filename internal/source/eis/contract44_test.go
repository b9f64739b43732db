package eis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// contractAt parses an RFC 3339 time of an expected record.
func contractAt(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// decodeContractFile decodes a file through the whole format, as the importer
// does, and returns its contracts. Every record must be a contract with a
// key that survives its canonical JSON; a rejection fails the test.
func decodeContractFile(t *testing.T, path string) []*tenderbase.Contract {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := decodeAll(t, filepath.Base(path), string(data))
	if len(errs) != 0 {
		t.Fatalf("%s: rejections %v", path, errs)
	}
	var cs []*tenderbase.Contract
	for _, rec := range recs {
		cs = append(cs, roundTripContract(t, rec))
	}
	return cs
}

// roundTripContract checks that rec is a contract with a key and that its
// canonical JSON decodes to the same record.
func roundTripContract(t *testing.T, rec tenderbase.Record) *tenderbase.Contract {
	t.Helper()
	c, ok := rec.(*tenderbase.Contract)
	if !ok {
		t.Fatalf("record of kind %s, want a contract", rec.Kind())
	}
	body, err := tenderbase.MarshalRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tenderbase.DecodeRecord(tenderbase.KindContract, body)
	if err != nil {
		t.Fatalf("contract %q does not decode from its JSON: %v\n%s", c.Key(), err, body)
	}
	if diff := cmp.Diff(c, back); diff != "" {
		t.Errorf("contract %q changes through its JSON (-emitted +decoded):\n%s", c.Key(), diff)
	}
	return c
}

func TestContract44Fixtures(t *testing.T) {
	tests := []struct {
		file string
		want []*tenderbase.Contract
	}{
		{"contract44_2012_export.xml", want2012Export(t)},
		{"contract44_10_2.xml", want10_2(t)},
		{"contract44_13_2.xml", want13_2(t)},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := decodeContractFile(t, filepath.Join("testdata", "contract", tt.file))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("contracts (-want +got):\n%s", diff)
			}
		})
	}
}

// want2012Export is the 94-FZ registry export: three contracts in one file,
// a supplier that is a person, a customer whose branch is registered in
// another region than its head office, a foundation without a purchase.
func want2012Export(t *testing.T) []*tenderbase.Contract {
	card := "https://zakupki.gov.ru/epz/contract/contractCard/common-info.html?reestrNumber="
	return []*tenderbase.Contract{{
		RegNumber:      "0358300123412000047",
		Law:            "44",
		PurchaseNumber: "0358300123412000031",
		Number:         "0358300123412000031-0154872-01",
		Subject:        "Стол ученический двухместный регулируемый; Стол учительский однотумбовый",
		Customer: tenderbase.Party{INN: "6163041287", KPP: "616301001", RegNum: "03583001234",
			Name: `Муниципальное бюджетное общеобразовательное учреждение "Средняя общеобразовательная школа № 14" города Ростова-на-Дону`},
		Suppliers: []tenderbase.Party{{INN: "6165098421", KPP: "616501001",
			Name:    `Общество с ограниченной ответственностью "Школьная мебель Дона"`,
			Address: "344019, г. Ростов-на-Дону, ул. Закруткина, д. 12",
			Contact: tenderbase.Contact{Person: "Бондаренко Сергей Павлович", Phone: "7-863-2514487"}}},
		Region:      61,
		Price:       412500.5,
		Currency:    "RUB",
		SignedAt:    contractAt(t, "2012-04-06T00:00:00+03:00"),
		PublishedAt: contractAt(t, "2012-04-11T09:15:42Z"),
		EndsAt:      contractAt(t, "2012-08-31T00:00:00+03:00"),
		Objects: []tenderbase.PurchaseObject{
			{OKDPCode: "3612020", OKDPName: "Столы школьные", Name: "Стол ученический двухместный регулируемый", Quantity: 90, Unit: "Штука", Price: 3850.5, Sum: 346545},
			{OKDPCode: "3612020", OKDPName: "Столы школьные", Name: "Стол учительский однотумбовый", Quantity: 12, Unit: "Штука", Price: 5495.55, Sum: 65946.6},
		},
		URL: card + "0358300123412000047",
	}, {
		RegNumber: "0358100021512000009",
		Law:       "44",
		Version:   1,
		Number:    "17",
		Subject:   "Услуги по переплету архивных документов",
		Customer: tenderbase.Party{INN: "7703654812", KPP: "616345001", RegNum: "03581000215",
			Name: `Отдел федерального казенного учреждения "Центр хозяйственного обеспечения" в Ростовской области`},
		Suppliers: []tenderbase.Party{{INN: "616402358841", Name: "Тихонова Галина Ивановна",
			Address: "344002, г. Ростов-на-Дону, пер. Газетный, д. 7, кв. 3",
			Contact: tenderbase.Contact{Phone: "7-918-5503271"}}},
		Region:      61,
		Price:       18000,
		Currency:    "RUB",
		SignedAt:    contractAt(t, "2012-02-01T00:00:00+03:00"),
		PublishedAt: contractAt(t, "2012-04-11T12:40:05Z"),
		EndsAt:      contractAt(t, "2012-12-31T00:00:00+03:00"),
		Objects: []tenderbase.PurchaseObject{{OKDPCode: "7499090", OKDPName: "Услуги прочие",
			Name: "Услуги по переплету архивных документов", Unit: "Условная единица", Price: 18000}},
		URL: card + "0358100021512000009",
	}, {
		RegNumber: "0358300009912000003",
		Law:       "44",
		Number:    "3-ТО",
		Subject:   "Услуги местной телефонной связи",
		Customer: tenderbase.Party{INN: "6125022470", KPP: "612501001", RegNum: "03583000099",
			Name: "Администрация Октябрьского сельского поселения"},
		Suppliers: []tenderbase.Party{{INN: "6164210044", KPP: "616401001",
			Name:    `Открытое акционерное общество "Донтелеком"`,
			Address: "344002, г. Ростов-на-Дону, пр. Буденновский, д. 30",
			Contact: tenderbase.Contact{Person: "Ковалев Андрей Юрьевич"}}},
		Region:      61,
		Currency:    "RUB",
		SignedAt:    contractAt(t, "2012-01-10T00:00:00+03:00"),
		PublishedAt: contractAt(t, "2012-04-11T13:02:51Z"),
		EndsAt:      contractAt(t, "2012-12-31T00:00:00+03:00"),
		Objects: []tenderbase.PurchaseObject{{OKDPCode: "6420020", OKDPName: "Услуги местной телефонной связи",
			Name: "Услуги местной телефонной связи", Unit: "Условная единица"}},
		URL: card + "0358300009912000003",
	}}
}

// want10_2 is a contract of the schemes of 2015-2020: typed suppliers, one
// of them foreign, and a customer registered with the largest taxpayers
// (KPP 99...), whose region comes from its INN.
func want10_2(t *testing.T) []*tenderbase.Contract {
	return []*tenderbase.Contract{{
		RegNumber:      "1770850372719000187",
		Law:            "44",
		Version:        3,
		PurchaseNumber: "0173100004519000212",
		Number:         "0173100004519000212-01",
		Subject:        "Поставка серверного оборудования",
		Customer: tenderbase.Party{INN: "7708503727", KPP: "997650001", RegNum: "01731000045",
			Name: `ФЕДЕРАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ДИРЕКЦИЯ ПО ЭКСПЛУАТАЦИИ АДМИНИСТРАТИВНЫХ ЗДАНИЙ"`},
		Suppliers: []tenderbase.Party{{
			INN: "7804561238", KPP: "780401001", ShortName: `АО "ВС СЗ"`,
			Name:    `АКЦИОНЕРНОЕ ОБЩЕСТВО "ВЫЧИСЛИТЕЛЬНЫЕ СИСТЕМЫ СЕВЕРО-ЗАПАДА"`,
			Address: "195220, Г САНКТ-ПЕТЕРБУРГ, ПР-КТ ГРАЖДАНСКИЙ, Д. 11, ЛИТЕРА А",
			Contact: tenderbase.Contact{Person: "Семенов Игорь Олегович", Email: "info@vs-sz.ru", Phone: "7-812-3354120"},
		}, {
			INN: "9909512784", KPP: "774751001",
			Name:    `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "СЕРВЕРНЫЕ РЕШЕНИЯ"`,
			Address: "220030, Республика Беларусь, г. Минск, ул. Интернациональная, д. 20",
			Contact: tenderbase.Contact{Email: "tender@servres.by", Phone: "375-17-2274418"},
		}},
		Region:      77,
		Price:       12480000,
		Currency:    "RUB",
		SignedAt:    contractAt(t, "2019-12-13T00:00:00+03:00"),
		PublishedAt: contractAt(t, "2020-02-14T15:41:03.512+03:00"),
		StartsAt:    contractAt(t, "2019-12-13T00:00:00+03:00"),
		EndsAt:      contractAt(t, "2020-03-31T00:00:00+03:00"),
		Status:      "terminated",
		Objects: []tenderbase.PurchaseObject{{
			OKPD2Code: "26.20.14.000",
			OKPD2Name: "Машины вычислительные электронные цифровые, поставляемые в виде систем для автоматической обработки данных",
			Name:      "Сервер двухпроцессорный стоечный", Quantity: 8, Price: 1560000, Sum: 12480000,
		}},
		URL: "https://zakupki.gov.ru/epz/contract/contractCard/common-info.html?reestrNumber=1770850372719000187",
	}}
}

// want13_2 is a contract of the schemes since 2020: suppliersInfo with a
// legal entity and an individual entrepreneur, an object classified by KTRU,
// names wrapped over several lines.
func want13_2(t *testing.T) []*tenderbase.Contract {
	return []*tenderbase.Contract{{
		RegNumber:      "3616304128724000015",
		Law:            "44",
		Version:        2,
		PurchaseNumber: "0358300123424000058",
		Number:         "14/2024-ЭА",
		Subject:        `Поставка учебного оборудования и канцелярских товаров для нужд МБОУ "Школа № 14" в 2024 году`,
		Customer: tenderbase.Party{INN: "6163041287", KPP: "616301001", RegNum: "03583001234",
			Name:      `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ ГОРОДА РОСТОВА-НА-ДОНУ "ШКОЛА № 14"`,
			ShortName: `МБОУ "ШКОЛА № 14"`},
		Suppliers: []tenderbase.Party{{
			INN: "6168104632", KPP: "616801001", OGRN: "1186196012754", ShortName: `ООО "ДУЦ"`,
			Name:    `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ДОНСКОЙ УЧЕБНЫЙ ЦЕНТР"`,
			Address: "344092, РОСТОВСКАЯ ОБЛАСТЬ, Г. РОСТОВ-НА-ДОНУ, ПР-КТ КОСМОНАВТОВ, Д. 31",
		}, {
			INN: "616511472903", OGRN: "321619600084417", Name: "Мартыненко Ольга Викторовна",
			Address: "344068, РОСТОВСКАЯ ОБЛАСТЬ, Г. РОСТОВ-НА-ДОНУ, УЛ. ЗОРГЕ, Д. 9, КВ. 41",
		}},
		Region:      61,
		Price:       598400,
		Currency:    "RUB",
		SignedAt:    contractAt(t, "2024-03-18T00:00:00+03:00"),
		PublishedAt: contractAt(t, "2024-03-20T10:05:11.204+03:00"),
		StartsAt:    contractAt(t, "2024-03-18T00:00:00+03:00"),
		EndsAt:      contractAt(t, "2024-06-30T00:00:00+03:00"),
		Status:      "completed",
		Objects: []tenderbase.PurchaseObject{{
			OKPD2Code: "26.20.17.110", OKPD2Name: "Мониторы, подключаемые к компьютеру",
			Name: "Интерактивная панель для учебного класса", Quantity: 2, Unit: "шт", Price: 286000, Sum: 572000,
		}, {
			OKPD2Code: "17.23.13.191", OKPD2Name: "Тетради школьные ученические", KTRUCode: "17.23.13.191-00000002",
			Name: "Тетрадь школьная", Quantity: 2000, Unit: "шт", Price: 13.2, Sum: 26400,
		}},
		URL: "https://zakupki.gov.ru/epz/contract/contractCard/common-info.html?reestrNumber=3616304128724000015",
	}}
}

func TestContractRejections(t *testing.T) {
	export := `<ns2:export xmlns="http://zakupki.gov.ru/oos/types/1" xmlns:ns2="http://zakupki.gov.ru/oos/export/1">`
	tests := []struct{ name, doc, want string }{
		{"no-regnum.xml", export + `<ns2:contract><number>5</number></ns2:contract></ns2:export>`,
			"contract 1 of the file has no registry number (regNum)"},
		{"second-without-regnum.xml", export + `<ns2:contract><regNum>3616304128724000015</regNum></ns2:contract><ns2:contract/></ns2:export>`,
			"contract 2 of the file has no registry number (regNum)"},
		{"bad-price.xml", export + `<ns2:contract><regNum>3616304128724000015</regNum><priceInfo><price>12 500,00</price></priceInfo></ns2:contract></ns2:export>`,
			"contract 1 of the file: "},
		{"bad-date.xml", export + `<ns2:contract><regNum>3616304128724000015</regNum><signDate>18.03.2024</signDate></ns2:contract></ns2:export>`,
			`contract 1 of the file: date "18.03.2024" is neither xs:dateTime nor xs:date`},
		{"cancel-no-regnum.xml", export + `<ns2:contractCancel><regNum>3616304128724000031</regNum></ns2:contractCancel><ns2:contractCancel><documentBase>x</documentBase></ns2:contractCancel></ns2:export>`,
			"contractCancel 2 of the file has no registry number"},
		{"cancel-bad-date.xml", export + `<ns2:contractCancel><regNum>3616304128724000031</regNum><cancelDate>14.05.2024</cancelDate></ns2:contractCancel></ns2:export>`,
			`contractCancel 1 of the file: date "14.05.2024" is neither xs:dateTime nor xs:date`},
		{"broken.xml", export + `<ns2:contract><regNum>3616304128724000015</regNum></ns2:contract><ns2:contract><regNum>1</ns2:contract></ns2:export>`,
			"not well-formed XML at line 1"},
		{"223-empty.xml", `<ns2:contract xmlns:ns2="http://zakupki.gov.ru/223fz/contract/1"><ns2:body/></ns2:contract>`,
			"223-FZ <contract> holds no item with contractData"},
		{"223-no-number.xml", `<ns2:contract xmlns:ns2="http://zakupki.gov.ru/223fz/contract/1"><ns2:body><ns2:item><ns2:contractData><ns2:version>1</ns2:version></ns2:contractData></ns2:item></ns2:body></ns2:contract>`,
			"contract item 1 of the file has no registration number"},
	}
	for _, tt := range tests {
		assertOneContractRejection(t, tt.name, tt.doc, tt.want)
	}
}

// TestContractTruncatedFiles cuts every fixture short at several places: each
// cut is one rejection, never a record and never a panic.
func TestContractTruncatedFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "contract", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, frac := range []int{10, 35, 60, 95} {
			cut := string(data[:len(data)*frac/100])
			assertOneContractRejection(t, filepath.Base(file), cut, "")
		}
	}
}

// assertOneContractRejection decodes doc and wants no record and exactly one
// invalid rejection whose message contains want.
func assertOneContractRejection(t *testing.T, name, doc, want string) {
	t.Helper()
	recs, errs := decodeAll(t, name, doc)
	if len(recs) != 0 || len(errs) != 1 {
		t.Errorf("%s: %d records, rejections %v; want one rejection", name, len(recs), errs)
		return
	}
	if !strings.Contains(errs[0].Error(), want) || tenderbase.ErrorCode(errs[0]) != tenderbase.EINVALID {
		t.Errorf("%s: rejection %q (%s); want an invalid one containing %q", name, errs[0], tenderbase.ErrorCode(errs[0]), want)
	}
}

// contractSamples is the folder of real published files beside the project, when
// it is there.
var contractSamples = filepath.Join("..", "..", "..", "..", "shared", "data")

// realContracts decodes a real file of contractSamples, skipping the test when
// the folder is absent.
func realContracts(t *testing.T, rel string) []*tenderbase.Contract {
	t.Helper()
	path := filepath.Join(contractSamples, rel)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("real sample %s is absent (%v): the shared data folder is not beside this checkout", path, err)
	}
	return decodeContractFile(t, path)
}

// contractSummary is what a real-sample test checks of a contract: the
// numbers, the parties, the money and the dates, each read by hand from the
// file.
type contractSummary struct {
	RegNumber, PurchaseNumber, Number string
	Version, Region                   int
	CustomerINN, CustomerName         string
	SupplierINNs, SupplierNames       []string
	Price                             float64
	Currency, Signed                  string
	Ends                              string // the end of the term, as a day
}

func summarizeContract(c *tenderbase.Contract) contractSummary {
	s := contractSummary{
		RegNumber: c.RegNumber, PurchaseNumber: c.PurchaseNumber, Number: c.Number,
		Version: c.Version, Region: c.Region,
		CustomerINN: c.Customer.INN, CustomerName: c.Customer.Name,
		Price: c.Price, Currency: c.Currency, Signed: c.SignedAt.Format(time.DateOnly),
	}
	if !c.EndsAt.IsZero() {
		s.Ends = c.EndsAt.Format(time.DateOnly)
	}
	for _, p := range c.Suppliers {
		s.SupplierINNs = append(s.SupplierINNs, p.INN)
		s.SupplierNames = append(s.SupplierNames, p.Name)
	}
	return s
}

func TestContract44RealExport2011(t *testing.T) {
	cs := realContracts(t, filepath.Join("eis44", "vyakunin__zakupki", "contract.xml"))
	if len(cs) != 24 {
		t.Fatalf("%d contracts, want the 24 of the export", len(cs))
	}
	for _, c := range cs {
		if c.Law != "44" || c.Region != 8 || c.Currency != "RUB" {
			t.Errorf("%s: law %q region %d currency %q; want 44, 8 (Kalmykia), RUB", c.RegNumber, c.Law, c.Region, c.Currency)
		}
	}
	want := map[int]contractSummary{
		0: {RegNumber: "0305100004511000013", PurchaseNumber: "0305100004511000003", Number: "0305100004511000003-0094242-02",
			Region: 8, CustomerINN: "0814149850", CustomerName: "Управление Министерства внутренних дел Российской Федерации по городу Элисте",
			SupplierINNs: []string{"7729674850"}, SupplierNames: []string{`Общество с ограниченной ответственностью "Альянс ВВ"`},
			Price: 798108.9, Currency: "RUB", Signed: "2011-09-19", Ends: "2011-10-31"},
		// A supplier who is a person, named only in the contact block.
		9: {RegNumber: "0105100001211000007", PurchaseNumber: "0105100001211000004", Number: "3",
			Region: 8, CustomerINN: "0814160998", CustomerName: "Территориальное управление Федеральной службы финансово-бюджетного надзора в Республике Калмыкия",
			SupplierINNs: []string{"080500231350"}, SupplierNames: []string{"Кекеева Екатерина Борисовна"},
			Price: 29500, Currency: "RUB", Signed: "2011-09-22", Ends: "2011-09-30"},
		// A customer of Moscow (INN 77...) buying through its Kalmyk branch
		// (KPP 08...); the foundation names no procurement.
		16: {RegNumber: "0305100002611000005", Number: "25-06/347/6", Version: 1,
			Region: 8, CustomerINN: "7706592947", CustomerName: cs[16].Customer.Name,
			SupplierINNs: []string{"7707049388"}, SupplierNames: []string{`Калмыцкий филиал "Ростелеком"`},
			Price: 5000, Currency: "RUB", Signed: "2011-01-14", Ends: "2011-12-31"},
	}
	for i, w := range want {
		if diff := cmp.Diff(w, summarizeContract(cs[i])); diff != "" {
			t.Errorf("contract %d (-want +got):\n%s", i, diff)
		}
	}
	if got := cs[0].EndsAt.Format(time.DateOnly); got != "2011-10-31" {
		t.Errorf("contract 0 ends %s, want 2011-10-31 (performance by October 2011)", got)
	}
}

func TestContract44RealTemplate13_2(t *testing.T) {
	cs := realContracts(t, filepath.Join("eis44-unverified-templates", "rezident1989__portal44_xml", "contract.xml"))
	if len(cs) != 1 {
		t.Fatalf("%d contracts, want 1", len(cs))
	}
	c := cs[0]
	want := contractSummary{RegNumber: "2770933044223000024", PurchaseNumber: "0873500000823003276", Number: "1581/2023-57",
		Version: 1, Region: 77, CustomerINN: "7709330442",
		CustomerName:  `ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ ГОРОДА МОСКВЫ "ИНЖЕНЕРНАЯ ШКОЛА № 1581"`,
		SupplierINNs:  []string{"7716511778"},
		SupplierNames: []string{`ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "СМАРТСЕРВИС"`},
		Price:         341858.06, Currency: "RUB", Signed: "2023-05-10", Ends: "2025-06-15"} // executionPeriod/endDate, not a stage's
	if diff := cmp.Diff(want, summarizeContract(c)); diff != "" {
		t.Errorf("contract (-want +got):\n%s", diff)
	}
	if c.Suppliers[0].OGRN != "1047796613237" || c.Status != "execution" || len(c.Objects) != 10 ||
		c.Objects[0].OKPD2Code != "77.29.19.000" || c.EndsAt.Format(time.DateOnly) != "2025-06-15" {
		t.Errorf("OGRN %q, status %q, %d objects, first OKPD2 %q, ends %s; want 1047796613237, execution, 10, 77.29.19.000, 2025-06-15",
			c.Suppliers[0].OGRN, c.Status, len(c.Objects), c.Objects[0].OKPD2Code, c.EndsAt.Format(time.DateOnly))
	}
}

// TestContractRealNotRecords reads the real documents about contracts that
// hold no record of ours: each is one rejection saying why.
func TestContractRealNotRecords(t *testing.T) {
	files := map[string]string{
		"eis44/aksyuk__zakupki_gov_ru/fcsContractSign_0111100000217000017_10907945.xml":                                 "fcsContractSign",
		"eis44-unverified-templates/rezident1989__portal44_xml/cpContractSign.xml":                                      "cpContractSign",
		"eis223/Khudim__ZakupkiParser/purchaseContractAccount_Habarovskii_krai_20170201_000000_20170228_235959_009.xml": "purchaseContractAccount",
	}
	for rel, kind := range files {
		path := filepath.Join(contractSamples, filepath.FromSlash(rel))
		data, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("real sample %s is absent (%v): the shared data folder is not beside this checkout", path, err)
		}
		assertOneContractRejection(t, rel, string(data), "EIS document <"+kind+"> holds no record of ours ("+notRecords[kind]+")")
	}
}
