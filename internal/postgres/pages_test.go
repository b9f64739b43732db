package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// TestPagesByDocs pages through words of every frequency, so that pages
// come from walks of one step and of several, and from reading the rids of
// every match: each page holds the matches of its place, newest first.
func TestPagesByDocs(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	const n = 700
	var recs []tenderbase.Record
	want := map[string][]string{}
	for i := range n {
		title := "альфа"
		if i%3 == 0 {
			title += " бета"
		}
		if i%97 == 0 {
			title += " гамма"
		}
		key := fmt.Sprintf("%04d", i)
		recs = append(recs, &tenderbase.Tender{
			PurchaseNumber: key, Law: tenderbase.Law44, Title: title, Region: 77,
			PublishedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i*37%n) * time.Hour),
		})
	}
	if _, err := s.Put(ctx, recs); err != nil {
		t.Fatal(err)
	}
	// Newest first: by date, as the rids are.
	order := slices.Clone(recs)
	slices.SortStableFunc(order, func(a, b tenderbase.Record) int { return b.Date().Compare(a.Date()) })
	for _, r := range order {
		title := r.(*tenderbase.Tender).Title
		for _, w := range []string{"альфа", "бета", "гамма"} {
			if slices.Contains(strings.Fields(title), w) {
				want[w] = append(want[w], r.Key())
			}
		}
	}
	for word, keys := range want {
		q, err := query.Parse(word, query.MCP)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{7, 50} {
			var got []string
			for page := 0; ; page++ {
				p, err := s.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, Query: q, Page: page, PageSize: size})
				if err != nil {
					t.Fatal(err)
				}
				if p.Total != len(keys) {
					t.Fatalf("%s page %d of %d: total %d, want %d", word, page, size, p.Total, len(keys))
				}
				if len(p.Items) == 0 {
					break
				}
				for _, r := range p.Items {
					got = append(got, r.Key())
				}
			}
			if diff := cmp.Diff(keys, got); diff != "" {
				t.Errorf("%s in pages of %d (-want +got):\n%s", word, size, diff)
			}
		}
	}
}
