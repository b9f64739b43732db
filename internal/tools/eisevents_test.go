package tools

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// eisSet returns the tools over a new store holding recs and the EIS event
// fixtures files of internal/source/eis, imported as `tenderbase import` reads
// them.
func eisSet(t *testing.T, files []string, recs ...tenderbase.Record) *Set {
	t.Helper()
	store := storeOf(t, recs...)
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join("..", "source", "eis", "testdata", "event", f))
	}
	sum, err := importer.Import(context.Background(), store, paths, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
	if err != nil || sum.Rejected != 0 || sum.Records == 0 {
		t.Fatalf("import of %v: %+v, %v", files, sum, err)
	}
	return New(store, nil)
}

// TestClosedCancellation: the cancellation of a closed procedure cancels
// the tender as an open one's does, and its failure undoes it.
func TestClosedCancellation(t *testing.T) {
	const number = "0373200041526000017"
	const cancel = "epClosedNotificationCancel_0373200041526000017_61455102.xml"
	const failure = "epClosedNotificationCancelFailure_0373200041526000017_61460388.xml"
	for _, c := range []struct {
		files       []string
		state, from string
	}{
		{[]string{cancel}, tenderbase.TenderCancelled, "tender_event epClosedNotificationCancel-61455102 (cancellation)"},
		{[]string{failure, cancel}, tenderbase.TenderActive, "tender " + number + " (version 1)"},
	} {
		got := detailState(t, eisSet(t, c.files, notice(number, tenderbase.TenderActive)), number)
		if got.State != c.state || got.StateFrom != c.from || len(got.Events) != len(c.files) {
			t.Errorf("%v: state %q from %q, %d events; want %q from %q, %d", c.files, got.State, got.StateFrom, len(got.Events), c.state, c.from, len(c.files))
		}
	}
}

// TestProlongationTimeline: a prolongation lists its new deadline in
// ru.izm as a date change does, its cancellation follows, and neither
// changes the tender's state.
func TestProlongationTimeline(t *testing.T) {
	const number = "0373200041526000044"
	const href = "https://zakupki.gov.ru/epz/order/notice/zk20/view/common-info.html?regNumber=" + number
	set := eisSet(t, []string{
		"epProlongationCancelEZK_0373200041526000044_61478533.xml",
		"epProlongationEZK_0373200041526000044_61471920.xml",
	}, notice(number, tenderbase.TenderActive))
	got, _ := decodeCall[izmResult](t, set, tenderbase.PlanFree, "ru.izm", `{"tend_num": "`+number+`"}`)
	msk := time.FixedZone("", 3*3600)
	want := []timelineEntry{
		{Kind: "version", PublishedAt: day(1), Version: 1},
		{Kind: "tender_event", PublishedAt: time.Date(2026, 3, 16, 11, 42, 18, 905e6, msk), ID: "epProlongationEZK-61471920",
			Type: "date_change", ApplicationsDeadline: time.Date(2026, 3, 20, 9, 0, 0, 0, msk), URL: href},
		{Kind: "tender_event", PublishedAt: time.Date(2026, 3, 18, 15, 7, 33, 140e6, msk), ID: "epProlongationCancelEZK-61478533",
			Type: "date_change_cancel", URL: href,
			Reason: "Предписание № 077/06/105-4121/2026 от 18.03.2026, Управление Федеральной антимонопольной службы по г. Москве; Продление срока подачи заявок отменено"},
	}
	same := cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
	if diff := cmp.Diff(want, got.Timeline, same); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
	if s := detailState(t, set, number); s.State != tenderbase.TenderActive || len(s.Events) != 2 {
		t.Errorf("ru.detail: state %q, %d events; want active and both events", s.State, len(s.Events))
	}
}

// TestChangeTimeline: ru.izm lists a lot change with its lot and what it
// changed, and an org change with the new organization.
func TestChangeTimeline(t *testing.T) {
	const lot, org = "0358300012318000431", "0358300012318000512"
	const card = "http://zakupki.gov.ru/epz/order/notice/ok44/view/common-info.html?regNumber="
	set := eisSet(t, []string{
		"fcsNotificationLotChange_0358300012318000431_4131568.xml",
		"fcsNotificationOrgChange_0358300012318000512_4139022.xml",
	}, notice(lot, tenderbase.TenderActive), notice(org, tenderbase.TenderActive))
	msk := time.FixedZone("", 3*3600)
	for _, c := range []struct {
		number string
		want   timelineEntry
	}{
		{lot, timelineEntry{Kind: "tender_event", PublishedAt: time.Date(2018, 9, 20, 14, 31, 7, 642e6, msk), ID: "fcsNotificationLotChange-4131568",
			Type: "lot_change", LotNumber: 2, Reason: "решение заказчика от 19.09.2018",
			Changes: "Изменена начальная (максимальная) цена лота № 2 и срок оказания услуг", URL: card + lot}},
		{org, timelineEntry{Kind: "tender_event", PublishedAt: time.Date(2018, 10, 2, 9, 48, 12, 455e6, msk), ID: "fcsNotificationOrgChange-4139022",
			Type: "org_change", Reason: "Реорганизация заказчика или уполномоченного органа, осуществляющего закупку; " +
				"Постановление администрации города Азова от 24.09.2018 № 1733 о реорганизации",
			Org: tenderbase.Party{INN: "6140047204", KPP: "614001001", RegNum: "03583000461",
				Name:      `МУНИЦИПАЛЬНОЕ КАЗЁННОЕ УЧРЕЖДЕНИЕ "УПРАВЛЕНИЕ ЗАКУПОК И МУНИЦИПАЛЬНОГО ЗАКАЗА ГОРОДА АЗОВА"`,
				ShortName: `МКУ "УЗМЗ Г. АЗОВА"`, Address: "346780, Ростовская обл, Азов г, УЛ. МОСКОВСКАЯ, 19"},
			URL: card + org}},
	} {
		got, _ := decodeCall[izmResult](t, set, tenderbase.PlanFree, "ru.izm", `{"tend_num": "`+c.number+`"}`)
		// The notice of the tests is of 2025, after the change.
		want := []timelineEntry{c.want, {Kind: "version", PublishedAt: day(1), Version: 1}}
		same := cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
		if diff := cmp.Diff(want, got.Timeline, same); diff != "" {
			t.Errorf("%s: timeline (-want +got):\n%s", c.number, diff)
		}
		if s := detailState(t, set, c.number); s.State != tenderbase.TenderActive || len(s.Events) != 1 {
			t.Errorf("%s: ru.detail: state %q, %d events; want active and the change", c.number, s.State, len(s.Events))
		}
	}
}
