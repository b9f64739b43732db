package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// searchKeys calls a search tool and returns its total and the keys of its
// page, as the debug endpoint returns them.
func searchKeys(t *testing.T, set *Set, ctx context.Context, tool, args, key string) (int, []string) {
	t.Helper()
	out, err := call(t, set, ctx, tool, args)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	var page struct {
		Total int
		Items []map[string]any
	}
	if err := json.Unmarshal(out.Value, &page); err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for _, it := range page.Items {
		keys = append(keys, it[key].(string))
	}
	return page.Total, keys
}

// TestAnalystQuestion asks "open tenders for roof repair in Moscow over 5
// mln, deadline next week, 44-FZ only, biggest first" in one call, with the
// named filters and with TenderGuru's names in the filters object, on both
// stores.
func TestAnalystQuestion(t *testing.T) {
	now := time.Now()
	from, to := storetest.AnalystDays(now)
	guru := `{"query": "ремонт кровли", "regions": [77], "deadline_from": "` + from + `", "deadline_to": "` + to + `", ` +
		`"sort": "price_desc", "filters": {"price1": "5000000", "f": 44, "actual": 1}}`
	for name, store := range bothStores(t) {
		if _, err := store.Put(context.Background(), storetest.AnalystRecords(now)); err != nil {
			t.Fatal(err)
		}
		set := New(store, nil)
		for _, args := range []string{storetest.AnalystArgs(now), guru} {
			total, got := searchKeys(t, set, asPlan(tenderbase.PlanGuru), "ru.search", args, "purchase_number")
			if diff := cmp.Diff(storetest.AnalystWant, got); diff != "" || total != len(storetest.AnalystWant) {
				t.Errorf("%s: %s: total %d (-want +got):\n%s", name, args, total, diff)
			}
		}
	}
}

// TestRenewalQuestion asks "contracts of this customer in OKPD2 class 43
// ending in the next 3 months, soonest first" in one call, on both
// stores: the contracts come in the order of their ends, each with its
// end, and the text says the order.
func TestRenewalQuestion(t *testing.T) {
	now := time.Now()
	for name, store := range bothStores(t) {
		if _, err := store.Put(context.Background(), storetest.RenewalRecords(now)); err != nil {
			t.Fatal(err)
		}
		set := New(store, nil)
		args := storetest.RenewalArgs(now)
		total, got := searchKeys(t, set, asPlan(tenderbase.PlanGuru), "contracts.search", args, "reg_number")
		if diff := cmp.Diff(storetest.RenewalWant, got); diff != "" || total != len(storetest.RenewalWant) {
			t.Errorf("%s: %s: total %d (-want +got):\n%s", name, args, total, diff)
		}
		out, err := call(t, set, asPlan(tenderbase.PlanGuru), "contracts.search", args)
		if err != nil {
			t.Fatal(err)
		}
		today := now.In(time.FixedZone("MSK", 3*60*60)).Format(time.DateOnly)
		if !strings.Contains(out.Text, "soonest end of term first") || !strings.Contains(out.Text, "ends "+today) {
			t.Errorf("%s: the text says neither the order nor the end of %s:\n%s", name, today, out.Text)
		}
	}
}

// TestListingWithoutWords lists the newest tenders of a region with no
// query, as every search tool does.
func TestListingWithoutWords(t *testing.T) {
	total, got := searchKeys(t, demoSet, asPlan(tenderbase.PlanGuru), "ru.search", `{"regions": [77]}`, "purchase_number")
	want, all := searchKeys(t, demoSet, asPlan(tenderbase.PlanGuru), "ru.search", `{"filters": {"r77": 1}, "query": ""}`, "purchase_number")
	if total == 0 || total != want || !cmp.Equal(got, all) {
		t.Errorf("regions [77]: %d %v; filters r77 with an empty query: %d %v", total, got, want, all)
	}
}

