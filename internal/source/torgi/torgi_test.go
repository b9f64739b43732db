package torgi

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/sourcetest"
)

var _ importer.Decoder = Format{}

// decodeFile decodes a fixture into its lots and its refusals.
func decodeFile(t *testing.T, name string) ([]*tenderbase.Lot, []error) {
	t.Helper()
	recs, errs := sourcetest.DecodeFile(t, Format{}, filepath.Join("testdata", name))
	return sourcetest.Lots(t, recs), errs
}

func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestLotCard(t *testing.T) {
	lots, errs := decodeFile(t, "lotcard-229fz.json")
	if len(errs) > 0 || len(lots) != 1 {
		t.Fatalf("%d lots, errors %v", len(lots), errs)
	}
	want := &tenderbase.Lot{
		ID: "23000050620000000112_7", Source: "torgi.gov.ru", NoticeNumber: "23000050620000000112", LotNumber: 7,
		Title:    "Д-к Сомов А.Н. Нежилое здание (гараж) пл. 24 кв.м, КН 23:19:0106172:48, адрес: Краснодарский край, Ленинградский р-н, ст-ца Ленинградская, ул. Терновая, 42, гараж 9. Обременение: арест",
		Category: "Гаражи и машиноместа", CategoryCode: "10", BiddingType: "229FZ", BiddingForm: "Электронный аукцион",
		Status: tenderbase.TenderActive, SourceStatus: "APPLICATIONS_SUBMISSION", Region: 23,
		Address:    "край Краснодарский, Ленинградский р-н, ст-ца Ленинградская, ул. Терновая, 42, гараж 9",
		StartPrice: 418000, Deposit: 83600, PriceStep: 4180, Currency: "RUB",
		Debtor:   tenderbase.Party{Name: "Сомов А.Н."},
		Platform: "ETP_MMVB",
		Properties: []tenderbase.LotProperty{
			{Code: "totalAreaRealty", Name: "Общая площадь", Value: "24", Unit: "м^2 общ. пл"},
			{Code: "cadastralNumberRealty", Name: "Кадастровый номер", Value: "23:19:0106172:48"},
		},
		Attachments: []tenderbase.Attachment{
			{FileName: "Фото гаража.jpeg", URL: "https://torgi.gov.ru/new/file-store/v1/6a8c770fe096f456f84c3a01", Size: 41277},
			{FileName: "Извещение 25-08-07.pdf", Description: "Извещение", URL: "https://torgi.gov.ru/new/file-store/v1/6a8d7080e096f456f84c9a02", Size: 1226468},
		},
		PublishedAt:  at(t, "2026-08-25T11:16:39.979Z"),
		BiddingStart: at(t, "2026-08-26T07:00:00Z"),
		BiddingEnd:   at(t, "2026-09-21T13:00:00Z"),
		AuctionDate:  at(t, "2026-09-25T07:00:00Z"),
		URL:          "https://torgi.gov.ru/new/public/lots/lot/23000050620000000112_7",
	}
	if diff := cmp.Diff(want, lots[0]); diff != "" {
		t.Errorf("lot (-want +got):\n%s", diff)
	}
}

