package eis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// TestPurchaseNotices223 reads the two 223-FZ notice fixtures, each a file
// of one item as the schema has it, then the same items as one file of two.
func TestPurchaseNotices223(t *testing.T) {
	const download = "https://zakupki.gov.ru/223/purchase/public/download/download.html?id="
	const method = "Аукцион в электронной форме, участниками которого могут быть только субъекты малого и среднего предпринимательства"
	const etp = "2 АО «Сбербанк-АСТ» http://utp.sberbank-ast.ru"
	customer := tenderbase.Party{INN: "7604081207", KPP: "760401001", Name: `ПУБЛИЧНОЕ АКЦИОНЕРНОЕ ОБЩЕСТВО "ЯРОСЛАВСКАЯ СЕТЕВАЯ КОМПАНИЯ"`}
	first := customer
	first.OGRN, first.ShortName, first.Address = "1057600604217", `ПАО "ЯСК"`, "150003, Ярославская обл, г. Ярославль, ул. Войкова, д. 33"
	want := []noticeSummary{{
		Number: "32514920117", Law: "223", Version: 1,
		Title:  "Поставка кабельной продукции для нужд филиала «Ярэнерго»",
		Method: method, MethodCode: "4011", Customer: first, Region: 76, MaxPrice: 2318450.40, Currency: "RUB", ETP: etp,
		URL: "https://zakupki.gov.ru/223/purchase/public/purchase/info/common-info.html?regNumber=32514920117",
		// Times without an offset are Moscow time.
		Published: "2025-09-15T11:02:44+03:00", Start: "2025-09-15T00:00:00+03:00",
		Deadline: "2025-09-23T10:00:00+03:00", Bidding: "2025-09-25T11:00:00+03:00",
		Contact: tenderbase.Contact{Person: "Воронин Артём Сергеевич", Email: "voronin.as@yask-example.ru", Phone: "7-4852-789140"},
		Change:  "none",
		Objects: []string{
			`lot 1 "Кабель силовой АВБбШв и провод СИП-2" 2.3184504e+06 RUB: 27.32.13.150 Кабели силовые для стационарной прокладки на напряжение до 1 кВ | Кабели силовые для стационарной прокладки на напряжение до 1 кВ | 4200 Метр × 0 = 0`,
			`lot 1 "Кабель силовой АВБбШв и провод СИП-2" 2.3184504e+06 RUB: 27.32.14.000 Провода и кабели электрические прочие на напряжение более 1 кВ | Провода и кабели электрические прочие на напряжение более 1 кВ | 1800 Метр × 0 = 0`,
		},
		Files: []string{"Документация о закупке.pdf | Документация о закупке | 0 | " + download + "91844307"},
		Docs:  []string{"32514920117-e4a7c1d9-2b0f-4e63-8f51-9d3a6c2b7e10 2025-09-15T10:41:17+03:00"},
	}, {
		Number: "32514920244", Law: "223", Version: 2,
		Title:  "Поставка трансформаторного масла",
		Method: method, MethodCode: "4011", Customer: customer, Region: 76, MaxPrice: 744000, Currency: "RUB", ETP: etp,
		Published: "2025-09-16T09:30:00+03:00", Deadline: "2025-09-24T10:00:00+03:00",
		Change:  "Исправлена техническая ошибка в количестве товара @2025-09-16T09:30:00+03:00",
		Objects: []string{`lot 1 "Масло трансформаторное ГК" 744000 RUB: 19.20.29.150 Масла трансформаторные | Масла трансформаторные | 4.8 Тонна × 0 = 0`},
		Files:   []string{"Техническое задание.docx |  | 0 | " + download + "91850012"},
		Docs:    []string{"32514920244-d06f3a8e-5b71-4c2d-9a48-e2c7b1f05d39 2025-09-16T09:12:55+03:00"},
	}}
	files := []string{"purchaseNoticeAE_32514920117.xml", "purchaseNoticeAE_32514920244.xml"}
	docs := readFixtures(t, "notice", files...)
	var got []noticeSummary
	for i, doc := range docs {
		recs, errs := decodeAll(t, files[i], doc)
		if len(errs) != 0 {
			t.Fatalf("%s: rejections: %v", files[i], errs)
		}
		got = append(got, summarize(t, recs)...)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}

	recs, errs := decodeAll(t, "purchaseNoticeAE_two_items.xml", joinItems(t, docs[0], docs[1]))
	if len(errs) != 0 {
		t.Fatalf("two items: rejections: %v", errs)
	}
	if diff := cmp.Diff(want, summarize(t, recs)); diff != "" {
		t.Errorf("two items: records (-want +got):\n%s", diff)
	}

	// A file without a guid (TFF 2) is named by the hash of its address.
	noGUID := strings.Replace(docs[1], "<guid>d06f3a8e-5b71-4c2d-9a48-e2c7b1f05d39</guid>", "", 1)
	recs, errs = decodeAll(t, "purchaseNoticeAE_32514920244.xml", noGUID)
	wantDocs := []string{"32514920244-" + docHash(download+"91850012") + " 2025-09-16T09:12:55+03:00"}
	if s := summarize(t, recs); len(errs) != 0 || len(s) != 1 || !cmp.Equal(s[0].Docs, wantDocs) {
		t.Errorf("a file without a guid: %v, rejections %v; want docs %v", s, errs, wantDocs)
	}
}

