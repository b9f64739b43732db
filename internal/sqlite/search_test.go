package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// q parses a query in the MCP syntax.
func q(t *testing.T, text string) tenderbase.Query {
	t.Helper()
	parsed, err := query.Parse(text, query.MCP)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return parsed
}

func search(t *testing.T, s *Store, sr tenderbase.Search) tenderbase.Page {
	t.Helper()
	page, err := s.Search(context.Background(), sr)
	if err != nil {
		t.Fatalf("Search(%+v): %v", sr, err)
	}
	return page
}

func searchTotal(t *testing.T, s *Store, sr tenderbase.Search) int {
	t.Helper()
	return search(t, s, sr).Total
}

// count returns the number of tenders a query finds.
func count(t *testing.T, s *Store, text string) int {
	t.Helper()
	return searchTotal(t, s, tenderbase.Search{Kind: tenderbase.KindTender, Query: q(t, text)})
}

// keys returns the keys of a page's records in order.
func keys(p tenderbase.Page) []string {
	out := []string{}
	for _, r := range p.Items {
		out = append(out, r.Key())
	}
	return out
}

// corpus stores a few tenders that the search tests share.
func corpus(t *testing.T) *Store {
	t.Helper()
	s := openTest(t)
	t5 := tender("5", 1, "Поставка бумаги для офиса", 5)
	t5.Region, t5.Law = 50, tenderbase.Law223
	t6 := tender("6", 1, "Оказание услуг по уборке", 6)
	t6.Customer = tenderbase.Party{INN: "5000000000", Name: "Поставки бумаги"}
	put(t, s,
		tender("1", 1, "Поставка бумаги", 1),
		tender("2", 1, "Поставки медицинской бумаги", 2),
		tender("3", 1, "Ремонт дорог, поставка асфальта", 3),
		tender("4", 1, "Бумага для поставки", 4),
		t5, t6,
	)
	return s
}

func TestSearchQueries(t *testing.T) {
	s := corpus(t)
	tests := []struct {
		query string
		want  []string
	}{
		{"поставка", []string{"6", "5", "4", "3", "2", "1"}},
		{"=поставки", []string{"6", "4", "2"}},
		{`"поставка бумаги"`, []string{"6", "5", "1"}},
		{`"=поставка бумаги"`, []string{"5", "1"}},                // mixed phrase
		{`"=поставки бумаги"`, []string{"6"}},                     // mixed: 2 and 4 have both words, not as a phrase
		{`"=поставки =бумаги"`, []string{"6"}},                    // phrase within the customer's name
		{`"уборке поставки"`, []string{}},                         // never across the title and the customer
		{`"=бумаги =гбу"`, []string{}},                            // nor with exact forms
		{`"=уборке поставки"`, []string{}},                        // nor when checked in Go
		{"поставка & !ремонт", []string{"6", "5", "4", "2", "1"}}, // NOT
		{`поставка !"=поставка бумаги"`, []string{"6", "4", "3", "2"}},
		{`поставка !"=поставки бумаги"`, []string{"5", "4", "3", "2", "1"}}, // same SQL as the one before
		{"асфальт | уборка", []string{"6", "3"}},
		{"бумага & поставка", []string{"6", "5", "4", "2", "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			page := search(t, s, tenderbase.Search{Kind: tenderbase.KindTender, Query: q(t, tt.query)})
			if diff := cmp.Diff(tt.want, keys(page)); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
			if page.Total != len(tt.want) {
				t.Errorf("total %d, want %d", page.Total, len(tt.want))
			}
		})
	}
}

