package eis

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
)

// noticeSummary is what a test checks of the records of one notice: the
// tender's key fields, one line per purchase object and per file, and the
// ids of the doc records.
type noticeSummary struct {
	Number, Law, Title, Method, MethodCode string
	Version, Region                        int
	Customer                               tenderbase.Party
	Customers                              []tenderbase.TenderCustomer
	Organizer                              *tenderbase.Organizer
	MaxPrice                               float64
	Currency, ETP, URL                     string
	Published, Start, Deadline, Bidding    string
	Contact                                tenderbase.Contact
	Change                                 string
	Objects, Files, Docs                   []string
}

// summarize returns the summary of each tender among recs, in order, with
// the docs that follow it.
func summarize(t *testing.T, recs []tenderbase.Record) []noticeSummary {
	t.Helper()
	var out []noticeSummary
	var tender *tenderbase.Tender
	for _, rec := range recs {
		roundTrip(t, rec)
		switch r := rec.(type) {
		case *tenderbase.Tender:
			tender = r
			out = append(out, tenderSummary(r))
		case *tenderbase.Doc:
			if tender == nil || r.PurchaseNumber != tender.PurchaseNumber || r.TenderTitle != tender.Title ||
				r.Customer != tender.Customer || r.Region != tender.Region {
				t.Errorf("doc %s does not describe the tender before it", r.ID)
			}
			s := &out[len(out)-1]
			s.Docs = append(s.Docs, r.ID+" "+stamp(r.PublishedAt))
		default:
			t.Errorf("unexpected %s record", rec.Kind())
		}
	}
	return out
}

func tenderSummary(r *tenderbase.Tender) noticeSummary {
	s := noticeSummary{
		Number: r.PurchaseNumber, Law: r.Law, Title: r.Title, Method: r.PlacingMethod, MethodCode: r.PlacingMethodCode,
		Version: r.Version, Region: r.Region, Customer: r.Customer, MaxPrice: r.MaxPrice, Currency: r.Currency, URL: r.URL,
		Published: stamp(r.PublishedAt), Start: stamp(r.ApplicationsStart), Deadline: stamp(r.ApplicationsDeadline),
		Bidding: stamp(r.BiddingDate), Contact: r.Contact, Change: "none",
		Customers: r.Customers, Organizer: r.Organizer,
	}
	if r.Status != tenderbase.TenderActive {
		s.Change = "status " + r.Status
	}
	if r.ETP != nil {
		s.ETP = r.ETP.Code + " " + r.ETP.Name + " " + r.ETP.URL
	}
	if r.Change != nil {
		s.Change = r.Change.Reason + " @" + stamp(r.Change.PublishedAt)
	}
	for _, l := range r.Lots {
		for _, o := range l.Objects {
			s.Objects = append(s.Objects, fmt.Sprintf("lot %d %q %g %s: %s %s | %s | %g %s × %g = %g",
				l.Number, l.Title, l.MaxPrice, l.Currency, o.OKPD2Code, o.OKPD2Name, o.Name, o.Quantity, o.Unit, o.Price, o.Sum))
		}
	}
	for _, a := range r.Attachments {
		s.Files = append(s.Files, fmt.Sprintf("%s | %s | %d | %s", a.FileName, a.Description, a.Size, a.URL))
	}
	return s
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

// roundTrip checks that a record has a key and decodes from its own
// canonical JSON to the same JSON.
func roundTrip(t *testing.T, rec tenderbase.Record) {
	t.Helper()
	if rec.Key() == "" {
		t.Errorf("%s record has no key", rec.Kind())
	}
	body, err := tenderbase.MarshalRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tenderbase.DecodeRecord(rec.Kind(), body)
	if err != nil {
		t.Fatalf("%s %s does not decode from its own JSON: %v", rec.Kind(), rec.Key(), err)
	}
	again, _ := tenderbase.MarshalRecord(back)
	if string(again) != string(body) {
		t.Errorf("%s %s changes in a round trip:\n%s\n%s", rec.Kind(), rec.Key(), body, again)
	}
}

// decodeFile decodes a file and returns the summaries and the rejections.
func decodeFile(t *testing.T, path string) ([]noticeSummary, []string) {
	t.Helper()
	recs, msgs := decodeRecords(t, path)
	return summarize(t, recs), msgs
}

// decodeRecords decodes a file and returns its records and rejections.
func decodeRecords(t *testing.T, path string) ([]tenderbase.Record, []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := decodeAll(t, filepath.Base(path), string(b))
	var msgs []string
	for _, err := range errs {
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: rejection %v is not invalid input", path, err)
		}
		msgs = append(msgs, err.Error())
	}
	return recs, msgs
}

