package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// The positions of the plan fixtures, numbered as the EIS numbers them: a
// 44-FZ position is its plan-schedule's registry number and six digits,
// and its IKZ the year, the customer's code (3, INN, KPP), the position's
// number in the plan, the order's, the OKPD2 class and the expense type; a
// 223-FZ position is its plan's registration number, "-" and the item's
// ordinal number, as a notice's lotPlanInfo names it.
const (
	plan44       = "202501622000091001"
	position44   = plan44 + "000008"
	ikz44        = "253645060351164500100100080001712244"
	position44b  = plan44 + "000009"
	ikz44b       = "253645060351164500100100090001920244"
	plan223      = "2180316803"
	position223  = plan223 + "-12"
	planCustomer = "6450603511"
	notice44     = "0160300000125000312"
	notice223    = "32514567890"
)

// planFixtures returns positions of purchase plans, the first in two
// versions of its plan-schedule, with values in the shape the EIS
// publishes them (tenderPlan2020 positions, a purchasePlan item).
func planFixtures() []tenderbase.Record {
	day := func(m, d int) time.Time { return time.Date(2025, time.Month(m), d, 10, 0, 0, 0, time.UTC) }
	customer := tenderbase.Party{Name: "ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ «ОБЛАСТНАЯ БОЛЬНИЦА»",
		ShortName: "ГБУЗ «ОБЛАСТНАЯ БОЛЬНИЦА»", INN: planCustomer, KPP: "645001001"}
	paper := &tenderbase.PlannedPurchase{
		PositionNumber: position44, Law: tenderbase.Law44, PlanNumber: plan44, PlanVersion: 3, PlanYears: []int{2025, 2026, 2027},
		IKZ: ikz44, Object: "Поставка бумаги для офисной техники", Customer: customer, Region: 64,
		Objects:  []tenderbase.PlannedObject{{OKPD2Code: "17.12.14.110", OKPD2Name: "Бумага для печати"}},
		Amounts:  []tenderbase.YearAmount{{Year: 2025, Amount: 120000}},
		MaxPrice: 120000, Currency: "RUB", PublishYear: 2025, Status: tenderbase.PlannedActive,
		PublishedAt: day(1, 20), URL: "https://zakupki.gov.ru/epz/orderplan/pg2020/general-info.html?plan-number=" + plan44,
	}
	changed := *paper
	changed.PlanVersion = 5
	changed.Status = tenderbase.PlannedChanged
	changed.StatusCode = "E"
	changed.MaxPrice = 150000
	changed.Amounts = []tenderbase.YearAmount{{Year: 2025, Amount: 150000}}
	changed.PublishedAt = day(3, 4)
	fuel := &tenderbase.PlannedPurchase{
		PositionNumber: position44b, Law: tenderbase.Law44, PlanNumber: plan44, PlanVersion: 5, PlanYears: []int{2025, 2026, 2027},
		IKZ: ikz44b, Object: "Поставка бензина автомобильного", Customer: customer, Region: 64,
		Objects:  []tenderbase.PlannedObject{{OKPD2Code: "19.20.21.100", OKPD2Name: "Бензин автомобильный"}},
		Amounts:  []tenderbase.YearAmount{{Year: 2026, Amount: 800000}, {Year: 2027, Amount: 800000}},
		MaxPrice: 1600000, Currency: "RUB", PublishYear: 2026, Status: tenderbase.PlannedActive, PublishedAt: day(3, 3),
	}
	owner := tenderbase.Party{Name: "АКЦИОНЕРНОЕ ОБЩЕСТВО «ЭНЕРГОСБЫТ»", INN: "5406836941", KPP: "540601001"}
	repair := &tenderbase.PlannedPurchase{
		PositionNumber: position223, Law: tenderbase.Law223, PlanNumber: plan223, PlanVersion: 2, PlanYears: []int{2025},
		Object: "Ремонт кровли административного здания", Customer: owner, Region: 54,
		Objects: []tenderbase.PlannedObject{{OKPD2Code: "43.91.19.110", OKPD2Name: "Работы кровельные прочие",
			OKVED2Code: "43.91", OKVED2Name: "Производство кровельных работ", Quantity: 1, Unit: "Условная единица"}},
		MaxPrice: 2400000, Currency: "RUB", PublishYear: 2025, PublishMonth: 3, PlacingMethod: "Запрос котировок в электронной форме",
		PlacingMethodCode: "12002", Electronic: true, SMEOnly: true, ContractEnd: "2025-09-30", Status: tenderbase.PlannedActive,
		PublishedAt: day(2, 14),
	}
	return []tenderbase.Record{paper, &changed, fuel, repair}
}

