package storetest

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// testCursors walks searches of every order page after page by the cursor
// each page gives: the pages put together are the one page that holds
// all, the last page gives no cursor, and a cursor that is not the
// search's own is refused.
func (c *corpusStore) testCursors(t *testing.T) {
	ctx := context.Background()
	supply := mustParse(t, "поставка", query.Kwords)
	for _, tc := range []struct {
		name string
		s    tenderbase.Search
	}{
		{"all", tenderbase.Search{Kind: tenderbase.KindTender}},
		{"query", tenderbase.Search{Kind: tenderbase.KindTender, Query: supply}},
		{"filters", tenderbase.Search{Kind: tenderbase.KindTender, Filters: tenderbase.Filters{Laws: []string{"44"}}}},
		{"phrase", tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, `"поставка бумаги" | "=поставка картриджей"`, query.MCP)}},
		{"price desc", tenderbase.Search{Kind: tenderbase.KindTender, Sort: tenderbase.SortPriceDesc}},
		{"price asc", tenderbase.Search{Kind: tenderbase.KindTender, Sort: tenderbase.SortPriceAsc}},
		{"deadline", tenderbase.Search{Kind: tenderbase.KindTender, Sort: tenderbase.SortDeadline, Query: supply}},
		{"relevance", tenderbase.Search{Kind: tenderbase.KindTender, Sort: tenderbase.SortRelevance, Query: supply}},
		{"world", tenderbase.Search{Kind: tenderbase.KindWorldTender}},
	} {
		want, total := searchAll(t, c.st, tc.s)
		for _, size := range []int{1, 2, 3} {
			s := tc.s
			s.PageSize = size
			var got []string
			for pages := 0; ; pages++ {
				if pages > total {
					t.Fatalf("%s, pages of %d: more pages than records", tc.name, size)
				}
				p, err := c.st.Search(ctx, s)
				if err != nil {
					t.Fatalf("%s, pages of %d, page %d: %v", tc.name, size, pages, err)
				}
				if p.Total != total {
					t.Errorf("%s, pages of %d, page %d: total %d, want %d", tc.name, size, pages, p.Total, total)
				}
				got = append(got, keysOf(p.Items)...)
				if last := len(got) >= total; last != (p.Next == "") {
					t.Fatalf("%s, pages of %d, page %d: next cursor %q with %d of %d records read", tc.name, size, pages, p.Next, len(got), total)
				}
				if p.Next == "" {
					break
				}
				s.Cursor = p.Next
			}
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("%s: pages of %d by cursor (-one page +pages):\n%s", tc.name, size, diff)
			}
		}
	}

	first, err := c.st.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, Query: supply, PageSize: 1})
	if err != nil || first.Next == "" {
		t.Fatalf("first page: %v, next %q", err, first.Next)
	}
	for name, s := range map[string]tenderbase.Search{
		"cursor and page":      {Kind: tenderbase.KindTender, Query: supply, Cursor: first.Next, Page: 1},
		"not a cursor":         {Kind: tenderbase.KindTender, Query: supply, Cursor: "page-2"},
		"another query":        {Kind: tenderbase.KindTender, Query: mustParse(t, "бумага", query.Kwords), Cursor: first.Next},
		"another sort":         {Kind: tenderbase.KindTender, Query: supply, Sort: tenderbase.SortPriceAsc, Cursor: first.Next},
		"another kind":         {Kind: tenderbase.KindContract, Query: supply, Cursor: first.Next},
		"another page size ok": {Kind: tenderbase.KindTender, Query: supply, Cursor: first.Next, PageSize: 2},
	} {
		_, err := c.st.Search(ctx, s)
		if name == "another page size ok" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: error %v, want EINVALID", name, err)
		}
	}
}