const filestore = "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid="

// czrt is the authorized body of Tatarstan, which places the notices of the
// EOK2020 fixtures for their customers.
var czrt = tenderbase.Party{INN: "1655412356", KPP: "165501001", RegNum: "08112000001",
	Name: `ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ЦЕНТР ЗАКУПОК РЕСПУБЛИКИ ТАТАРСТАН"`, ShortName: `ГКУ "ЦЗ РТ"`,
	Address: "Российская Федерация, 420021, Татарстан Респ, Казань г, ул. Габдуллы Тукая, д. 58"}

// lyceum7 is the customer of the EOK2020 fixtures, with the INN and KPP of
// its IKZ.
var lyceum7 = tenderbase.Party{INN: "1654021871", KPP: "165401001", RegNum: "03113001245",
	Name: `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ "ЛИЦЕЙ № 7" ВАХИТОВСКОГО РАЙОНА Г. КАЗАНИ`}

// moscowRegionCommittee is the authorized body of the Moscow region, which
// places the legacy notice fixtures; podolskCentre is their customer.
var (
	moscowRegionCommittee = tenderbase.Party{INN: "5024105372", KPP: "502401001", RegNum: "01482000054",
		Name:    "КОМИТЕТ ПО КОНКУРЕНТНОЙ ПОЛИТИКЕ МОСКОВСКОЙ ОБЛАСТИ",
		Address: "Российская Федерация, 143407, Московская обл, Красногорск г, бульвар Строителей, д. 1"}
	podolskCentre = tenderbase.Party{INN: "5036081171", KPP: "503601001", RegNum: "03482000921",
		Name: `МУНИЦИПАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ЦЕНТР ОБСЛУЖИВАНИЯ АДМИНИСТРАТИВНЫХ ЗДАНИЙ" ГОРОДСКОГО ОКРУГА ПОДОЛЬСК`}
)