func TestSearchFiltersAndWhere(t *testing.T) {
	s := corpus(t)
	tests := []struct {
		name string
		s    tenderbase.Search
		want []string
	}{
		{"all", tenderbase.Search{}, []string{"6", "5", "4", "3", "2", "1"}},
		{"region", tenderbase.Search{Filters: tenderbase.Filters{Regions: []int{50}}}, []string{"5"}},
		{"regions or", tenderbase.Search{Filters: tenderbase.Filters{Regions: []int{50, 77}}}, []string{"6", "5", "4", "3", "2", "1"}},
		{"region and law", tenderbase.Search{Filters: tenderbase.Filters{Regions: []int{77}, Laws: []string{"223"}}}, []string{}},
		{"law", tenderbase.Search{Filters: tenderbase.Filters{Laws: []string{"44"}}}, []string{"6", "4", "3", "2", "1"}},
		{"query and filter", tenderbase.Search{Query: q(t, "бумага"), Filters: tenderbase.Filters{Laws: []string{"44"}}}, []string{"6", "4", "2", "1"}},
		{"where", tenderbase.Search{Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7700000000"}}}, []string{"5", "4", "3", "2", "1"}},
		{"where twice", tenderbase.Search{Where: []tenderbase.Lookup{
			{Field: tenderbase.LookupCustomerINN, Value: "7700000000"}, {Field: tenderbase.LookupPurchaseNumber, Value: "3"}}}, []string{"3"}},
		{"where and query", tenderbase.Search{Query: q(t, "бумага"), Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7700000000"}}},
			[]string{"5", "4", "2", "1"}},
		{"where, query and filter", tenderbase.Search{Query: q(t, "бумага"), Filters: tenderbase.Filters{Regions: []int{77}},
			Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7700000000"}}}, []string{"4", "2", "1"}},
		{"where and mixed phrase", tenderbase.Search{Query: q(t, `"=поставка бумаги"`),
			Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7700000000"}}}, []string{"5", "1"}},
		{"unknown where", tenderbase.Search{Where: []tenderbase.Lookup{{Field: "nope", Value: "1"}}}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.Kind = tenderbase.KindTender
			page := search(t, s, tt.s)
			if diff := cmp.Diff(tt.want, keys(page)); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
			if page.Total != len(tt.want) {
				t.Errorf("total %d, want %d", page.Total, len(tt.want))
			}
		})
	}
}

func TestSearchPaging(t *testing.T) {
	s := corpus(t)
	tests := []struct {
		name  string
		query string
		page  int
		size  int
		want  []string
	}{
		{"first", "", 0, 2, []string{"6", "5"}},
		{"second", "", 1, 2, []string{"4", "3"}},
		{"last partial", "", 1, 4, []string{"2", "1"}},
		{"past the end", "", 9, 4, []string{}},
		{"huge page", "", 1 << 60, 1000, []string{}},
		{"query second page", "поставка", 1, 4, []string{"2", "1"}},
		{"checked second page", `"=поставка бумаги"`, 1, 1, []string{"1"}},
		{"checked past the end", `"=поставка бумаги"`, 2, 1, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr := tenderbase.Search{Kind: tenderbase.KindTender, Page: tt.page, PageSize: tt.size}
			if tt.query != "" {
				sr.Query = q(t, tt.query)
			}
			page := search(t, s, sr)
			if diff := cmp.Diff(tt.want, keys(page)); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
			if page.Page != tt.page || page.PageSize != tt.size {
				t.Errorf("page %d size %d, want %d %d", page.Page, page.PageSize, tt.page, tt.size)
			}
		})
	}
}

func TestSearchInvalid(t *testing.T) {
	s := corpus(t)
	tests := []struct {
		name string
		s    tenderbase.Search
	}{
		{"unknown kind", tenderbase.Search{Kind: "nope"}},
		{"query on orgs", tenderbase.Search{Kind: tenderbase.KindOrg, Query: q(t, "школа")}},
		{"negative page", tenderbase.Search{Kind: tenderbase.KindTender, Page: -1}},
		{"page too big", tenderbase.Search{Kind: tenderbase.KindTender, PageSize: tenderbase.MaxPageSize + 1}},
		{"lone exclusion", tenderbase.Search{Kind: tenderbase.KindTender, Query: tenderbase.NotQuery{Operand: tenderbase.TermQuery{Form: "a", Stem: "a"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Search(context.Background(), tt.s)
			if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
				t.Errorf("got %v, want EINVALID", err)
			}
		})
	}
}

// TestOrder checks newest first, later stored first within one second, and
// that a record whose date changes moves, and its lookups with it.
func TestOrder(t *testing.T) {
	s := openTest(t)
	put(t, s, tender("a", 1, "x", 2), tender("b", 1, "x", 2), tender("c", 1, "x", 1))
	put(t, s, tender("d", 1, "x", 2))
	all := tenderbase.Search{Kind: tenderbase.KindTender}
	if diff := cmp.Diff([]string{"d", "b", "a", "c"}, keys(search(t, s, all))); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	moved := tender("c", 2, "x", 3)
	moved.Customer.INN = "1111111111"
	put(t, s, moved)
	if diff := cmp.Diff([]string{"c", "d", "b", "a"}, keys(search(t, s, all))); diff != "" {
		t.Errorf("after moving c (-want +got):\n%s", diff)
	}
	for _, inn := range []string{"7700000000", "1111111111"} {
		page := search(t, s, tenderbase.Search{Kind: tenderbase.KindTender, Query: q(t, "x"),
			Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: inn}, {Field: tenderbase.LookupPurchaseNumber, Value: "c"}}})
		if diff := cmp.Diff([]string{"c"}, keys(page)); diff != "" {
			t.Errorf("lookup %s of any version (-want +got):\n%s", inn, diff)
		}
		if v := page.Items[0].Revision(); v != 2 {
			t.Errorf("lookup %s: got version %d, want the current 2", inn, v)
		}
	}
	if n := count(t, s, "x"); n != 4 {
		t.Errorf("after the move %d records match, want 4", n)
	}
}

func TestOtherKinds(t *testing.T) {
	s := openTest(t)
	put(t, s,
		&tenderbase.Org{INN: "7701234567", Name: "ООО Ромашка", Region: 77, UpdatedAt: day(1, 0)},
		&tenderbase.Org{INN: "5001234567", Name: "ООО Лютик", Region: 50, UpdatedAt: day(2, 0)},
		&tenderbase.WorldTender{ID: "ted:1", Source: "ted", Country: 276, Title: "Supply of paper", PublishedAt: day(1, 0)},
	)
	orgs := search(t, s, tenderbase.Search{Kind: tenderbase.KindOrg, Filters: tenderbase.Filters{Regions: []int{77}}})
	if diff := cmp.Diff([]string{"7701234567"}, keys(orgs)); diff != "" {
		t.Errorf("orgs in region 77 (-want +got):\n%s", diff)
	}
	world := search(t, s, tenderbase.Search{Kind: tenderbase.KindWorldTender, Query: q(t, "papers"), Filters: tenderbase.Filters{Countries: []int{276}}})
	if diff := cmp.Diff([]string{"ted:1"}, keys(world)); diff != "" {
		t.Errorf("world tenders (-want +got):\n%s", diff)
	}
}

// TestMaxTokens checks that words past textproc.MaxTokens are not indexed, and that
// the check of hits in Go cuts at the same word.
func TestMaxTokens(t *testing.T) {
	s := openTest(t)
	long := tender("1", 1, "", 1)
	long.PurchaseNumber = "1"
	long.Customer = tenderbase.Party{}
	long.PlacingMethod = ""
	words := make([]byte, 0, textproc.MaxTokens*2)
	for range textproc.MaxTokens - 2 { // the purchase number is the first word
		words = append(words, "a "...)
	}
	long.Title = string(words) + "последнее слово вне"
	put(t, s, long)
	if n := count(t, s, "последнее"); n != 1 {
		t.Errorf("the last word within the limit: %d hits, want 1", n)
	}
	if n := count(t, s, "слово"); n != 0 {
		t.Errorf("a word past the limit: %d hits, want 0", n)
	}
	if n := count(t, s, `"=последнее слово"`); n != 0 {
		t.Errorf("a mixed phrase reaching past the limit: %d hits, want 0", n)
	}
}

// TestTotalsFollowPuts checks that a cached total is not served after a Put
// changed it, for plain and for checked searches.
func TestTotalsFollowPuts(t *testing.T) {
	for _, text := range []string{"бумага", `"=поставка бумаги"`} {
		s := openTest(t)
		sr := tenderbase.Search{Kind: tenderbase.KindTender, Query: q(t, text), PageSize: 1}
		for i := range 3 {
			put(t, s, tender(fmt.Sprintf("%s-%d", text, i), 1, "Поставка бумаги", 1))
			for page := range 2 { // the second page takes the total from the cache
				sr.Page = page
				if got := searchTotal(t, s, sr); got != i+1 {
					t.Errorf("%s after %d Puts, page %d: total %d", text, i+1, page, got)
				}
			}
		}
	}
}

// TestWherePlansAgree checks that a search with lookups finds the same
// records whether the full-text index or the lookup drives it.
func TestWherePlansAgree(t *testing.T) {
	s := corpus(t)
	inn := []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7700000000"}}
	for _, sr := range []tenderbase.Search{
		{Query: q(t, "бумага"), Where: inn},
		{Query: q(t, `"=поставка бумаги"`), Where: inn},
		{Query: q(t, "поставка !ремонт"), Where: inn, Filters: tenderbase.Filters{Regions: []int{77}}},
		{Filters: tenderbase.Filters{Laws: []string{"223"}}, Where: inn},
	} {
		sr.Kind = tenderbase.KindTender
		var got [2][]string
		for i, few := range []bool{false, true} {
			sel, err := plan(sr, few)
			if err != nil {
				t.Fatal(err)
			}
			found, _, err := s.search(context.Background(), sel, false)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = keys(found)
			if found.Total != len(found.Items) {
				t.Errorf("%+v few=%v: total %d, %d items", sr, few, found.Total, len(found.Items))
			}
		}
		if diff := cmp.Diff(got[0], got[1]); diff != "" {
			t.Errorf("%+v: index-driven vs lookup-driven (-index +lookup):\n%s", sr, diff)
		}
		if len(got[0]) == 0 {
			t.Errorf("%+v finds nothing; the test proves little", sr)
		}
	}
}
