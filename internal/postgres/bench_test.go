package postgres

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// corpusSize is the number of tenders the search benchmarks run on.
var corpusSize = flag.Int("corpus", 50_000, "tenders in the benchmark corpus")

// putBatch is how many records one Put of the benchmarks stores, as an
// import would.
const putBatch = 1000

// corpusSeed seeds the synthetic corpus of internal/demo.
const corpusSeed = 2026

// built is the benchmark corpus, stored once per run of the benchmarks and
// shared by all of them, in a schema dropped when the run ends.
var built struct {
	once  sync.Once
	store *Store
	drop  func() error
	rate  float64 // docs/s of the build
	inn   string  // a customer INN of the corpus, for the lookup searches
	err   error
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if built.store != nil {
		built.store.Close()
	}
	if built.drop != nil {
		if err := built.drop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(code)
}

// benchStore returns the store holding the benchmark corpus, building and
// analyzing it on first use.
func benchStore(b *testing.B) *Store {
	b.Helper()
	built.once.Do(func() {
		var u string
		if u, built.drop, built.err = pgtest.NewSchema(); built.err != nil {
			return
		}
		ctx := context.Background()
		if built.store, built.err = Open(ctx, u, nil); built.err != nil {
			return
		}
		start := time.Now()
		built.err = putCorpus(ctx, built.store, *corpusSize)
		built.rate = float64(*corpusSize) / time.Since(start).Seconds()
		fmt.Fprintf(os.Stderr, "built %d tenders in %s: %.0f docs/s\n", *corpusSize, time.Since(start).Round(time.Millisecond), built.rate)
		if built.err == nil {
			start = time.Now()
			built.err = built.store.Optimize(ctx)
			fmt.Fprintf(os.Stderr, "optimized in %s\n", time.Since(start).Round(time.Millisecond))
		}
		var records, index int64
		if built.err == nil {
			built.err = built.store.pool.QueryRow(ctx, `SELECT pg_total_relation_size('records'),
				(SELECT coalesce(sum(pg_relation_size(indexrelid)), 0) FROM pg_index WHERE indrelid = 'records'::regclass)`).Scan(&records, &index)
			fmt.Fprintf(os.Stderr, "records table %d MB, of which its indexes %d MB\n", records>>20, index>>20)
		}
		for t := range demo.Tenders(corpusSeed, 1) {
			built.inn = t.Customer.INN
		}
	})
	if errors.Is(built.err, pgtest.ErrUnreachable) {
		b.Skip(built.err)
	}
	if built.err != nil {
		b.Fatalf("build corpus: %v", built.err)
	}
	return built.store
}

// putCorpus stores n synthetic tenders in batches of putBatch.
func putCorpus(ctx context.Context, s *Store, n int) error {
	batch := make([]tenderbase.Record, 0, putBatch)
	for t := range demo.Tenders(corpusSeed, n) {
		batch = append(batch, t)
		if len(batch) == putBatch {
			if _, err := s.Put(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	_, err := s.Put(ctx, batch)
	return err
}

// BenchmarkIndex stores batches of new tenders in a fresh store; one op is
// one batch. It also reports the rate at which the shared corpus was built.
func BenchmarkIndex(b *testing.B) {
	benchStore(b)
	b.ReportMetric(built.rate, "build_docs/s")
	s := openTest(b)
	batches := 0
	b.ResetTimer()
	for b.Loop() {
		var batch []tenderbase.Record
		for t := range demo.Tenders(int64(batches), putBatch) { // new keys every batch
			t.PurchaseNumber = fmt.Sprintf("b%d-%s", batches, t.PurchaseNumber)
			batch = append(batch, t)
		}
		batches++
		if _, err := s.Put(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(batches*putBatch)/b.Elapsed().Seconds(), "docs/s")
}

// benchSearch is one search of the benchmarks: a top-20 page of tenders
// newest first with its exact total.
type benchSearch struct {
	name    string
	query   string
	filters tenderbase.Filters
	page    int
	where   bool // by the customer INN of the corpus's first tender
	// open searches as a free caller: the open text only.
	open bool
	// state selects tenders by their derived state (tenderbase.LookupState).
	state string
	// okpd2 selects by a code prefix; ranges bound measures; sort orders.
	okpd2  string
	ranges []tenderbase.Range
	sort   tenderbase.Sort
}

// benchMonth is the range of m over the second month of the corpus.
func benchMonth(m tenderbase.Measure) tenderbase.Range {
	from := time.Date(2016, 2, 1, 0, 0, 0, 0, time.UTC)
	return tenderbase.Range{Measure: m, Min: float64(from.Unix()), Max: float64(from.AddDate(0, 1, 0).Unix())}
}

var benchSearches = []benchSearch{
	{name: "common", query: "поставка"},
	{name: "rare", query: "тракторы"},
	{name: "phrase", query: `"лекарственных препаратов"`},
	{name: "exact", query: "=поставка"},
	{name: "and", query: "медицинского & оборудования"},
	{name: "or", query: "бетонами | цементов"},
	{name: "not", query: "поставка !медицинских"},
	{name: "mixed_phrase", query: `"=поставка лекарственных"`},
	{name: "filters", query: "поставка", filters: tenderbase.Filters{Regions: []int{77, 50}, Laws: []string{"44"}}},
	{name: "list_all"},
	{name: "list_filters", filters: tenderbase.Filters{Regions: []int{16}}},
	{name: "deep_page", query: "поставка", page: 500},
	{name: "where", query: "поставка", where: true},
	{name: "list_where", where: true},
	{name: "common_open", query: "поставка", open: true},
	{name: "rare_open", query: "тракторы", open: true},
	{name: "phrase_open", query: `"лекарственных препаратов"`, open: true},
	{name: "not_open", query: "поставка !медицинских", open: true},
	{name: "where_open", query: "поставка", where: true, open: true},
	{name: "state", query: "поставка", state: tenderbase.TenderActive},
	{name: "list_state", state: tenderbase.TenderActive},
	// The filters and orders of the search tools (docs/tools.md).
	{name: "price_range", query: "поставка", ranges: []tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 1e6, Max: 5e6}}},
	{name: "list_price", ranges: []tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 5e6, Max: math.Inf(1)}}},
	{name: "list_month", ranges: []tenderbase.Range{benchMonth(tenderbase.MeasurePublished)}},
	{name: "list_deadline", ranges: []tenderbase.Range{benchMonth(tenderbase.MeasureDeadline)}},
	{name: "sort_price", query: "поставка", sort: tenderbase.SortPriceDesc},
	{name: "list_sort_price", sort: tenderbase.SortPriceDesc},
	{name: "list_sort_deadline", sort: tenderbase.SortDeadline},
	{name: "relevance", query: "поставка", sort: tenderbase.SortRelevance},
	{name: "okpd2", okpd2: "21.20"},
	{name: "analyst", query: "поставка", filters: tenderbase.Filters{Regions: []int{77}, Laws: []string{"44"}}, state: tenderbase.TenderActive,
		ranges: []tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 5e6, Max: math.Inf(1)}, benchMonth(tenderbase.MeasureDeadline)},
		sort:   tenderbase.SortPriceDesc},
}