// TestPurchaseNoticePlacer: a 223-FZ notice placed by an organization other
// than its customer (a parent company placing for its subsidiary) keeps
// that placer as the tender's organizer, without a role code, which the
// 223-FZ schema does not give.
func TestPurchaseNoticePlacer(t *testing.T) {
	got, errs := decodeFile(t, filepath.Join("testdata", "notice", "purchaseNoticeAE_32514920391.xml"))
	if len(errs) != 0 || len(got) != 1 {
		t.Fatalf("%d notices, rejections %v; want one notice", len(got), errs)
	}
	want := noticeSummary{
		Customer: tenderbase.Party{INN: "7606053123", KPP: "760601001", OGRN: "1057600891452",
			Name: `АКЦИОНЕРНОЕ ОБЩЕСТВО "ГОРОДСКАЯ ЭЛЕКТРОСЕТЬ"`, ShortName: `АО "ГЭС"`,
			Address: "150040, Ярославская обл, г. Ярославль, ул. Чехова, д. 12"},
		Organizer: &tenderbase.Organizer{
			Party: tenderbase.Party{INN: "7604081207", KPP: "760401001", OGRN: "1057600604217",
				Name: `ПУБЛИЧНОЕ АКЦИОНЕРНОЕ ОБЩЕСТВО "ЯРОСЛАВСКАЯ СЕТЕВАЯ КОМПАНИЯ"`, ShortName: `ПАО "ЯСК"`},
			RoleName: "Организация, создавшая сведения извещения о закупке",
		},
		Region: 76,
	}
	g := noticeSummary{Customer: got[0].Customer, Organizer: got[0].Organizer, Customers: got[0].Customers, Region: got[0].Region}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("parties (-want +got):\n%s", diff)
	}
}