func TestFilterErrors(t *testing.T) {
	for _, c := range []struct{ tool, args, want string }{
		{"ru.search", `{"filters": {"price_from": 5}}`, `unknown filter "price_from"; the filters of ru.search are r<region code>, fz44, fz223, regions, laws (or f), price_min (or price1)`},
		{"docs.search", `{"filters": {"price1": 5}}`, `unknown filter "price1"; the filters of docs.search are r<region code>, regions, published_from (or date_start)`},
		{"ru.search", `{"deadline_from": "next week"}`, `filter "deadline_from" takes a date such as 2026-12-01, 01.12.2026 or 2026-12-01T10:00:00+03:00, got a string "next week"`},
		{"ru.search", `{"filters": {"date_start": "2026/12/01"}}`, `filter "date_start" takes a date such as 2026-12-01`},
		{"ru.search", `{"filters": {"f": 94}}`, `filter "f" takes 44 or 223, or a list of them, got a number 94`},
		{"ru.search", `{"okpd2": "строительство"}`, `filter "okpd2" takes an OKPD2 code or its beginning, such as 43.91`},
		{"ru.search", `{"customer_inn": "77"}`, `filter "customer_inn" takes an INN of 10 or 12 digits`},
		{"ru.search", `{"filters": {"customer_inn": "77"}}`, `filter "customer_inn" takes an INN of 10 or 12 digits, got a string "77"`},
		{"ru.search", `{"price_min": 7000000, "price_max": 5000000}`, `the price filters exclude each other`},
		{"ru.search", `{"sort": "relevance"}`, `sort relevance ranks the matches of a query`},
		{"docs.search", `{"query": "договор", "sort": "price_desc"}`, `argument "sort" of docs.search is one of newest, relevance, got "price_desc"`},
		{"world.search", `{"filters": {"r77": 1}}`, `filter "r77" does not apply to world.search`},
		{"contracts.search", `{"ends_from": "31.02.2026"}`, `filter "ends_from" takes a date such as 2026-12-01`},
		{"contracts.search", `{"ends_from": "2026-12-01", "ends_to": "2026-11-30"}`, `the ends filters exclude each other`},
		{"contracts.search", `{"sort": "deadline"}`, `argument "sort" of contracts.search is one of newest, price_asc, price_desc, ends, relevance`},
		{"ru.search", `{"ends_from": "2026-12-01"}`, `ends_from`},
	} {
		_, err := call(t, demoSet, asPlan(tenderbase.PlanGuru), c.tool, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: got %v, want %s", c.tool, c.args, err, c.want)
		}
	}
}

// TestSortsOfDemo checks every sort of ru.search on the demo data: the
// order holds and the total is the one of the newest first.
func TestSortsOfDemo(t *testing.T) {
	ctx := asPlan(tenderbase.PlanGuru)
	newest, _ := searchKeys(t, demoSet, ctx, "ru.search", `{"query": "поставка"}`, "purchase_number")
	for _, sort := range []string{"deadline", "price_asc", "price_desc", "relevance"} {
		out, err := call(t, demoSet, ctx, "ru.search", `{"query": "поставка", "sort": "`+sort+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Total int
			Items []struct {
				MaxPrice             float64   `json:"max_price"`
				ApplicationsDeadline time.Time `json:"applications_deadline"`
			}
		}
		if err := json.Unmarshal(out.Value, &page); err != nil {
			t.Fatal(err)
		}
		if page.Total != newest || len(page.Items) == 0 {
			t.Fatalf("sort %s: total %d, want %d", sort, page.Total, newest)
		}
		for i := 1; i < len(page.Items); i++ {
			a, b := page.Items[i-1], page.Items[i]
			if sort == "price_asc" && a.MaxPrice > b.MaxPrice || sort == "price_desc" && a.MaxPrice < b.MaxPrice {
				t.Errorf("sort %s: %v before %v", sort, a.MaxPrice, b.MaxPrice)
			}
		}
	}
}

// TestFilterOfHiddenField checks that a free caller may not select tenders
// by their participants, a field its plan does not show.
func TestFilterOfHiddenField(t *testing.T) {
	_, err := call(t, demoSet, asPlan(tenderbase.PlanFree), "ru.search", `{"participant_inn": "7714000001"}`)
	if tenderbase.ErrorCode(err) != tenderbase.EFORBIDDEN || !strings.Contains(err.Error(), "participant_inn") {
		t.Errorf("free participant_inn: %v", err)
	}
	if _, err := call(t, demoSet, asPlan(tenderbase.PlanStandard), "ru.search", `{"participant_inn": "7714000001"}`); err != nil {
		t.Errorf("standard participant_inn: %v", err)
	}
}

// TestFilterDocsMeaning checks that GET /search/syntax says what every
// named filter means, though the input schemas say some in a word or not
// at all.
func TestFilterDocsMeaning(t *testing.T) {
	for _, d := range demoSet.FilterDocs() {
		if len(d.Meaning) < 20 {
			t.Errorf("filter %s: meaning %q", d.Name, d.Meaning)
		}
	}
}