func (bs benchSearch) search(b *testing.B) tenderbase.Search {
	b.Helper()
	sr := tenderbase.Search{Kind: tenderbase.KindTender, Filters: bs.filters, Page: bs.page, OpenTextOnly: bs.open}
	if bs.where {
		sr.Where = []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: built.inn}}
	}
	if bs.state != "" {
		sr.Where = append(sr.Where, tenderbase.Lookup{Field: tenderbase.LookupState, Value: bs.state})
	}
	if bs.okpd2 != "" {
		sr.Where = append(sr.Where, tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: bs.okpd2})
	}
	sr.Ranges, sr.Sort = bs.ranges, bs.sort
	if bs.query != "" {
		q, err := query.Parse(bs.query, query.MCP)
		if err != nil {
			b.Fatal(err)
		}
		sr.Query = q
	}
	return sr
}

// BenchmarkSearch times whole searches: the page and the exact total.
func BenchmarkSearch(b *testing.B) {
	s := benchStore(b)
	for _, bs := range benchSearches {
		sr := bs.search(b)
		b.Run(bs.name, func(b *testing.B) {
			var total int
			for b.Loop() {
				p, err := s.Search(context.Background(), sr)
				if err != nil {
					b.Fatal(err)
				}
				total = p.Total
			}
			b.ReportMetric(float64(total), "hits")
		})
	}
}