// TestJointNotices44: each joint purchase fixture is its single-customer
// original with a second customer, organized by the same authorized body as
// the organizer of a joint tender. It reads as the original but for its
// number, title, price, files, its customers each with its part of the
// price, and its organizer's role. Its objects, read as the original's,
// are left to TestNotices44.
func TestJointNotices44(t *testing.T) {
	joint := "Уполномоченный орган в качестве организатора совместного конкурса (аукциона)"
	tests := []struct {
		file, original string
		change         func(s *noticeSummary)
	}{
		{"epNotificationEOK2020_0811200000126000057_1.xml", "epNotificationEOK2020_0811200000126000042_1.xml", func(s *noticeSummary) {
			s.Number, s.MaxPrice = "0811200000126000057", 7120816.12
			s.Title = "Совместный конкурс на выполнение работ по капитальному ремонту кровли зданий МБОУ «Лицей № 7» и МБОУ «Гимназия № 2» г. Казани"
			s.Customers = []tenderbase.TenderCustomer{
				{Party: lyceum7, Region: 16, MaxPrice: 4870315.62},
				{Party: tenderbase.Party{INN: "1655038127", KPP: "165501001", RegNum: "03113001377",
					Name: `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ "ГИМНАЗИЯ № 2" ПРИВОЛЖСКОГО РАЙОНА Г. КАЗАНИ`},
					Region: 16, MaxPrice: 2250500.50},
			}
			s.Organizer = &tenderbase.Organizer{Party: czrt, Role: "ORA", RoleName: joint}
		}},
		// The first customer has a part in both lots, the second in the
		// first only; the original is an amendment, the joint one is not.
		{"fcsNotificationOK_0148200005418000327_17702911.xml", "fcsNotificationOK_0148200005418000311_17702245.xml", func(s *noticeSummary) {
			s.Number, s.Version, s.Change = "0148200005418000327", 1, "none"
			s.Title = "Совместный конкурс на оказание услуг по уборке помещений и прилегающих территорий"
			s.Customers = []tenderbase.TenderCustomer{
				{Party: podolskCentre, Region: 50, MaxPrice: 1606500},
				{Party: tenderbase.Party{INN: "5036094523", KPP: "503601001", RegNum: "03482000977",
					Name: `МУНИЦИПАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ЦЕНТРАЛИЗОВАННАЯ БУХГАЛТЕРИЯ" ГОРОДСКОГО ОКРУГА ПОДОЛЬСК`},
					Region: 50, MaxPrice: 824000},
			}
			s.Organizer = &tenderbase.Organizer{Party: moscowRegionCommittee, Role: "ORA", RoleName: joint}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			original, errs := decodeFile(t, filepath.Join("testdata", "notice", tt.original))
			got, moreErrs := decodeFile(t, filepath.Join("testdata", "notice", tt.file))
			if len(errs)+len(moreErrs) != 0 || len(original) != 1 || len(got) != 1 {
				t.Fatalf("%d and %d notices, rejections %v %v; want one each", len(original), len(got), errs, moreErrs)
			}
			want := original[0]
			tt.change(&want)
			ignored := cmpopts.IgnoreFields(noticeSummary{}, "URL", "Objects", "Files", "Docs")
			if diff := cmp.Diff(want, got[0], ignored); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if !strings.HasSuffix(got[0].URL, "regNumber="+want.Number) {
				t.Errorf("url %s does not name %s", got[0].URL, want.Number)
			}
			if len(got[0].Objects) != len(original[0].Objects) || len(got[0].Docs) != len(original[0].Files) {
				t.Errorf("%d objects and %d docs, want %d and %d", len(got[0].Objects), len(got[0].Docs), len(original[0].Objects), len(original[0].Files))
			}
		})
	}
}

