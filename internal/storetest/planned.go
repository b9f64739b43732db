package storetest

import (
	"testing"

	"github.com/tenderbase/tenderbase/internal/query"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// testPlannedPurchases checks that a position of a purchase plan is one
// record across the plan's versions, the newer version winning, and that
// it and the notice published from it are found by the position's number
// and by the IKZ both carry.
func testPlannedPurchases(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	const (
		position = "202501622000091001000008"
		ikz      = "252164506035116450100100040000000000"
	)
	first := &tenderbase.PlannedPurchase{
		PositionNumber: position, Law: tenderbase.Law44, PlanNumber: "202501622000091001", PlanVersion: 3,
		IKZ: ikz, Object: "Поставка бумаги", Status: tenderbase.PlannedActive,
		Customer:    tenderbase.Party{Name: "ГБУЗ ТО ОБЛАСТНАЯ БОЛЬНИЦА", INN: "6450603511"},
		Objects:     []tenderbase.PlannedObject{{OKPD2Code: "17.12.14.110", OKPD2Name: "Бумага для печати"}},
		Amounts:     []tenderbase.YearAmount{{Year: 2025, Amount: 120000}},
		MaxPrice:    120000,
		PublishYear: 2025, PublishedAt: day(1),
	}
	changed := *first
	changed.PlanVersion = 5
	changed.Status = tenderbase.PlannedChanged
	changed.MaxPrice = 150000
	changed.Amounts = []tenderbase.YearAmount{{Year: 2025, Amount: 150000}}
	changed.PublishedAt = day(4)
	notice := &tenderbase.Tender{
		PurchaseNumber: "0162200009125000312", Law: tenderbase.Law44, Version: 1, Title: "Поставка бумаги",
		Customer: tenderbase.Party{INN: "6450603511"}, PublishedAt: day(5),
		Plans: []tenderbase.PlanLink{{PositionNumber: position, IKZ: ikz}},
	}
	st := openStore(t, open)
	put(t, st, &changed, notice)
	wantPut(t, st, tenderbase.PutResult{Older: 1}, first) // an older version of the plan
	got, err := st.Get(t.Context(), tenderbase.KindPlannedPurchase, position)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if diff := gocmp.Diff(tenderbase.Record(&changed), got, sameRecord); diff != "" {
		t.Errorf("stored position (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		kind  tenderbase.Kind
		where tenderbase.Lookup
	}{
		{tenderbase.KindPlannedPurchase, tenderbase.Lookup{Field: tenderbase.LookupIKZ, Value: ikz}},
		{tenderbase.KindPlannedPurchase, tenderbase.Lookup{Field: tenderbase.LookupPlanNumber, Value: "202501622000091001"}},
		{tenderbase.KindPlannedPurchase, tenderbase.Lookup{Field: tenderbase.LookupCustomerINN, Value: "6450603511"}},
		{tenderbase.KindTender, tenderbase.Lookup{Field: tenderbase.LookupPlanPosition, Value: position}},
		{tenderbase.KindTender, tenderbase.Lookup{Field: tenderbase.LookupIKZ, Value: ikz}},
	} {
		page, err := st.Search(t.Context(), tenderbase.Search{Kind: tt.kind, Where: []tenderbase.Lookup{tt.where}})
		if err != nil || page.Total != 1 {
			t.Errorf("%s by %s %s: total %d, err %v; want 1", tt.kind, tt.where.Field, tt.where.Value, page.Total, err)
		}
	}
	page, err := st.Search(t.Context(), tenderbase.Search{Kind: tenderbase.KindPlannedPurchase, Query: mustParse(t, "бумага", query.MCP)})
	if err != nil || page.Total != 1 {
		t.Errorf("planned purchases matching бумага: total %d, err %v; want 1", page.Total, err)
	}
}
