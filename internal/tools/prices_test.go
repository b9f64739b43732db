package tools

import (
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
		prices = append(prices, unitPrice{kind: "tender", key: "t", object: "Бумага", unit: "шт", price: p, date: month(1 + i%5), region: 77})
	}
	prices = append(prices,
		unitPrice{kind: "contract", key: "c1", object: "Бумага", unit: "шт", price: 500, date: month(7), region: 50},
		unitPrice{kind: "contract", key: "c2", object: "Бумага", unit: "шт", price: 101, date: month(7), region: 50},
		unitPrice{kind: "contract", key: "c3", object: "Бумага", unit: "шт", price: 20, date: month(7), region: 50},
		unitPrice{kind: "tender", key: "t9", object: "Бумага", unit: "упак", price: 9999, date: month(7)}, // no earlier prices
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
