package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

func TestPriceAlerts(t *testing.T) {
	month := func(m int) time.Time { return time.Date(2025, time.Month(m), 10, 0, 0, 0, 0, time.UTC) }
	var prices []unitPrice
	for i, p := range []float64{90, 95, 100, 100, 105, 110, 100, 98, 102, 101} {
		prices = append(prices, unitPrice{kind: "tender", key: "t", object: "Бумага", unit: "шт", price: tenderbase.Kopecks(p), date: month(1 + i%5), region: 77})
	}
	prices = append(prices,
		unitPrice{kind: "contract", key: "c1", object: "Бумага", unit: "шт", price: 50000, date: month(7), region: 50},
		unitPrice{kind: "contract", key: "c2", object: "Бумага", unit: "шт", price: 10100, date: month(7), region: 50},
		unitPrice{kind: "contract", key: "c3", object: "Бумага", unit: "шт", price: 2000, date: month(7), region: 50},
		unitPrice{kind: "tender", key: "t9", object: "Бумага", unit: "упак", price: 999900, date: month(7)}, // no earlier prices
	)
	usuals, alerts := priceAlerts(prices)
	if len(usuals) != 1 || usuals[0].Unit != "шт" || usuals[0].Prices != 10 || usuals[0].Low < 80 || usuals[0].Low > 100 || usuals[0].High < 101 || usuals[0].High > 130 {
		t.Errorf("usual ranges %+v", usuals)
	}
	var got []string
	for _, a := range alerts {
		got = append(got, a.Key+" "+strings.Fields(a.Why)[0])
	}
	if diff := cmp.Diff([]string{"c1 above", "c3 below"}, got); diff != "" {
		t.Errorf("alerts, the farthest first (-want +got):\n%s", diff)
	}

	stats := monthStats(prices)
	if stats[0].Month != "2025-07" || stats[len(stats)-1].Month != "2025-01" {
		t.Errorf("months not newest first: %+v", stats)
	}
	for _, s := range stats {
		if s.Month == "2025-07" && s.Unit == "шт" && (s.Count != 3 || s.Min != 20 || s.Median != 101 || s.Max != 500) {
			t.Errorf("July, шт: %+v", s)
		}
	}
}

// TestPriceFiguresExact checks that the medians, ranges and prices
// prices.monitor writes of prices published to the kopeck are exact to the
// kopeck: computed in floats, the median of 612.50 and 669.07 was written
// 640.7850000000001.
func TestPriceFiguresExact(t *testing.T) {
	month := func(m int) time.Time { return time.Date(2026, time.Month(m), 10, 0, 0, 0, 0, time.UTC) }
	var prices []unitPrice
	add := func(m int, roubles ...float64) {
		for _, p := range roubles {
			prices = append(prices, unitPrice{kind: "contract", key: fmt.Sprint(p), object: "Бумага офисная А4", unit: "упак",
				price: tenderbase.Kopecks(p), date: month(m), region: 77})
		}
	}
	add(9, 612.5, 669.07, 640.78, 599.99)
	add(10, 681.58, 655.1, 623.45, 648.32)
	add(11, 612.5, 669.07, 1281.57, 20.15)
	usuals, alerts := priceAlerts(prices)
	got, err := json.Marshal(map[string]any{"months": monthStats(prices), "usual": usuals, "alerts": alerts})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"alerts":[{"kind":"contract","key":"1281.57","object":"Бумага офисная А4","price":1281.57,"unit":"упак","date":"2026-11-10T00:00:00Z","region":77,` +
		`"why":"above the usual range 563.89-715.41 of prices per упак"},` +
		`{"kind":"contract","key":"20.15","object":"Бумага офисная А4","price":20.15,"unit":"упак","date":"2026-11-10T00:00:00Z","region":77,` +
		`"why":"below the usual range 563.89-715.41 of prices per упак"}],` +
		`"months":[{"month":"2026-11","region":77,"unit":"упак","count":4,"min":20.15,"median":640.79,"max":1281.57},` +
		`{"month":"2026-10","region":77,"unit":"упак","count":4,"min":623.45,"median":651.71,"max":681.58},` +
		`{"month":"2026-09","region":77,"unit":"упак","count":4,"min":599.99,"median":626.64,"max":669.07}],` +
		`"usual":[{"unit":"упак","prices":8,"low":563.89,"high":715.41}]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("figures (-want +got):\n%s", diff)
	}
}

func TestPricesMonitorArguments(t *testing.T) {
	for args, want := range map[string]string{
		`{}`:                                   "give okpd2, query or both",
		`{"okpd2": "26.20", "regions": [100]}`: "regions",
		`{"query": "(бумага"}`:                 "",
	} {
		_, err := call(t, demoSet, asPlan(tenderbase.PlanStandard), "prices.monitor", args)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %q", args, err, want)
		}
	}
	out, err := call(t, demoSet, asPlan(tenderbase.PlanGuru), "prices.monitor", `{"query": "ноутбук | компьютер"}`)
	if err != nil || !strings.Contains(string(out.Value), `"prices"`) {
		t.Errorf("by words: %v %s", err, out.Value)
	}
}