func TestSearchPage(t *testing.T) {
	lots, errs := decodeFile(t, "lotcards-search.json")
	if len(errs) > 0 || len(lots) != 3 {
		t.Fatalf("%d lots, errors %v", len(lots), errs)
	}
	type summary struct {
		ID, Status, Debtor string
		Start              float64
		Region             int
		Result             *tenderbase.LotResult
		Property           string
	}
	var got []summary
	for _, l := range lots {
		s := summary{ID: l.ID, Status: l.Status, Debtor: l.Debtor.Name, Start: l.StartPrice, Region: l.Region, Result: l.Result}
		for _, p := range l.Properties {
			s.Property += p.Code + "=" + p.Value + ";"
		}
		got = append(got, s)
	}
	want := []summary{
		{"23000042610000000031_3", "active", "Лаптев И.Г.", 734000, 73, nil,
			"CadastralNumber=73:21:030702:118;SquareZU=1200;PermittedUse=Жилая застройка;"},
		{"23000020750000000058_1", "completed", "", 2158000, 76, &tenderbase.LotResult{Outcome: "sold", Price: 2589600}, "totalAreaRealty=86.4;"},
		{"23000020750000000058_2", "failed", "", 1311000, 76, &tenderbase.LotResult{Outcome: "failed"}, "totalAreaRealty=52.1;"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lots (-want +got):\n%s", diff)
	}
}

func TestOpenDataNotice(t *testing.T) {
	lots, errs := decodeFile(t, "opendata-notice.json")
	if len(errs) > 0 || len(lots) != 2 {
		t.Fatalf("%d lots, errors %v", len(lots), errs)
	}
	l := lots[0]
	organizer := tenderbase.Party{INN: "3652003045", KPP: "365201001", OGRN: "1033664500045",
		Name:    "АДМИНИСТРАЦИЯ ЛИСКИНСКОГО МУНИЦИПАЛЬНОГО РАЙОНА ВОРОНЕЖСКОЙ ОБЛАСТИ",
		Address: "397900, Воронежская обл., г. Лиски, пр-кт Ленина, д. 32",
		Contact: tenderbase.Contact{Person: "Колесникова Ирина Петровна", Phone: "+7 (47391) 4-65-17", Email: "torgi@liski-adm.ru"}}
	want := &tenderbase.Lot{
		ID: "21000035130000000412_1", Source: "torgi.gov.ru", NoticeNumber: "21000035130000000412", LotNumber: 1,
		Title:       "Право на заключение договора аренды земельного участка, КН 36:14:0017601:55",
		Description: "Земельный участок из земель населенных пунктов площадью 1 410 кв.м, для размещения гаражей для собственных нужд",
		Category:    "Земли населенных пунктов", CategoryCode: "301", BiddingType: "ZK", BiddingForm: "Электронный аукцион",
		Status: "active", SourceStatus: "PUBLISHED", Region: 36,
		Address:    "обл Воронежская, м.р-н Лискинский, г.п. город Лиски, г Лиски, ул Сеченова",
		StartPrice: 213386.58, Deposit: 42677.31, PriceStep: 6401.59, Currency: "RUB",
		Organizer: organizer, Platform: "ETP_RTS",
		Properties: []tenderbase.LotProperty{
			{Code: "PermittedUse", Name: "Основной вид разрешенного использования", Value: "Размещение гаражей для собственных нужд"},
			{Code: "CadastralNumber", Name: "Кадастровый номер земельного участка", Value: "36:14:0017601:55"},
			{Code: "SquareZU", Name: "Площадь земельного участка", Value: "1410", Unit: "Квадратный метр"},
		},
		PublishedAt:  at(t, "2026-04-22T05:06:01.737Z"),
		BiddingStart: at(t, "2026-04-23T06:00:00Z"),
		BiddingEnd:   at(t, "2026-05-20T14:00:00Z"),
		URL:          "https://torgi.gov.ru/new/public/notices/view/21000035130000000412",
	}
	if diff := cmp.Diff(want, l); diff != "" {
		t.Errorf("lot (-want +got):\n%s", diff)
	}
	if lots[1].ID != "21000035130000000412_2" || lots[1].Organizer.INN != organizer.INN || lots[1].StartPrice != 301200 {
		t.Errorf("second lot %s of %s at %v", lots[1].ID, lots[1].Organizer.INN, lots[1].StartPrice)
	}
}

// TestRefused: the documents that hold no lot say why they give none.
func TestRefused(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"opendata-noticecancel.json", "noticeCancel document names a notice, not its lots"},
	} {
		lots, errs := decodeFile(t, tt.file)
		if len(lots) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
			t.Errorf("%s: %d lots, errors %v; want one saying %q", tt.file, len(lots), errs, tt.want)
		}
	}
}

// TestStoppedCard: a card says a lot's procedure is suspended (isStopped)
// while it is active; a card of a lot that has ended does not.
func TestStoppedCard(t *testing.T) {
	for _, tt := range []struct {
		status string
		want   bool
	}{{"APPLICATIONS_SUBMISSION", true}, {"SUCCEED", false}} {
		recs, errs := sourcetest.Decode(t, Format{}, []byte(`{"noticeNumber": "23000050620000000112", "lotNumber": 7, "lotStatus": "`+tt.status+`", "isStopped": true}`))
		if lots := sourcetest.Lots(t, recs); len(errs) > 0 || len(lots) != 1 || lots[0].Suspended != tt.want {
			t.Errorf("%s: %v, errors %v; want suspended %v", tt.status, lots, errs, tt.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, tt := range []struct{ name, body, want string }{
		{"broken", `{"noticeNumber": "1", "lotNumber": `, "does not parse"},
		{"no lot number", `{"noticeNumber": "23000050620000000112", "lotStatus": "PUBLISHED"}`, "no noticeNumber or lotNumber"},
		{"no lots", `{"exportObject": {"structuredObject": {"notice": {"commonInfo": {"noticeNumber": "2100"}, "lots": []}}}}`, "has no lots"},
	} {
		_, errs := sourcetest.Decode(t, Format{}, []byte(tt.body))
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) ||
			tenderbase.ErrorCode(errs[0]) != tenderbase.EINVALID {
			t.Errorf("%s: %v, want one invalid saying %q", tt.name, errs, tt.want)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		body string
		want bool
	}{
		{`{"noticeNumber": "1", "lotNumber": 1}`, true},
		{`{"content": [], "totalPages": 0}`, true},
		{`{"exportObject": {}}`, true},
		{`{"releases": []}`, false},
		{`{"noticeNumber": "1"}`, false},
		{`[1]`, false},
	} {
		if got := (Format{}).Detect([]byte(tt.body)); got != tt.want {
			t.Errorf("Detect(%s) = %v", tt.body, got)
		}
	}
}
