package tools

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestCursorPages walks a search page after page by next_cursor: the pages
// are those of page numbers, the free plan's row cap ends the walk where it
// ends pages by number, and a cursor that is not one is refused.
func TestCursorPages(t *testing.T) {
	ids := func(v map[string]any) []string {
		var out []string
		for _, it := range v["items"].([]any) {
			out = append(out, fmt.Sprint(it.(map[string]any)["purchase_number"]))
		}
		return out
	}
	for _, plan := range []tenderbase.Plan{tenderbase.PlanCorporate, tenderbase.PlanFree} {
		ctx := asPlan(plan)
		var byPage []string
		var total float64
		for page := 0; ; page++ {
			_, v := mustCall(t, ctx, "ru.search", fmt.Sprintf(`{"page": %d}`, page))
			total = v["total"].(float64)
			got := ids(v)
			if len(got) == 0 {
				break
			}
			byPage = append(byPage, got...)
		}
		var byCursor []string
		args := `{}`
		for pages := 0; ; pages++ {
			if pages > int(total) {
				t.Fatalf("%s: more pages than records", plan)
			}
			_, v := mustCall(t, ctx, "ru.search", args)
			byCursor = append(byCursor, ids(v)...)
			if want := pages; int(v["page"].(float64)) != want {
				t.Errorf("%s: page %v by cursor, want %d", plan, v["page"], want)
			}
			next, _ := v["next_cursor"].(string)
			if next == "" {
				break
			}
			args = fmt.Sprintf(`{"cursor": %q}`, next)
		}
		if !slices.Equal(byPage, byCursor) {
			t.Errorf("%s: %d records by page, %d by cursor, or in another order", plan, len(byPage), len(byCursor))
		}
		if plan == tenderbase.PlanFree && len(byCursor) != tenderbase.Plans[plan].RowCap {
			t.Errorf("free plan: %d records by cursor, want the row cap %d", len(byCursor), tenderbase.Plans[plan].RowCap)
		}
	}
	ctx := asPlan(tenderbase.PlanCorporate)
	_, first := mustCall(t, ctx, "ru.search", `{"query": "поставка"}`)
	next := first["next_cursor"].(string)
	for args, want := range map[string]string{
		fmt.Sprintf(`{"query": "поставка", "page": 1, "cursor": %q}`, next): "argument",
		`{"query": "поставка", "cursor": "2"}`:                              "argument",
		`{"query": "поставка", "cursor": "20.abc"}`:                         "invalid",
		fmt.Sprintf(`{"query": "ремонт", "cursor": %q}`, next):              "invalid",
	} {
		_, err := call(t, demoSet, ctx, "ru.search", args)
		if got := errorCode(err); got != want {
			t.Errorf("ru.search %s: error %v (%s), want %s", args, err, got, want)
		}
	}
}