// BenchmarkMedians runs every benchmark search once per op, cold (its
// total counted) and warm (its total from the cache, as when a caller turns
// pages), and prints the median and 95th percentile latency of each.
func BenchmarkMedians(b *testing.B) {
	s := benchStore(b)
	searches := make([]tenderbase.Search, len(benchSearches))
	for i, bs := range benchSearches {
		searches[i] = bs.search(b)
	}
	var cold, warm [][]time.Duration
	cold, warm = make([][]time.Duration, len(searches)), make([][]time.Duration, len(searches))
	totals := make([]int, len(searches))
	for b.Loop() {
		for i, sr := range searches {
			uncached := *s
			uncached.totals = newTotals()
			cold[i] = append(cold[i], timeSearch(b, &uncached, sr))
			warm[i] = append(warm[i], timeSearch(b, s, sr))
		}
	}
	for i, bs := range benchSearches {
		p, err := s.Search(context.Background(), searches[i])
		if err != nil {
			b.Fatal(err)
		}
		totals[i] = p.Total
		fmt.Fprintf(os.Stderr, "%-14s %7d hits  cold p50 %8.3f ms  p95 %8.3f ms  warm p50 %8.3f ms  p95 %8.3f ms  (%d runs)\n",
			bs.name, totals[i], percentile(cold[i], 50), percentile(cold[i], 95), percentile(warm[i], 50), percentile(warm[i], 95), len(cold[i]))
	}
}

func timeSearch(b *testing.B, s *Store, sr tenderbase.Search) time.Duration {
	start := time.Now()
	if _, err := s.Search(context.Background(), sr); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// percentile returns the p-th percentile of times in milliseconds.
func percentile(times []time.Duration, p int) float64 {
	slices.Sort(times)
	return ms(times[len(times)*p/100])
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkLatinWord counts the tenders that hold a Latin word, looked up
// as a search of tenders writes it (its one key) and as a search of world
// tenders does (its key in every language, query.ForKind), to show what
// looking a word up in every language costs an index of this size.
func BenchmarkLatinWord(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for _, text := range []string{"supply", `"office paper"`} {
		q, err := query.Parse(text, query.MCP)
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range []tenderbase.Kind{tenderbase.KindTender, tenderbase.KindWorldTender} {
			ts, err := emitTSQuery(query.ForKind(k, q), false)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(text+"/as "+string(k), func(b *testing.B) {
				for b.Loop() {
					var n int
					if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM records WHERE kind = 'tender' AND tsv @@ $1::tsquery`, ts.exact).Scan(&n); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkWords reads and indexes the vocabulary of the corpus
// (storetest.BenchWords).
func BenchmarkWords(b *testing.B) { storetest.BenchWords(b, benchStore(b)) }

// contractsSize is the number of contracts BenchmarkEnds runs on.
var contractsSize = flag.Int("contracts", 100_000, "contracts in the corpus of BenchmarkEnds")

// BenchmarkEnds times the searches of contracts ending soon
// (storetest.BenchEnds) on a store of -contracts contracts, analyzed as an
// import leaves it, and the migration step that fills the ends of stored
// contracts (fillEnds), in a transaction rolled back.
func BenchmarkEnds(b *testing.B) {
	ctx := context.Background()
	u, drop, err := pgtest.NewSchema()
	if errors.Is(err, pgtest.ErrUnreachable) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer drop()
	s, err := Open(ctx, u, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := storetest.PutContractCorpus(b, s, *contractsSize, putBatch)
	if err := s.Optimize(ctx); err != nil {
		b.Fatal(err)
	}
	storetest.BenchEnds(b, s, now)
	b.Run("fill ends", func(b *testing.B) {
		for b.Loop() {
			tx, err := s.pool.Begin(ctx)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer() // the ends as before the migration
			if _, err := tx.Exec(ctx, `UPDATE records SET ends = NULL WHERE kind = 'contract'`); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := fillEnds(ctx, tx); err != nil {
				b.Fatal(err)
			}
			tx.Rollback(ctx)
		}
	})
}

// BenchmarkAggregate times aggregates over the corpus (storetest.BenchAggregates).
func BenchmarkAggregate(b *testing.B) {
	s := benchStore(b)
	storetest.BenchAggregates(b, s, built.inn)
}
