package eis

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// eventAt parses an RFC 3339 time of a test's expectations.
func eventAt(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// decodeEvent decodes the file, which must yield one tender event, and
// checks that the event survives its canonical JSON.
func decodeEvent(t *testing.T, file string) *tenderbase.TenderEvent {
	t.Helper()
	recs, errs := decodeFixture(t, file)
	if len(recs) != 1 || len(errs) != 0 {
		t.Fatalf("%s: %d records, rejections %v; want one event", file, len(recs), errs)
	}
	e, ok := recs[0].(*tenderbase.TenderEvent)
	if !ok {
		t.Fatalf("%s: a %T, not a tender event", file, recs[0])
	}
	roundTrip(t, e)
	return e
}

// checkEvents decodes each file of dir and compares its event with want.
func checkEvents(t *testing.T, dir string, want map[string]*tenderbase.TenderEvent) {
	t.Helper()
	for file, w := range want {
		t.Run(file, func(t *testing.T) {
			got := decodeEvent(t, filepath.Join(dir, file))
			if diff := cmp.Diff(w, got); diff != "" {
				t.Errorf("event (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvents44Fixtures(t *testing.T) {
	const yar = "https://zakupki.gov.ru/epz/order/notice/ea20/view/common-info.html?regNumber=0873500000826000154"
	const zk = "https://zakupki.gov.ru/epz/order/notice/zk20/view/common-info.html?regNumber=0373200041526000044"
	checkEvents(t, filepath.Join("testdata", "event"), map[string]*tenderbase.TenderEvent{
		"fcsNotificationLotCancel_0358300012318000427_4127730.xml": {
			ID: "fcsNotificationLotCancel-4127730", PurchaseNumber: "0358300012318000427", Law: "44", Type: tenderbase.EventLotCancellation,
			Document: "fcsNotificationLotCancel", LotNumber: 2, PublishedAt: eventAt(t, "2018-09-12T10:15:31.207+03:00"),
			Reason: `Определение о принятии обеспечительных мер № А53-27114/2018 от 10.09.2018, Арбитражный суд Ростовской области; ` +
				`Отмена определения поставщика по лоту № 2 "Вывоз снега с территории"`,
			URL: "http://zakupki.gov.ru/epz/order/notice/ok44/view/common-info.html?regNumber=0358300012318000427",
		},
		"epNotificationCancel_0873500000826000154_61398420.xml": {
			ID: "epNotificationCancel-61398420", PurchaseNumber: "0873500000826000154", Law: "44", Type: tenderbase.EventCancellation,
			Document: "epNotificationCancel", PublishedAt: eventAt(t, "2026-03-03T09:12:47.551+03:00"),
			Reason: "решение заказчика от 02.03.2026; Изменение потребности заказчика, ч. 1 ст. 36 Федерального закона № 44-ФЗ",
			URL:    yar,
		},
		"epNotificationCancelFailure_0873500000826000154_61402217.xml": {
			ID: "epNotificationCancelFailure-61402217", PurchaseNumber: "0873500000826000154", Law: "44", Type: tenderbase.EventCancellationFailure,
			Document: "epNotificationCancelFailure", PublishedAt: eventAt(t, "2026-03-10T14:03:09.018+03:00"),
			Reason: "Предписание № 076/06/64-318/2026 от 06.03.2026, Управление Федеральной антимонопольной службы по Ярославской области",
			URL:    yar,
		},
		// A closed procedure: no address, the basis a court decision.
		"epClosedNotificationCancel_0373200041526000017_61455102.xml": {
			ID: "epClosedNotificationCancel-61455102", PurchaseNumber: "0373200041526000017", Law: "44", Type: tenderbase.EventCancellation,
			Document: "epClosedNotificationCancel", PublishedAt: eventAt(t, "2026-03-13T10:21:04.117+03:00"),
			Reason: "Определение № А40-31877/2026 от 11.03.2026, Арбитражный суд города Москвы; " +
				"Исполнение определения суда о принятии обеспечительных мер",
		},
		"epClosedNotificationCancelFailure_0373200041526000017_61460388.xml": {
			ID: "epClosedNotificationCancelFailure-61460388", PurchaseNumber: "0373200041526000017", Law: "44",
			Type: tenderbase.EventCancellationFailure, Document: "epClosedNotificationCancelFailure",
			PublishedAt: eventAt(t, "2026-03-20T12:44:51.302+03:00"),
			Reason:      "Определение об отмене обеспечительных мер № А40-31877/2026 от 19.03.2026, Арбитражный суд города Москвы",
		},
		// One lot restated: what changed in its words, why in the basis.
		"fcsNotificationLotChange_0358300012318000431_4131568.xml": {
			ID: "fcsNotificationLotChange-4131568", PurchaseNumber: "0358300012318000431", Law: "44", Type: tenderbase.EventLotChange,
			Document: "fcsNotificationLotChange", LotNumber: 2, PublishedAt: eventAt(t, "2018-09-20T14:31:07.642+03:00"),
			Reason:  "решение заказчика от 19.09.2018",
			Changes: "Изменена начальная (максимальная) цена лота № 2 и срок оказания услуг",
			URL:     "http://zakupki.gov.ru/epz/order/notice/ok44/view/common-info.html?regNumber=0358300012318000431",
		},
		// The new organization as a party; the basis code worded.
		"fcsNotificationOrgChange_0358300012318000512_4139022.xml": {
			ID: "fcsNotificationOrgChange-4139022", PurchaseNumber: "0358300012318000512", Law: "44", Type: tenderbase.EventOrgChange,
			Document: "fcsNotificationOrgChange", PublishedAt: eventAt(t, "2018-10-02T09:48:12.455+03:00"),
			Reason: "Реорганизация заказчика или уполномоченного органа, осуществляющего закупку; " +
				"Постановление администрации города Азова от 24.09.2018 № 1733 о реорганизации",
			Org: tenderbase.Party{INN: "6140047204", KPP: "614001001", RegNum: "03583000461",
				Name:      `МУНИЦИПАЛЬНОЕ КАЗЁННОЕ УЧРЕЖДЕНИЕ "УПРАВЛЕНИЕ ЗАКУПОК И МУНИЦИПАЛЬНОГО ЗАКАЗА ГОРОДА АЗОВА"`,
				ShortName: `МКУ "УЗМЗ Г. АЗОВА"`, Address: "346780, Ростовская обл, Азов г, УЛ. МОСКОВСКАЯ, 19"},
			URL: "http://zakupki.gov.ru/epz/order/notice/ok44/view/common-info.html?regNumber=0358300012318000512",
		},
		// A prolongation of the deadline, then its cancellation by a
		// prescription; neither restates the notice.
		"epProlongationEZK_0373200041526000044_61471920.xml": {
			ID: "epProlongationEZK-61471920", PurchaseNumber: "0373200041526000044", Law: "44", Type: tenderbase.EventDateChange,
			Document: "epProlongationEZK", PublishedAt: eventAt(t, "2026-03-16T11:42:18.905+03:00"),
			ApplicationsDeadline: eventAt(t, "2026-03-20T09:00:00+03:00"), URL: zk,
		},
		"epProlongationCancelEZK_0373200041526000044_61478533.xml": {
			ID: "epProlongationCancelEZK-61478533", PurchaseNumber: "0373200041526000044", Law: "44", Type: tenderbase.EventDateChangeCancel,
			Document: "epProlongationCancelEZK", PublishedAt: eventAt(t, "2026-03-18T15:07:33.140+03:00"),
			Reason: "Предписание № 077/06/105-4121/2026 от 18.03.2026, Управление Федеральной антимонопольной службы по г. Москве; " +
				"Продление срока подачи заявок отменено",
			URL: zk,
		},
		// A two-stage tender: the first stage's new deadline.
		"epProlongationEOKD_0373200041526000052_61483307.xml": {
			ID: "epProlongationEOKD-61483307", PurchaseNumber: "0373200041526000052", Law: "44", Type: tenderbase.EventDateChange,
			Document: "epProlongationEOKD", PublishedAt: eventAt(t, "2026-03-19T10:05:47.211+03:00"),
			ApplicationsDeadline: eventAt(t, "2026-03-30T10:00:00+03:00"),
			URL:                  "https://zakupki.gov.ru/epz/order/notice/printForm/view.html?prolongationId=61483307",
		},
		// No id element: the id is the last number of the file name.
		"epNoticeApplicationsAbsence_0873500000826000231_61517734.xml": {
			ID: "epNoticeApplicationsAbsence-61517734", PurchaseNumber: "0873500000826000231", Law: "44", Type: tenderbase.EventNoApplications,
			Document: "epNoticeApplicationsAbsence", PublishedAt: eventAt(t, "2026-03-23T09:00:12.640+03:00"),
			Reason: "По окончании срока подачи заявок не подано ни одной заявки",
			URL:    "https://zakupki.gov.ru/epz/order/notice/ea20/view/supplier-results.html?regNumber=0873500000826000231",
		},
		// A prescription from the register cancels the auction's result
		// (testdata/protocol/fcsProtocolEF3_0145300012719000084_24418806.xml).
		"fcsProtocolCancel_0145300012719000084_3391270.xml": {
			ID: "fcsProtocolCancel-3391270", PurchaseNumber: "0145300012719000084", Law: "44", Type: tenderbase.EventProtocolCancellation,
			Document: "fcsProtocolCancel", PublishedAt: eventAt(t, "2019-07-26T15:24:31.207+03:00"),
			Reason: "предписание № 069/06/105-412/2019 от 24.07.2019, Управление Федеральной антимонопольной службы по Тверской области; " +
				"Отменить протокол подведения итогов электронного аукциона",
			ProtocolNumber: "0145300012719000084-3",
			URL:            "https://www.rts-tender.ru/Protocols/ViewProtocol?id=5529417",
		},
		// The ep scheme nests the court decision in reasonInfo.
		"epProtocolCancel_0873500000826000212_61788035.xml": {
			ID: "epProtocolCancel-61788035", PurchaseNumber: "0873500000826000212", Law: "44", Type: tenderbase.EventProtocolCancellation,
			Document: "epProtocolCancel", PublishedAt: eventAt(t, "2026-04-14T11:32:08.114+03:00"),
			Reason: "Определение о принятии обеспечительных мер № А82-4117/2026 от 10.04.2026, Арбитражный суд Ярославской области; " +
				"Протокол подведения итогов отменён по решению суда",
			ProtocolNumber: "ИЭА1",
			URL:            "https://zakupki.gov.ru/epz/order/notice/ea20/view/supplier-results.html?regNumber=0873500000826000212",
		},
		// Capital repairs (PP RF 615): a customer's decision in
		// cancelReason/reasonInfo, the date in commonInfo/docPublishDate.
		"pprf615ProtocolCancel_207650000012600031_71245508.xml": {
			ID: "pprf615ProtocolCancel-71245508", PurchaseNumber: "207650000012600031", Law: "44", Type: tenderbase.EventProtocolCancellation,
			Document: "pprf615ProtocolCancel", PublishedAt: eventAt(t, "2026-05-19T15:04:12.481+03:00"),
			Reason:         "решение заказчика от 18.05.2026; Протокол рассмотрения заявок отменён для повторного рассмотрения",
			ProtocolNumber: "207650000012600031-1",
			URL:            "https://zakupki.gov.ru/epz/capitalrepairs/view/protocols.html?regNumber=207650000012600031",
		},
		// Prefixed names and the Vladivostok offset, kept as written.
		"fcs_notificationEFDateChange_0320300031719000088_20931.xml": {
			ID: "fcs_notificationEFDateChange-20931", PurchaseNumber: "0320300031719000088", Law: "44", Type: tenderbase.EventDateChange,
			Document: "fcs_notificationEFDateChange", PublishedAt: eventAt(t, "2019-04-02T11:27:05.318+10:00"),
			Reason:      "предписание № 025/06/106-173/2019 от 29.03.2019, Приморское УФАС России",
			BiddingDate: eventAt(t, "2019-04-08T10:20:00+10:00"),
			URL:         "http://zakupki.gov.ru/epz/order/notice/ea44/view/common-info.html?regNumber=0320300031719000088",
		},
	})
}

// TestRealEvents44 reads the real date change, cancellation, cancellation
// failure and protocol cancellation of the samples.
func TestRealEvents44(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "data", "eis44", "aksyuk__zakupki_gov_ru")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the real samples are not here (%s): %v", dir, err)
	}
	const notice = "http://zakupki.gov.ru/epz/order/notice/"
	checkEvents(t, dir, map[string]*tenderbase.TenderEvent{
		"fcs_notificationEFDateChange_0111100008417000189_17485.xml": {
			ID: "fcs_notificationEFDateChange-17485", PurchaseNumber: "0111100008417000189", Law: "44", Type: tenderbase.EventDateChange,
			Document: "fcs_notificationEFDateChange", PublishedAt: eventAt(t, "2017-12-18T08:05:52.754+03:00"),
			Reason:      "Решение № 827-АК от 14.12.2017, Управление Федеральной антимонопольной службы по Нижегородской области; Решение № 827- АК",
			BiddingDate: eventAt(t, "2017-12-18T00:00:00+03:00"),
			URL:         notice + "ea44/view/documents.html?regNumber=0111100008417000189",
		},
		"fcsNotificationCancel_0111100002417000043_212694.xml": {
			ID: "fcsNotificationCancel-212694", PurchaseNumber: "0111100002417000043", Law: "44", Type: tenderbase.EventCancellation,
			Document: "fcsNotificationCancel", PublishedAt: eventAt(t, "2017-10-25T11:17:18.553+03:00"),
			Reason: "решение заказчика от 25.10.2017; Согласно часть 1 статья 36 Федерального закона 44-ФЗ",
			URL:    notice + "zk44/view/documents.html?regNumber=0111100002417000043",
		},
		"fcsNotificationCancelFailure_0111300010718000019_29291.xml": {
			ID: "fcsNotificationCancelFailure-29291", PurchaseNumber: "0111300010718000019", Law: "44", Type: tenderbase.EventCancellationFailure,
			Document: "fcsNotificationCancelFailure", PublishedAt: eventAt(t, "2018-05-03T09:11:08.356+03:00"),
			Reason: "Предписание об устранении нарушений действующего законодательства Российской Федерации № 207-кз/2018 от 11.04.2018, " +
				"УПРАВЛЕНИЕ ФЕДЕРАЛЬНОЙ АНТИМОНОПОЛЬНОЙ СЛУЖБЫ ПО РЕСПУБЛИКЕ ТАТАРСТАН",
			URL: notice + "ea44/view/documents.html?regNumber=0111300010718000019",
		},
		// No id element; the court decision is all dashes but its date.
		"fcsProtocolCancel_0111100004218000004_342109.xml": {
			ID: "fcsProtocolCancel-342109", PurchaseNumber: "0111100004218000004", Law: "44", Type: tenderbase.EventProtocolCancellation,
			Document: "fcsProtocolCancel", PublishedAt: eventAt(t, "2018-05-28T09:04:10.660+03:00"),
			Reason: "решение суда от 28.05.2018", ProtocolNumber: "0111100004218000004-1",
			URL: "http://etp.zakazrf.ru/DFile.ashx?guid=7121e44c-21bb-4c7f-8a57-43f5698e372f",
		},
	})
}

func TestEventRejections(t *testing.T) {
	read := func(file string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "event", file))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	lot := read("fcsNotificationLotCancel_0358300012318000427_4127730.xml")
	change := read("fcs_notificationEFDateChange_0320300031719000088_20931.xml")
	absence := read("epNoticeApplicationsAbsence_0873500000826000231_61517734.xml")
	protocolCancel := read("fcsProtocolCancel_0145300012719000084_3391270.xml")
	lots := read("purchaseLotCancellation_32514933450.xml")
	prolongation := read("epProlongationEZK_0373200041526000044_61471920.xml")
	tests := []struct{ name, doc, want string }{
		{"truncated_1.xml", lot[:len(lot)/2], "<fcsNotificationLotCancel> is not well-formed XML at line"},
		{"no-number_1.xml", strings.Replace(lot, "0358300012318000427<", "<", 1), "lot cancellation has no purchase number"},
		{"no-lot_1.xml", strings.Replace(lot, "<lotNumber>2</lotNumber>", "", 1), "lot cancellation of 0358300012318000427 names no lot"},
		{"bad-lot_1.xml", strings.Replace(lot, "<lotNumber>2<", "<lotNumber>второй<", 1), `lot number "второй" is not a whole number`},
		{"bad-date_1.xml", strings.Replace(lot, "2018-09-12T10:15:31.207+03:00", "12.09.2018", 1), `date "12.09.2018" is neither xs:dateTime nor xs:date`},
		{"no-date.xml", strings.Replace(change, "<t:newAuctionDate>2019-04-08T10:20:00+10:00</t:newAuctionDate>", "", 1),
			"date change of 0320300031719000088 gives no new date"},
		{"no-new-deadline_1.xml", strings.Replace(prolongation, "<ns5:newCollectingEndDT>2026-03-20T09:00:00+03:00</ns5:newCollectingEndDT>", "", 1),
			"date change of 0373200041526000044 gives no new date"},
		{"absence.xml", absence, "no applications of 0873500000826000231 has no document id, neither inside nor in the file name"},
		{"no-protocol_1.xml", strings.Replace(protocolCancel, "<protocolNumber>0145300012719000084-3</protocolNumber>", "", 1),
			"protocol cancellation of 0145300012719000084 names no protocol"},
		{"bad-lot-223.xml", strings.Replace(lots, "<ns2:ordinalNumber>3<", "<ns2:ordinalNumber>x<", 1), `lot number "x" is not a whole number`},
		{"no-lots-223.xml", `<ns2:purchaseLotCancellation xmlns:ns2="http://zakupki.gov.ru/223fz/purchase/1"><ns2:body><ns2:item><ns2:purchaseLotCancellationData>` +
			`<ns2:guid>6d0e83b7</ns2:guid><ns2:purchaseInfo><purchaseNoticeNumber>32514933450</purchaseNoticeNumber></ns2:purchaseInfo>` +
			`</ns2:purchaseLotCancellationData></ns2:item></ns2:body></ns2:purchaseLotCancellation>`, "lot cancellation of 32514933450 names no lot"},
		{"empty-223.xml", `<ns2:purchaseRejection xmlns:ns2="http://zakupki.gov.ru/223fz/purchase/1"><ns2:body/></ns2:purchaseRejection>`, "purchaseRejection holds no item"},
		{"notice-change.xml", `<export xmlns="http://zakupki.gov.ru/oos/export/1"><fcs_notificationZKChange><purchaseNumber>0358300012318000431</purchaseNumber></fcs_notificationZKChange></export>`,
			"<fcs_notificationZKChange>: notice change of 0358300012318000431: changes that do not restate the notice are not applied yet"},
		{"lot-change_1.xml", `<export xmlns="http://zakupki.gov.ru/oos/export/1"><fcsNotificationLotChange><purchaseNumber>0358300012318000431</purchaseNumber></fcsNotificationLotChange></export>`,
			"<fcsNotificationLotChange>: lot change of 0358300012318000431 names no lot"},
		{"org-change_1.xml", `<export xmlns="http://zakupki.gov.ru/oos/export/1"><fcsNotificationOrgChange><purchase><purchaseNumber>0358300012318000512</purchaseNumber></purchase></fcsNotificationOrgChange></export>`,
			"<fcsNotificationOrgChange>: org change of 0358300012318000512 names no new organization"},
	}
	for _, tt := range tests {
		recs, errs := decodeAll(t, tt.name, tt.doc)
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) ||
			tenderbase.ErrorCode(errs[0]) != tenderbase.EINVALID {
			t.Errorf("%s: %d records, rejections %v; want one invalid rejection containing %q", tt.name, len(recs), errs, tt.want)
		}
	}
}

func TestDescribeDocument(t *testing.T) {
	at := eventAt(t, "2018-04-11T00:00:00+03:00")
	tests := []struct {
		name, number, issuer, want string
		date                       time.Time
	}{
		{"Решение", "827-АК", "УФАС", "Решение № 827-АК от 11.04.2018, УФАС", at},
		{"решение заказчика", "", "", "решение заказчика от 11.04.2018", at},
		{"", "", "УФАС", "", time.Time{}},
		{"", "5", "", "№ 5", time.Time{}},
	}
	for _, tt := range tests {
		if got := describeDocument(tt.name, tt.number, tt.date, tt.issuer); got != tt.want {
			t.Errorf("describeDocument(%q, %q, %v, %q) = %q, want %q", tt.name, tt.number, tt.date, tt.issuer, got, tt.want)
		}
	}
}

func TestEvents223Fixtures(t *testing.T) {
	const lots = "https://zakupki.gov.ru/223/purchase/public/purchase/info/lot-list.html?regNumber=32514933450"
	lotEvent := func(n int) *tenderbase.TenderEvent {
		return &tenderbase.TenderEvent{
			ID: "6d0e83b7-2a19-4c5f-a7d4-93b1e6f2c805-" + strconv.Itoa(n), PurchaseNumber: "32514933450", Law: "223",
			Type: tenderbase.EventLotCancellation, Document: "purchaseLotCancellation", LotNumber: n,
			PublishedAt: eventAt(t, "2025-10-14T09:40:12+03:00"),
			Reason:      "решение заказчика от 13.10.2025; Отсутствие финансирования по статье расходов", URL: lots,
		}
	}
	tests := map[string][]*tenderbase.TenderEvent{
		"purchaseRejection_32514920117.xml": {{
			ID: "c3a9f512-0d84-4e7b-b216-5f4e8a91d07c", PurchaseNumber: "32514920117", Law: "223",
			Type: tenderbase.EventCancellation, Document: "purchaseRejection", PublishedAt: eventAt(t, "2025-10-02T14:21:07+03:00"),
			Reason: "решение заказчика от 01.10.2025; Изменение потребности заказчика в продукции, п. 7.4 Положения о закупке",
			URL:    "https://zakupki.gov.ru/223/purchase/public/purchase/info/common-info.html?regNumber=32514920117",
		}},
		// Two lots cancelled for the document's common reason.
		"purchaseLotCancellation_32514933450.xml": {lotEvent(2), lotEvent(3)},
	}
	for file, want := range tests {
		recs, errs := decodeFixture(t, filepath.Join("testdata", "event", file))
		if len(errs) != 0 {
			t.Fatalf("%s: rejections %v", file, errs)
		}
		var got []*tenderbase.TenderEvent
		for _, r := range recs {
			roundTrip(t, r)
			got = append(got, r.(*tenderbase.TenderEvent))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", file, diff)
		}
	}
}

// TestEventsThroughTheStore imports the event fixtures into a real store:
// the events of a tender are found by its purchase number, and a second
// import changes nothing.
func TestEventsThroughTheStore(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tenderbase.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	dir := filepath.Join("testdata", "event")
	opts := importer.Options{Decoders: []importer.Decoder{Format{}}}
	sum, err := importer.Import(ctx, store, []string{dir}, opts)
	if err != nil || sum.Records != 18 || sum.Inserted != 18 || sum.Rejected != 0 {
		t.Fatalf("first import: %+v, %v; want 18 events inserted", sum, err)
	}
	found, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTenderEvent,
		Where: []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: "0873500000826000154"}}})
	if err != nil || found.Total != 2 {
		t.Fatalf("events of 0873500000826000154: %+v, %v; want the cancellation and its failure", found, err)
	}
	again, err := importer.Import(ctx, store, []string{dir}, opts)
	if err != nil || again.Unchanged != 18 || again.Inserted != 0 {
		t.Fatalf("second import: %+v, %v; want 18 unchanged", again, err)
	}
}
