package tools

import (
	"context"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/benchcorpus"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// BenchmarkFlags times ru.flags of a demo tender (a single bid, an upheld
// complaint, one winner with its card) on each store holding the demo and
// 10,000 generated tenders: its reads are lookups by the purchase number
// and the winner's INN, whatever the store holds besides.
func BenchmarkFlags(b *testing.B) {
	recs, err := demo.Records()
	if err != nil {
		b.Fatal(err)
	}
	for t := range benchcorpus.Tenders(1, 10_000) {
		recs = append(recs, t)
	}
	open := map[string]func(b *testing.B) tenderbase.Store{
		"sqlite": func(b *testing.B) tenderbase.Store {
			st, err := sqlite.Open(context.Background(), b.TempDir()+"/flags.db", nil)
			if err != nil {
				b.Fatal(err)
			}
			return st
		},
		"postgres": func(b *testing.B) tenderbase.Store {
			st, err := postgres.Open(context.Background(), pgtest.URL(b), nil)
			if err != nil {
				b.Fatal(err)
			}
			return st
		},
	}
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			st := open[name](b)
			defer st.Close()
			if _, err := st.Put(context.Background(), recs); err != nil {
				b.Fatal(err)
			}
			set, ctx := New(st, nil), asPlan(tenderbase.PlanStandard)
			tool, _ := set.Lookup("ru.flags")
			args := []byte(`{"tend_num": "0362064093423626283"}`)
			for b.Loop() {
				if _, err := tool.Call(ctx, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
