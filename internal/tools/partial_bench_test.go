package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/benchcorpus"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// BenchmarkPartial times ru.search over 10,000 generated tenders on each
// store for a query of five words of one title, whose strict set is
// shorter than a page: strict (exact: true) and with its partial matches,
// reporting the strict total as total/op and the partial matches as
// partial/op.
func BenchmarkPartial(b *testing.B) {
	const n = 10_000
	var recs []tenderbase.Record
	for t := range benchcorpus.Tenders(1, n) {
		recs = append(recs, t)
	}
	b.Run("sqlite", func(b *testing.B) {
		st, err := sqlite.Open(context.Background(), b.TempDir()+"/bench.db", nil)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchmarkPartial(b, st, recs)
	})
	b.Run("postgres", func(b *testing.B) {
		st, err := postgres.Open(context.Background(), pgtest.URL(b), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchmarkPartial(b, st, recs)
	})
}

func benchmarkPartial(b *testing.B, st tenderbase.Store, recs []tenderbase.Record) {
	ctx := context.Background()
	for start := 0; start < len(recs); start += 5000 {
		if _, err := st.Put(ctx, recs[start:min(start+5000, len(recs))]); err != nil {
			b.Fatal(err)
		}
	}
	text := shortQuery(b, st, recs)
	set := New(st, nil)
	tool, _ := set.Lookup("ru.search")
	ctx = WithForm(asPlan(tenderbase.PlanCorporate), BriefForm)
	for _, strict := range []bool{true, false} {
		name := map[bool]string{true: "strict", false: "partial"}[strict]
		args := json.RawMessage(fmt.Sprintf(`{"query": %q, "exact": %t}`, text, strict))
		b.Run(name, func(b *testing.B) {
			var total, shown int
			for b.Loop() {
				out, err := tool.Call(ctx, args)
				if err != nil {
					b.Fatal(err)
				}
				var page struct {
					Total   int
					Partial []json.RawMessage
				}
				if err := json.Unmarshal(out.Summary, &page); err != nil {
					b.Fatal(err)
				}
				total, shown = page.Total, len(page.Partial)
			}
			b.ReportMetric(float64(total), "total/op")
			b.ReportMetric(float64(shown), "partial/op")
		})
	}
}

// shortQuery returns the first query of four long words of a title of
// recs whose strict set is shorter than a page.
func shortQuery(b *testing.B, st tenderbase.Store, recs []tenderbase.Record) string {
	for _, r := range recs {
		words := longWords(r.(*tenderbase.Tender).Title, 4)
		if len(words) < 4 {
			continue
		}
		text := strings.Join(words, " ")
		q, err := query.Parse(text, query.MCP)
		if err != nil {
			continue
		}
		p, err := st.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindTender, Query: q, PageSize: 1})
		if err != nil {
			b.Fatal(err)
		}
		if p.Total < tenderbase.DefaultPageSize {
			return text
		}
	}
	b.Fatal("no title of four long words finds fewer than a page")
	return ""
}

// longWords returns the first n words of at least 6 letters of a title.
func longWords(title string, n int) []string {
	var out []string
	for _, w := range strings.Fields(title) {
		w = strings.Trim(w, ",.;:«»()\"")
		if utf8.RuneCountInString(w) >= 6 && len(out) < n {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}