func TestNotices44(t *testing.T) {
	tests := []struct {
		file string
		want []noticeSummary
	}{
		{"epNotificationEOK2020_0811200000126000042_1.xml", []noticeSummary{{
			Number: "0811200000126000042", Law: "44", Version: 1,
			Title:  "Выполнение работ по капитальному ремонту кровли здания МБОУ «Лицей № 7» Вахитовского района г. Казани",
			Method: "Открытый конкурс в электронной форме", MethodCode: "OK20",
			// The responsible organization is an authorized body, not the
			// customer: the customer's INN and KPP come from the IKZ.
			Customer: lyceum7,
			Region:   16, MaxPrice: 4870315.62, Currency: "RUB",
			Organizer: &tenderbase.Organizer{Party: czrt, Role: "RA", RoleName: "Уполномоченный орган"},
			ETP:       "ETP_ZKAZAN АО «Агентство по государственному заказу Республики Татарстан» http://etp.zakazrf.ru",
			URL:       "https://zakupki.gov.ru/epz/order/notice/ok20/view/common-info.html?regNumber=0811200000126000042",
			Published: "2026-02-09T10:15:40.125+03:00", Start: "2026-02-09T10:15:40+03:00", Deadline: "2026-02-25T09:00:00+03:00",
			Contact: tenderbase.Contact{Person: "Галиева Гульнара Ильдаровна", Email: "torgi@czrt-1655.ru", Phone: "7-843-2217045",
				Address: "Российская Федерация, 420021, Татарстан Респ, Казань г, ул. Габдуллы Тукая, д. 58"},
			Change: "none",
			Objects: []string{`lot 1 "Выполнение работ по капитальному ремонту кровли здания МБОУ «Лицей № 7» Вахитовского района г. Казани" 4.87031562e+06 RUB: ` +
				"43.91.19.110 Работы кровельные прочие | Капитальный ремонт мягкой кровли с заменой утеплителя | 1499.84 М2 × 3247.21 = 4.87029644e+06"},
			Files: []string{
				"Проектно-сметная документация.zip | Проектно-сметная документация | 2841190 | " + filestore + "3F0C7A19D2E84B55A1C6E0B7D94F2A10",
				"Проект контракта.docx | Проект контракта | 96512 | " + filestore + "8B21D4E07C3A4F9B9E5D1A6C2F0B7E33",
			},
			Docs: []string{
				"0811200000126000042-3F0C7A19D2E84B55A1C6E0B7D94F2A10 2026-02-06T16:40:12+03:00",
				// Without a date of its own, a file takes the notice's.
				"0811200000126000042-8B21D4E07C3A4F9B9E5D1A6C2F0B7E33 2026-02-09T10:15:40.125+03:00",
			},
		}}},
		{"epNotificationEZK2020_0301300012426000118_3.xml", []noticeSummary{{
			Number: "0301300012426000118", Law: "44", Version: 3,
			Title:  "Поставка лекарственного препарата АМОКСИЦИЛЛИН",
			Method: "Запрос котировок в электронной форме", MethodCode: "ZKP20",
			// The customer is the responsible organization, which completes it.
			Customer: tenderbase.Party{INN: "0256004183", KPP: "025601001", RegNum: "03013000124",
				Name:      "ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ РЕСПУБЛИКИ БАШКОРТОСТАН БЕЛОРЕЦКАЯ ЦЕНТРАЛЬНАЯ РАЙОННАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА",
				ShortName: "ГБУЗ РБ БЕЛОРЕЦКАЯ ЦРКБ", Address: "Российская Федерация, 453500, Башкортостан Респ, Белорецк г, ул. Шинная, д. 9"},
			Region: 2, MaxPrice: 96600, Currency: "RUB",
			ETP:       "ETP_SBAST АО «Сбербанк-АСТ» http://www.sberbank-ast.ru",
			URL:       "https://zakupki.gov.ru/epz/order/notice/zk20/view/common-info.html?regNumber=0301300012426000118",
			Published: "2026-03-12T14:02:07.88+05:00", Start: "2026-03-05T09:30:00+05:00", Deadline: "2026-03-17T08:00:00+05:00",
			Contact: tenderbase.Contact{Person: "Абдуллина Лилия Рашитовна", Email: "zakupki@belcrkb-rb.ru", Phone: "7-34792-31145",
				Address: "Российская Федерация, 453500, Башкортостан Респ, Белорецк г, ул. Шинная, д. 9"},
			Change: "Продление срока подачи заявок по решению заказчика @2026-03-12T14:02:07.88+05:00",
			Objects: []string{`lot 1 "Поставка лекарственного препарата АМОКСИЦИЛЛИН" 96600 RUB: ` +
				"21.20.10.131 Пенициллины широкого спектра действия | АМОКСИЦИЛЛИН, КАПСУЛЫ 500 мг | 42000 шт × 2.3 = 96600"},
			Files: []string{"Описание объекта закупки (изм. 2).pdf | Описание объекта закупки (изм. 2) | 318722 | " + filestore + "C41E95B07A2D4E8F8B3F60D2A71C9E05"},
			Docs:  []string{"0301300012426000118-C41E95B07A2D4E8F8B3F60D2A71C9E05 2026-03-12T11:48:30+03:00"},
		}}},
		{"fcsNotificationOK_0148200005418000311_17702245.xml", []noticeSummary{{
			Number: "0148200005418000311", Law: "44", Version: 2, // one modification
			Title:  "Оказание услуг по уборке помещений и прилегающих территорий",
			Method: "Открытый конкурс", MethodCode: "OK44",
			Customer: podolskCentre,
			Region:   50, MaxPrice: 2430500, Currency: "RUB",
			Organizer: &tenderbase.Organizer{Party: moscowRegionCommittee, Role: "RA", RoleName: "Уполномоченный орган"},
			URL:       "http://zakupki.gov.ru/epz/order/notice/ok44/view/common-info.html?regNumber=0148200005418000311",
			Published: "2018-06-14T12:40:21.318+03:00", Start: "2018-06-14T12:40:00+03:00", Deadline: "2018-07-05T10:00:00+03:00",
			Contact: tenderbase.Contact{Person: "Соколова Марина Викторовна", Email: "konkurs-mo@mosreg-example.ru", Phone: "7-498-6021347",
				Address: "Российская Федерация, 143407, Московская обл, Красногорск г, бульвар Строителей, д. 1"},
			Change: "Изменение требований к содержанию заявки @2018-06-14T12:40:21.318+03:00",
			Objects: []string{
				`lot 1 "Уборка помещений административного здания" 1.824e+06 RUB: 81.21.10.000 Услуги по общей уборке зданий | Ежедневная влажная уборка помещений | 12000 м2 × 152 = 1.824e+06`,
				`lot 2 "Уборка прилегающей территории" 606500 RUB: 81.29.12.000 Услуги по подметанию и уборке снега | Механизированная уборка территории | 25000 м2 × 24.26 = 606500`,
			},
			Files: []string{"Конкурсная документация.docx | Конкурсная документация (изм. 1) | 1572864 | http://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=6C2E19A0B54F2E77E0530A86121FA3D1"},
			Docs:  []string{"0148200005418000311-6C2E19A0B54F2E77E0530A86121FA3D1 2018-06-14T12:40:21.318+03:00"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, errs := decodeFile(t, filepath.Join("testdata", "notice", tt.file))
			if len(errs) != 0 {
				t.Fatalf("rejections: %v", errs)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// The cancellations among the notice fixtures are tender events of their
// own, which the tools apply when the tender is read.
func TestNoticeCancellationsAreEvents(t *testing.T) {
	for file, number := range map[string]string{
		"fcsNotificationCancel_0148200005418000311_3307112.xml": "0148200005418000311",
		"epNotificationCancel_0811200000126000042_52001984.xml": "0811200000126000042",
	} {
		got, errs := decodeRecords(t, filepath.Join("testdata", "notice", file))
		if len(errs) != 0 || len(got) != 1 {
			t.Fatalf("%s: records %v, rejections %q; want one event", file, got, errs)
		}
		e, ok := got[0].(*tenderbase.TenderEvent)
		if !ok || e.Type != tenderbase.EventCancellation || e.PurchaseNumber != number || e.PublishedAt.IsZero() {
			t.Errorf("%s: %+v; want the cancellation of %s", file, got[0], number)
		}
	}
}

func TestBrokenNoticesAreOneRejection(t *testing.T) {
	whole, err := os.ReadFile(filepath.Join("testdata", "notice", "epNotificationEOK2020_0811200000126000042_1.xml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, doc, want string }{
		{"truncated.xml", string(whole[:len(whole)*2/3]), "is not well-formed XML"},
		{"mismatched.xml", strings.Replace(string(whole), "</ns5:fullName>", "</ns5:name>", 1), "is not well-formed XML"},
		{"bad-date.xml", strings.Replace(string(whole), "2026-02-25T09:00:00+03:00", "25.02.2026 9:00", 1), `date "25.02.2026 9:00" is neither xs:dateTime nor xs:date`},
		{"bad-version.xml", strings.Replace(string(whole), "<ns5:versionNumber>1<", "<ns5:versionNumber>первая<", 1), `version "первая" is not a whole number`},
		{"no-number.xml", strings.Replace(string(whole), "<ns5:purchaseNumber>0811200000126000042<", "<ns5:purchaseNumber><", 1), "notice has no purchase number"},
		{"empty-223.xml", `<ns2:purchaseNotice xmlns:ns2="http://zakupki.gov.ru/223fz/purchase/1"><ns2:body/></ns2:purchaseNotice>`, "holds no notice data"},
		{"truncated-223.xml", `<ns2:purchaseNotice xmlns:ns2="http://zakupki.gov.ru/223fz/purchase/1"><ns2:body><ns2:item><ns2:purchaseNoticeData><ns2:registrationNumber>3251`, "is not well-formed XML"},
	}
	for _, tt := range tests {
		recs, errs := decodeAll(t, tt.name, tt.doc)
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
			t.Errorf("%s: records %d, rejections %v; want one rejection containing %q", tt.name, len(recs), errs, tt.want)
		}
	}
}

func TestNoticeHelpers(t *testing.T) {
	sizes := map[string]int64{"34304": 34304, "736.24 Кб": 753910, "1,5 Мб": 1572864, "": 0, "много": 0}
	for in, want := range sizes {
		if got := parseSize(in); got != want {
			t.Errorf("parseSize(%q) = %d, want %d", in, got, want)
		}
	}
	regions := []struct {
		kpp, inn string
		want     int
	}{
		{"", "0105062780", 1},
		{"", "7706107510", 77},
		{"081631001", "7706592947", 8},  // a Moscow body buying through its Kalmyk branch
		{"997750001", "7706107510", 77}, // the largest taxpayers' office says nothing
		{"", "9909012345", 0},
		{"990101001", "9901000327", 99}, // Baikonur, subject 99
		{"", "9901000327", 99},
		{"997650001", "9901000327", 99}, // a largest taxpayer registered in Baikonur
		{"997650001", "7708503727", 77},
		{"", "660010415", 0},
		{"", "77061075101", 0},
		{"", "", 0},
	}
	for _, r := range regions {
		if got := regionOf(r.kpp, r.inn); got != r.want {
			t.Errorf("regionOf(%q, %q) = %d, want %d", r.kpp, r.inn, got, r.want)
		}
	}
	ikz := []struct {
		customerCode, purchaseCode string
		want                       tenderbase.Party
	}{
		{"31654021871165401001", "", tenderbase.Party{INN: "1654021871", KPP: "165401001"}},
		{"", "183503608117150360100100240018121244", tenderbase.Party{INN: "5036081171", KPP: "503601001"}},
		{"3165402187116540100", "18350360811715036010010024001812124", tenderbase.Party{}},
		{"", "1835036081X7150360100100240018121244", tenderbase.Party{}},
	}
	for _, tt := range ikz {
		if got := noticeIKZParty(tt.customerCode, tt.purchaseCode); got != tt.want {
			t.Errorf("noticeIKZParty(%q, %q) = %+v, want %+v", tt.customerCode, tt.purchaseCode, got, tt.want)
		}
	}
}

// TestResponsibleOrganizer: the organization that placed a notice is its
// organizer unless it placed its own purchase.
func TestResponsibleOrganizer(t *testing.T) {
	school := orgWire{RegNum: "03113001245", FullName: "МБОУ «Лицей № 7»", INN: "1654021871", KPP: "165401001"}
	body := orgWire{RegNum: "08112000001", FullName: `ГКУ "ЦЗ РТ"`, INN: "1655412356", KPP: "165501001"}
	tests := []struct {
		name        string
		responsible orgWire
		role        string
		want        string
	}{
		{"a customer placing its purchase", school, "CU", ""},
		{"an organization acting for the customer", body, "OA", "1655412356 OA Организация, осуществляющая полномочия заказчика на осуществление закупок на основании договора (соглашения)"},
		{"a customer organizing a joint auction", school, "OCU", "1654021871 OCU Заказчик в качестве организатора совместного аукциона"},
		{"a customer's role, another organization", body, "CU", "1655412356 CU Заказчик"},
		{"a role the code list lacks", body, "XX", "1655412356 XX "},
		{"no responsible organization", orgWire{}, "RA", ""},
	}
	for _, tt := range tests {
		var got string
		if o := responsibleOrganizer(tt.responsible, tt.role, school.party()); o != nil {
			got = o.INN + " " + o.Role + " " + o.RoleName
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