// readFixtures returns the text of each file of testdata/dir.
func readFixtures(t *testing.T, dir string, files ...string) []string {
	t.Helper()
	var docs []string
	for _, file := range files {
		b, err := os.ReadFile(filepath.Join("testdata", dir, file))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	return docs
}

// joinItems returns the 223-FZ document first with the items of second
// added to its body.
func joinItems(t *testing.T, first, second string) string {
	t.Helper()
	const open, end = "<ns2:body>", "</ns2:body>"
	i, j := strings.Index(second, open), strings.Index(second, end)
	k := strings.Index(first, end)
	if i < 0 || j < i || k < 0 {
		t.Fatal("a document without a body")
	}
	return first[:k] + second[i+len(open):j] + first[k:]
}

// docHash returns the id part a doc without an id of its own gets.
func docHash(url string) string {
	d := noticeDoc(&tenderbase.Tender{}, noticeFile{attachment: tenderbase.Attachment{URL: url}})
	return d.ID[1:]
}

// realNotice is what the test of the real samples checks of each notice.
type realNotice struct {
	Number, Name, INN, Published, Deadline, Change string
	Organizer                                      string // its INN, role code and name
	Version, Region, Files                         int
	MaxPrice                                       float64
	OKPD2                                          []string
	Plans                                          []tenderbase.PlanLink
}

// TestRealNotices reads the real EIS notices kept beside the project, when
// they are there.
func TestRealNotices(t *testing.T) {
	data := filepath.Join("..", "..", "..", "..", "shared", "data")
	if _, err := os.Stat(data); err != nil {
		t.Skipf("the real samples are not here (%s): %v", data, err)
	}
	tests := []struct {
		file string
		want []realNotice
	}{
		{"eis44-notices/ISErmakov__zakupkigovru/epNotificationEF2020_0162300017925000067_2_019A7BC4EB52714896AE2D0A22FCA5A1.xml", []realNotice{{
			Number: "0162300017925000067", Version: 2, Region: 66, Files: 4, MaxPrice: 134000,
			Name: "АДМИНИСТРАЦИЯ МУНИЦИПАЛЬНОГО ОКРУГА СТАРОУТКИНСК СВЕРДЛОВСКОЙ ОБЛАСТИ", INN: "6657001604",
			Published: "2025-11-13T10:51:33.459+05:00", Deadline: "2025-11-21T08:00:00+05:00",
			Change: "Уточнение", OKPD2: []string{"71.12.19.100"},
			Plans: []tenderbase.PlanLink{{PositionNumber: "202501623000179001000027", IKZ: "253665700160466840100100270017112244"}},
		}}},
		{"eis44-notices/ISErmakov__zakupkigovru/epNotificationEF2020_0162100008725000054_1_019AA4796C7075FAACB870598DA461E3.xml", []realNotice{{
			Number: "0162100008725000054", Version: 1, Region: 66, Files: 6, MaxPrice: 165600,
			Name: `ФЕДЕРАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "КИРОВГРАДСКАЯ ВОСПИТАТЕЛЬНАЯ КОЛОНИЯ ГЛАВНОГО УПРАВЛЕНИЯ ФЕДЕРАЛЬНОЙ СЛУЖБЫ ИСПОЛНЕНИЯ НАКАЗАНИЙ ПО СВЕРДЛОВСКОЙ ОБЛАСТИ"`,
			INN:  "6616004892", Published: "2025-11-21T08:33:31.339+05:00", Deadline: "2025-12-01T09:00:00+05:00",
			OKPD2: []string{"10.83.11.110", "10.82.14.000"},
			// Of a position not published on the EIS (notPublishedOnEIS): the IKZ
			// alone names it.
			Plans: []tenderbase.PlanLink{{IKZ: "251661600489266160100100000320000223"}},
		}}},
		{"eis44-notices/ISErmakov__zakupkigovru/epNotificationEF2020_0162200009125000312_1_019AA57C43DF7869B4D3CB1312DB2A41.xml", []realNotice{{
			Number: "0162200009125000312", Version: 1, Region: 66, Files: 7, MaxPrice: 548000,
			Name: "МИНИСТЕРСТВО ЗДРАВООХРАНЕНИЯ СВЕРДЛОВСКОЙ ОБЛАСТИ", INN: "6660010415",
			Published: "2025-11-21T13:16:13.392+05:00", Deadline: "2025-12-01T09:00:00+05:00",
			OKPD2: []string{"21.20.10.143"},
			Plans: []tenderbase.PlanLink{{PositionNumber: "202501622000091001000008", IKZ: "252666001041566710100100044140000323"}},
		}}},
		{"eis44-unverified-templates/rezident1989__portal44_xml/epNotificationEZT2020.xml", []realNotice{{
			Number: "0372200067923201237", Version: 1, Region: 78, Files: 3, MaxPrice: 61400,
			Name: "САНКТ-ПЕТЕРБУРГСКОЕ ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ \"ЖИЛИЩНОЕ АГЕНТСТВО\n                            КРАСНОГВАРДЕЙСКОГО РАЙОНА САНКТ-ПЕТЕРБУРГА\"", // wrapped so in the file,
			INN:  "7806051469", Published: "2024-02-20T12:00:42.513+03:00",
			OKPD2: []string{"32.99.11.120"},
			Plans: []tenderbase.PlanLink{{PositionNumber: "202303722000679001000017", IKZ: "232780605146978060100100170040000244"}},
		}}},
		{"eis223/Homyakin__ZakupkiParser/purchaseNotice_test.xml", []realNotice{{
			Number: "31603913641", Version: 2, Region: 77, Files: 4, MaxPrice: 3077055.86,
			Name: `ПУБЛИЧНОЕ АКЦИОНЕРНОЕ ОБЩЕСТВО "НЕФТЯНАЯ КОМПАНИЯ "РОСНЕФТЬ"`, INN: "7706107510",
			Published: "2016-07-22T07:35:12+03:00", Deadline: "2016-08-05T18:00:00+03:00",
			Change: "Выгрузка из САР", OKPD2: []string{"41.20.20.310"},
			Plans: []tenderbase.PlanLink{{PositionNumber: "2150133389-429", Lot: 1}},
			// Placed by the subsidiary for which Rosneft buys.
			Organizer: `8604035473  ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РН-ЮГАНСКНЕФТЕГАЗ"`,
		}}},
		{"eis223/Homyakin__ZakupkiParser/purchaseNoticeZK_test.xml", []realNotice{{
			Number: "31200022868", Version: 1, Region: 1, Files: 4, MaxPrice: 280000,
			Name: `автономное учреждение Республики Адыгея "Республиканский бизнес-инкубатор"`, INN: "0105062780",
			Published: "2012-11-02T16:03:53.443+04:00", Deadline: "2012-11-14T18:00:00+04:00",
			OKPD2: []string{""}, // classified by OKDP, before OKPD2
		}}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			recs, errs := decodeRecords(t, filepath.Join(data, tt.file))
			if len(errs) != 0 {
				t.Fatalf("rejections: %v", errs)
			}
			if diff := cmp.Diff(tt.want, realSummaries(t, recs)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// realSummaries returns what the test of the real samples checks of each
// tender among recs; a tender whose doc records do not match its
// attachments shows a negative file count.
func realSummaries(t *testing.T, recs []tenderbase.Record) []realNotice {
	var out []realNotice
	for _, s := range summarize(t, recs) {
		out = append(out, realNotice{
			Number: s.Number, Name: s.Customer.Name, INN: s.Customer.INN, Published: s.Published, Deadline: s.Deadline,
			Version: s.Version, Region: s.Region, Files: len(s.Files), MaxPrice: s.MaxPrice,
		})
		if len(s.Docs) != len(s.Files) {
			out[len(out)-1].Files = -len(s.Docs)
		}
		if o := s.Organizer; o != nil {
			out[len(out)-1].Organizer = o.INN + " " + o.Role + " " + o.Name
		}
	}
	i := -1
	for _, rec := range recs {
		tender, ok := rec.(*tenderbase.Tender)
		if !ok {
			continue
		}
		i++
		if tender.Change != nil {
			out[i].Change = tender.Change.Reason
		}
		out[i].Plans = tender.Plans
		for _, l := range tender.Lots {
			for _, o := range l.Objects {
				out[i].OKPD2 = append(out[i].OKPD2, o.OKPD2Code)
			}
		}
	}
	return out
}

// TestNoticesThroughTheStore imports the notice fixtures and an earlier
// version of one of them into a real store: the versions line up for
// ru.izm, the docs are found by purchase number, and a second import
// changes nothing.
func TestNoticesThroughTheStore(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tenderbase.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	dir := filepath.Join("testdata", "notice")
	amended, err := os.ReadFile(filepath.Join(dir, "epNotificationEZK2020_0301300012426000118_3.xml"))
	if err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(t.TempDir(), "epNotificationEZK2020_0301300012426000118_1.xml")
	v1 := strings.Replace(string(amended), "<ns5:versionNumber>3<", "<ns5:versionNumber>1<", 1)
	if err := os.WriteFile(first, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := importer.Options{Decoders: []importer.Decoder{Format{}}}
	sum, err := importer.Import(ctx, store, []string{dir, first}, opts)
	if err != nil {
		t.Fatal(err)
	}
	// 8 tenders and 10 docs from the fixtures, the earlier version and its doc.
	if sum.Records != 22 || sum.Rejected != 0 || sum.Inserted != 20 || sum.Older != 1 || sum.Unchanged != 1 {
		t.Fatalf("first import: %+v", sum)
	}
	versions, err := store.Versions(ctx, tenderbase.KindTender, "0301300012426000118")
	if err != nil || len(versions) != 2 || versions[1].Revision() != 3 {
		t.Fatalf("versions of the amended notice: %v, %v; want 1 then 3", versions, err)
	}
	docs, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindDoc,
		Where: []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: "0811200000126000042"}}})
	if err != nil || docs.Total != 2 {
		t.Fatalf("docs of 0811200000126000042: %+v, %v; want 2", docs, err)
	}
	yaroslavl, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, Filters: tenderbase.Filters{Regions: []int{76}, Laws: []string{"223"}}})
	if err != nil || yaroslavl.Total != 3 {
		t.Fatalf("223-FZ tenders of region 76: %+v, %v; want 3", yaroslavl, err)
	}
	again, err := importer.Import(ctx, store, []string{dir, first}, opts)
	if err != nil || again.Unchanged != again.Records {
		t.Fatalf("second import: %+v, %v; want every record unchanged", again, err)
	}
}
