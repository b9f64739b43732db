package tools

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestAggregateFiltersListGroups checks what an aggregate tells a caller
// to do next: the search with a group's filter added finds the group's
// records, as many as the group counts.
func TestAggregateFiltersListGroups(t *testing.T) {
	ctx := asPlan(tenderbase.PlanGuru)
	for _, c := range []struct {
		resource, by string
		search       map[string]any
	}{
		{"ru", "region", nil},
		{"ru", "customer", map[string]any{"query": "поставка"}},
		{"ru", "law", nil},
		{"ru", "organizer", map[string]any{"query": "поставка"}},
		{"ru", "month", nil},
		{"ru", "quarter", map[string]any{"regions": []int{77, 50}}},
		{"contracts", "supplier", nil},
		{"contracts", "region", map[string]any{"laws": []int{44}}},
	} {
		args, _ := json.Marshal(map[string]any{"resource": c.resource, "search": c.search, "by": c.by, "top": 100})
		var got aggregateResult
		out, err := call(t, demoSet, ctx, "analytics.aggregate", string(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if err := json.Unmarshal(out.Value, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Groups) < 2 {
			t.Fatalf("%s: %d groups; the demo has more", args, len(got.Groups))
		}
		listed := 0
		for _, g := range got.Groups {
			if g.Filter == nil {
				continue
			}
			search := map[string]any{}
			maps.Copy(search, c.search)
			maps.Copy(search, g.Filter)
			body, _ := json.Marshal(search)
			_, page := mustCall(t, ctx, c.resource+".search", string(body))
			if total := int(page["total"].(float64)); total != g.Figures.Count {
				t.Errorf("%s, group %s: %s.search %s finds %d, the group counts %d", args, g.Key, c.resource, body, total, g.Figures.Count)
			}
			listed++
		}
		if listed == 0 {
			t.Errorf("%s: no group has a filter", args)
		}
	}
}

// TestAggregateRefusals checks the plans and the arguments an aggregate
// refuses, each with what to do instead.
func TestAggregateRefusals(t *testing.T) {
	for _, c := range []struct {
		plan tenderbase.Plan
		args string
		code string
		says string
	}{
		{tenderbase.PlanFree, `{"resource": "ru", "by": "region"}`, tenderbase.EFORBIDDEN, "standard, guru and corporate"},
		{tenderbase.PlanStandard, `{"resource": "ru", "by": "region", "top": 21}`, "argument", "at most 20 groups"},
		{tenderbase.PlanGuru, `{"resource": "fas", "by": "region"}`, "argument", "ru, contracts"},
		{tenderbase.PlanGuru, `{"resource": "ru", "by": "supplier"}`, tenderbase.EINVALID, "group contracts"},
		{tenderbase.PlanGuru, `{"resource": "ru", "by": "colour"}`, tenderbase.EINVALID, "colour"},
		{tenderbase.PlanGuru, `{"resource": "contracts", "search": {"state": "active"}, "by": "region"}`, tenderbase.EINVALID, "state"},
		{tenderbase.PlanGuru, `{"resource": "ru", "search": {"page": 2}, "by": "region"}`, tenderbase.EINVALID, "page"},
		{tenderbase.PlanGuru, `{"resource": "ru", "by": "region", "level": 4}`, tenderbase.EINVALID, "okpd2"},
	} {
		_, err := call(t, demoSet, asPlan(c.plan), "analytics.aggregate", c.args)
		if errorCode(err) != c.code || err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s %s: got %v (%s), want %s saying %q", c.plan, c.args, err, errorCode(err), c.code, c.says)
		}
	}
}