// planNotices returns the notices published from the positions of
// planFixtures: a 44-FZ notice naming its position and IKZ
// (tenderPlan2020Info), a 223-FZ one naming its plan item for its lot
// (lotPlanInfo).
func planNotices() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.Tender{
			PurchaseNumber: notice44, Law: tenderbase.Law44, Version: 1, Title: "Поставка бумаги для офисной техники",
			Status: tenderbase.TenderActive, Customer: tenderbase.Party{INN: planCustomer, Name: "ГБУЗ «ОБЛАСТНАЯ БОЛЬНИЦА»"}, Region: 64,
			MaxPrice: 150000, Currency: "RUB", PublishedAt: time.Date(2025, 3, 12, 9, 0, 0, 0, time.UTC),
			Plans: []tenderbase.PlanLink{{PositionNumber: position44, IKZ: ikz44}},
		},
		&tenderbase.Tender{
			PurchaseNumber: notice223, Law: tenderbase.Law223, Version: 1, Title: "Ремонт кровли административного здания",
			Status: tenderbase.TenderActive, Customer: tenderbase.Party{INN: "5406836941"}, Region: 54,
			MaxPrice: 2400000, Currency: "RUB", PublishedAt: time.Date(2025, 3, 20, 9, 0, 0, 0, time.UTC),
			Plans: []tenderbase.PlanLink{{PositionNumber: position223, Lot: 1}},
		},
	}
}

// planView is what a caller reads of a page of plans.search.
type planView struct {
	Total int `json:"total"`
	Items []struct {
		PositionNumber string  `json:"position_number"`
		MaxPrice       float64 `json:"max_price"`
	} `json:"items"`
}

// TestPlansThroughTheStores puts the plan fixtures and their notices into
// each store and reads them through plans.search with each of its
// filters, plans.detail by position and by IKZ, ru.search, the feed and
// contragent.byInn.
func TestPlansThroughTheStores(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := store.Put(context.Background(), append(planFixtures(), planNotices()...)); err != nil {
				t.Fatal(err)
			}
			set := New(store, nil)
			checkPlanSearch(t, set)
			checkPlanDetail(t, set)
			checkPlanLinks(t, set)
		})
	}
}

// TestPlanDetailManyNotices checks that plans.detail counts every notice
// published from a position when they are more than it lists.
func TestPlanDetailManyNotices(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			recs := planFixtures()
			for i := range 25 {
				recs = append(recs, &tenderbase.Tender{
					PurchaseNumber: fmt.Sprintf("01603000001250004%02d", i), Law: tenderbase.Law44, Version: 1,
					Title: "Поставка бензина автомобильного", Status: tenderbase.TenderActive, Region: 64,
					Customer: tenderbase.Party{INN: planCustomer}, PublishedAt: time.Date(2026, 2, 1+i, 9, 0, 0, 0, time.UTC),
					Plans: []tenderbase.PlanLink{{PositionNumber: position44b, IKZ: ikz44b}},
				})
			}
			if _, err := store.Put(context.Background(), recs); err != nil {
				t.Fatal(err)
			}
			got, _ := decodeCall[planDetailView](t, New(store, nil), tenderbase.PlanFree, "plans.detail", `{"id": "`+position44b+`"}`)
			if got.NoticesTotal != 25 || len(got.Notices) != maxPlanNotices || got.Notices[0].Published != "2026-02-25" {
				t.Errorf("plans.detail of a position with 25 notices: total %d, %d listed, the first %+v", got.NoticesTotal, len(got.Notices), got.Notices[0])
			}
		})
	}
}

