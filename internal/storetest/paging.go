package storetest

import (
	"context"
	"fmt"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// allTenders is every fixture tender, newest first.
var allTenders = []string{tGuard, tSyringe, tOffice, tCartridge, tSchool, tToys, tRoad, tMedicine, tCleaning, tPaper}

// testOrder checks that a search without a query lists every record of its
// kind, newest first.
func (c *corpusStore) testOrder(t *testing.T) {
	for _, tc := range []struct {
		kind tenderbase.Kind
		want []string
	}{
		{tenderbase.KindTender, allTenders},
		{tenderbase.KindDoc, []string{dDraft, dEstimate, dSpec}},
		{tenderbase.KindContract, []string{cRoad, cPaper}}, // cRoad dated by publication: no signing date
		{tenderbase.KindWorldTender, []string{wRoad, wPaper, wUltra, wPlant}},
		{tenderbase.KindLot, []string{lCar, lRoom}},
		{tenderbase.KindComplaint, []string{kToner, kRoad}},
		{tenderbase.KindFASCase, []string{fCartel, fCase}},
		{tenderbase.KindOrg, []string{oIvanov, oKanc}},
		{tenderbase.KindComplaintResult, []string{rRoad}},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			c.check(t, tenderbase.Search{Kind: tc.kind}, tc.want...)
		})
	}
}

// testPaging walks every page with small page sizes and checks totals,
// the echo of the paging, and the errors of bad paging.
func (c *corpusStore) testPaging(t *testing.T) {
	ctx := context.Background()
	supply := mustParse(t, "поставка", query.Kwords)
	for _, tc := range []struct {
		name string
		s    tenderbase.Search
		want []string
	}{
		{"all", tenderbase.Search{Kind: tenderbase.KindTender}, allTenders},
		{"query", tenderbase.Search{Kind: tenderbase.KindTender, Query: supply}, []string{tSyringe, tCartridge, tToys, tMedicine, tPaper}},
	} {
		for _, size := range []int{1, 2, 3, 4, 5, 10, 11} {
			s := tc.s
			s.PageSize = size
			var got []string
			for s.Page = 0; s.Page*size <= len(tc.want); s.Page++ {
				p, err := c.st.Search(ctx, s)
				if err != nil {
					t.Fatalf("%s: Search page %d of size %d: %v", tc.name, s.Page, size, err)
				}
				wantItems := min(size, max(0, len(tc.want)-s.Page*size))
				if p.Total != len(tc.want) || len(p.Items) != wantItems || p.Page != s.Page || p.PageSize != size {
					t.Errorf("%s: page %d of size %d: total %d, %d items, page %d, size %d; want total %d, %d items",
						tc.name, s.Page, size, p.Total, len(p.Items), p.Page, p.PageSize, len(tc.want), wantItems)
				}
				got = append(got, keysOf(p.Items)...)
			}
			if diff := gocmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: pages of size %d put together (-want +got):\n%s", tc.name, size, diff)
			}
		}
	}
	t.Run("default page size", func(t *testing.T) {
		p, err := c.st.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender})
		if err != nil {
			t.Fatal(err)
		}
		if p.PageSize != tenderbase.DefaultPageSize || p.Total != len(allTenders) || len(p.Items) != len(allTenders) {
			t.Errorf("page size %d, total %d, %d items; want %d, %d, %d",
				p.PageSize, p.Total, len(p.Items), tenderbase.DefaultPageSize, len(allTenders), len(allTenders))
		}
	})
	t.Run("far past the end", func(t *testing.T) {
		p, err := c.st.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, Query: supply, Page: 1000, PageSize: 7})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != 0 || p.Total != 5 {
			t.Errorf("page 1000: %d items, total %d; want 0 items, total 5", len(p.Items), p.Total)
		}
	})
	t.Run("no match", func(t *testing.T) {
		p, err := c.st.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, "экскаватор", query.MCP)})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != 0 || p.Total != 0 {
			t.Errorf("%d items, total %d; want none", len(p.Items), p.Total)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		for _, s := range []tenderbase.Search{
			{Kind: tenderbase.KindTender, Page: -1},
			{Kind: tenderbase.KindTender, PageSize: -1},
			{Kind: tenderbase.KindTender, PageSize: tenderbase.MaxPageSize + 1},
			{Kind: "auction"},
		} {
			_, err := c.st.Search(ctx, s)
			wantCode(t, fmt.Sprintf("Search %s page %d size %d", describe(s), s.Page, s.PageSize), err, tenderbase.EINVALID)
		}
	})
}
