package mailing_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/benchcorpus"
	"github.com/tenderbase/tenderbase/internal/email"
	"github.com/tenderbase/tenderbase/internal/mailing"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// countingMailer takes every message and counts it.
type countingMailer struct{ n atomic.Int64 }

func (m *countingMailer) Send(context.Context, email.Message) error { m.n.Add(1); return nil }

// BenchmarkRound times a round of the mailings as a server runs it: 100
// subscriptions, each a word of the corpus's titles in a region, over
// 1,000 tenders stored since the last round, in a store that holds 20,000
// before them, on each store. The round decides every mailing, through the
// store's search, and sends it to a mailer that takes it at once, so that
// the figure is the service's own work.
func BenchmarkRound(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		st, err := sqlite.Open(context.Background(), b.TempDir()+"/bench.db", logger)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchmarkRound(b, st)
	})
	b.Run("postgres", func(b *testing.B) {
		st, err := postgres.Open(context.Background(), pgtest.URL(b), logger)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		benchmarkRound(b, st)
	})
}

func benchmarkRound(b *testing.B, st store) {
	const base, fresh, subscriptions = 20_000, 1_000, 100
	ctx := context.Background()
	var all []*tenderbase.Tender
	for t := range benchcorpus.Tenders(1, base+fresh*(b.N+1)) {
		all = append(all, t)
	}
	put := func(ts []*tenderbase.Tender) {
		recs := make([]tenderbase.Record, len(ts))
		for i, t := range ts {
			recs[i] = t
		}
		for start := 0; start < len(recs); start += 5000 {
			if _, err := st.Put(ctx, recs[start:min(start+5000, len(recs))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	put(all[:base])
	if _, _, err := st.CreateKey(ctx, tenderbase.Key{Name: "bench", Account: "acct-bench", Plan: tenderbase.PlanCorporate}); err != nil {
		b.Fatal(err)
	}
	// The words people watch: the longest word of a title, from many titles.
	var words []string
	for _, t := range all[:base] {
		w := longest(t.Title)
		if utf8.RuneCountInString(w) >= 6 && !slices.Contains(words, w) {
			words = append(words, w)
		}
		if len(words) == subscriptions {
			break
		}
	}
	for i, w := range words {
		_, err := st.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-bench", Name: fmt.Sprint("s", i), Resource: "ru",
			Search: []byte(fmt.Sprintf(`{"query": %q, "regions": [%d]}`, w, 1+i%90)), Recipients: []string{"buyer@example.com"}}, tenderbase.PlanCorporate)
		if err != nil {
			b.Fatal(err)
		}
	}
	mail := &countingMailer{}
	svc := mailing.New(st, tools.New(st, logger), mail, nil, mailing.Config{}, logger)
	if err := svc.Round(ctx); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		batch := all[base+i*fresh : base+(i+1)*fresh]
		for j, t := range batch {
			// What comes in a round was published in the last day.
			t.PublishedAt = now.Add(-time.Duration(j) * time.Minute)
		}
		put(batch)
		b.StartTimer()
		if err := svc.Round(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(mail.n.Load())/float64(b.N), "mails/round")
}

func longest(title string) string {
	best := ""
	for _, w := range strings.FieldsFunc(title, func(r rune) bool { return !(r >= 0x400 && r <= 0x4ff) }) {
		if utf8.RuneCountInString(w) > utf8.RuneCountInString(best) {
			best = w
		}
	}
	return strings.ToLower(best)
}