func checkPlanSearch(t *testing.T, set *Set) {
	for _, c := range []struct {
		args string
		want []string
	}{
		{`{}`, []string{position44, position44b, position223}},
		{`{"query": "бумага"}`, []string{position44}},
		{`{"query": "` + position223 + `"}`, []string{position223}},
		{`{"regions": [54]}`, []string{position223}},
		{`{"laws": [44]}`, []string{position44, position44b}},
		{`{"filters": {"fz223": 1}}`, []string{position223}},
		{`{"okpd2": "19.20"}`, []string{position44b}},
		{`{"customer_inn": "` + planCustomer + `"}`, []string{position44, position44b}},
		{`{"ikz": "` + ikz44b + `"}`, []string{position44b}},
		{`{"plan_number": "` + plan223 + `"}`, []string{position223}},
		{`{"publish_in": "2025"}`, []string{position44, position223}},
		{`{"publish_in": "2025-03"}`, []string{position223}},
		{`{"publish_in": "2025-04"}`, nil},
		// The current version of the plan decides: the paper was planned
		// in version 3 and changed in version 5.
		{`{"state": "changed"}`, []string{position44}},
		{`{"state": "planned"}`, []string{position44b, position223}},
		{`{"price_min": 130000, "price_max": 2000000}`, []string{position44, position44b}},
		{`{"price_max": 130000}`, nil},
		{`{"sort": "price_desc"}`, []string{position223, position44b, position44}},
		{`{"published_from": "2025-03-01"}`, []string{position44, position44b}},
	} {
		v, _ := decodeCall[planView](t, set, tenderbase.PlanFree, "plans.search", c.args)
		var got []string
		for _, it := range v.Items {
			got = append(got, it.PositionNumber)
		}
		if v.Total != len(c.want) || !slices.Equal(got, c.want) {
			t.Errorf("plans.search %s: %d %v, want %v", c.args, v.Total, got, c.want)
		}
	}
	for _, args := range []string{`{"ikz": "2536450603511645001"}`, `{"publish_in": "2025-13"}`, `{"state": "active"}`, `{"plan_number": "21803"}`} {
		if _, err := call(t, set, asPlan(tenderbase.PlanFree), "plans.search", args); err == nil {
			t.Errorf("plans.search %s: no error", args)
		}
	}
	out, err := call(t, set, asPlan(tenderbase.PlanFree), "plans.search", `{"query": "кровли"}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 planned purchase", position223, "notice planned 2025-03", "plan " + plan223 + " v2", `plans.detail {"id": "` + position223 + `"}`} {
		if !strings.Contains(out.Text, want) {
			t.Errorf("plans.search text lacks %q:\n%s", want, out.Text)
		}
	}
}

// planDetailView is what a caller reads of plans.detail.
type planDetailView struct {
	PositionNumber string  `json:"position_number"`
	PlanVersion    int     `json:"plan_version"`
	MaxPrice       float64 `json:"max_price"`
	Notices        []planNotice
	NoticesTotal   int `json:"notices_total"`
}

func checkPlanDetail(t *testing.T, set *Set) {
	for _, c := range []struct {
		id   string
		want planDetailView
	}{
		{position44, planDetailView{PositionNumber: position44, PlanVersion: 5, MaxPrice: 150000, NoticesTotal: 1,
			Notices: []planNotice{{PurchaseNumber: notice44, Title: "Поставка бумаги для офисной техники", State: tenderbase.TenderActive, Published: "2025-03-12"}}}},
		{ikz44, planDetailView{PositionNumber: position44, PlanVersion: 5, MaxPrice: 150000, NoticesTotal: 1,
			Notices: []planNotice{{PurchaseNumber: notice44, Title: "Поставка бумаги для офисной техники", State: tenderbase.TenderActive, Published: "2025-03-12"}}}},
		{position223, planDetailView{PositionNumber: position223, PlanVersion: 2, MaxPrice: 2400000, NoticesTotal: 1,
			Notices: []planNotice{{PurchaseNumber: notice223, Title: "Ремонт кровли административного здания", State: tenderbase.TenderActive, Published: "2025-03-20", Lot: 1}}}},
		{position44b, planDetailView{PositionNumber: position44b, PlanVersion: 5, MaxPrice: 1600000, Notices: []planNotice{}}},
	} {
		got, _ := decodeCall[planDetailView](t, set, tenderbase.PlanFree, "plans.detail", `{"id": "`+c.id+`"}`)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("plans.detail %s (-want +got):\n%s", c.id, diff)
		}
	}
	_, err := call(t, set, asPlan(tenderbase.PlanFree), "plans.detail", `{"id": "202501622000091001000010"}`)
	if tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND || !strings.Contains(err.Error(), "plans.search") {
		t.Errorf("plans.detail of no position: %v, want not found naming plans.search", err)
	}
}

// checkPlanLinks checks the other ways to a position: a notice's summary
// names it, the feed has each position, and the customer's card counts
// them.
func checkPlanLinks(t *testing.T, set *Set) {
	out, err := call(t, set, asPlan(tenderbase.PlanFree), "ru.search", `{"query": "`+notice44+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "plan position "+position44) || !strings.Contains(string(out.Summary), `"plans":["`+position44+`"]`) {
		t.Errorf("ru.search does not name the notice's plan position:\n%s\n%s", out.Text, out.Summary)
	}
	feed, _ := decodeCall[struct {
		Changes []struct{ Type, Kind, Key string }
	}](t, set, tenderbase.PlanFree, "feed.changes", `{"resource": "plans"}`)
	var keys []string
	for _, c := range feed.Changes {
		if c.Kind != string(tenderbase.KindPlannedPurchase) {
			t.Errorf("the feed of plans has %s %s", c.Kind, c.Key)
		}
		keys = append(keys, c.Type+" "+c.Key)
	}
	// The paper's position came new in version 3 of its plan, and changed
	// in version 5.
	if want := []string{"new " + position44, "version " + position44, "new " + position44b, "new " + position223}; !slices.Equal(keys, want) {
		t.Errorf("feed of plans: %v, want %v", keys, want)
	}
	card, _ := decodeCall[struct {
		AsCustomer struct {
			Planned int `json:"planned"`
		} `json:"as_customer"`
	}](t, set, tenderbase.PlanFree, "contragent.byInn", `{"inn": "`+planCustomer+`"}`)
	if card.AsCustomer.Planned != 2 {
		t.Errorf("contragent.byInn %s: %d planned purchases, want 2", planCustomer, card.AsCustomer.Planned)
	}
}

// TestPlanMatches checks that a subscription to a search of plans mails
// the positions new in the feed that its search finds, and not a position
// whose plan only changed it.
func TestPlanMatches(t *testing.T) {
	store := newStore(t)
	set := New(store, nil)
	ctx := t.Context()
	sub, err := store.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-p", Name: "Бумага", Resource: "plans",
		Search: []byte(`{"query": "бумага | бензин", "customer_inn": "` + planCustomer + `"}`), Recipients: []string{"a@example.com"}}, tenderbase.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	recs := planFixtures()
	match := func(recs ...tenderbase.Record) []tenderbase.MailItem {
		t.Helper()
		if _, err := store.Put(ctx, recs); err != nil {
			t.Fatal(err)
		}
		page, err := store.Changes(ctx, tenderbase.FeedQuery{Kinds: tenderbase.FeedResources["plans"], After: sub.Position, Limit: tenderbase.MaxFeedPage})
		if err != nil {
			t.Fatal(err)
		}
		sub.Position = page.Last
		cands, err := set.Candidates(ctx, "plans", page.Entries)
		if err != nil {
			t.Fatal(err)
		}
		news, _, err := set.Matches(asAccount(tenderbase.PlanFree, "acct-p"), sub, cands, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return news
	}
	// The paper's first version, the fuel and the roof are new, mailed
	// oldest first; the roof is another customer's.
	news := match(recs[0], recs[2], recs[3])
	var keys []string
	for _, it := range news {
		keys = append(keys, it.Key)
	}
	if want := []string{position44, position44b}; !slices.Equal(keys, want) {
		t.Fatalf("mailed %v, want %v", keys, want)
	}
	if facts := strings.Join(news[0].Facts, "\n"); !strings.Contains(facts, "ИКЗ: "+ikz44) || !strings.Contains(facts, "Позиция: "+position44) {
		t.Errorf("the paper's facts:\n%s", facts)
	}
	if news := match(recs[1]); len(news) != 0 {
		t.Errorf("a changed position mailed again: %+v", news)
	}
}
