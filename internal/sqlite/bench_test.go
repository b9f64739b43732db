package sqlite

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// corpusSize is the number of tenders the search benchmarks run on.
var (
	corpusSize = flag.Int("corpus", 100_000, "tenders in the benchmark corpus")
	optimize   = flag.Bool("optimize", false, "merge the full-text index after building the corpus")
)

// putBatch is how many records one Put of the benchmarks stores, as an
// import would.
const putBatch = 1000

// built is the benchmark corpus, stored once per run of the benchmarks and
// shared by all of them.
var built struct {
	once  sync.Once
	dir   string
	store *Store
	rate  float64 // docs/s of the build
	err   error
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if built.store != nil {
		built.store.Close()
	}
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// benchStore returns the store holding the benchmark corpus, building it on
// first use.
func benchStore(b *testing.B) *Store {
	b.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "tenderbase-bench-")
		if built.err != nil {
			return
		}
		ctx := context.Background()
		built.store, built.err = Open(ctx, filepath.Join(built.dir, "store.db"), nil)
		if built.err != nil {
			return
		}
		start := time.Now()
		built.err = genCorpus(*corpusSize, putBatch, func(batch []tenderbase.Record) error {
			_, err := built.store.Put(ctx, batch)
			return err
		})
		built.rate = float64(*corpusSize) / time.Since(start).Seconds()
		fmt.Fprintf(os.Stderr, "built %d tenders in %s: %.0f docs/s\n", *corpusSize, time.Since(start).Round(time.Millisecond), built.rate)
		if *optimize && built.err == nil {
			start = time.Now()
			built.err = built.store.Optimize(ctx)
			fmt.Fprintf(os.Stderr, "optimized in %s\n", time.Since(start).Round(time.Millisecond))
		}
		if built.err == nil {
			fmt.Fprintf(os.Stderr, "store %d MB, of which full-text tables %d MB\n", dirSize(built.dir)>>20, ftsSize(ctx, filepath.Join(built.dir, "store.db"))>>20)
		}
	})
	if built.err != nil {
		b.Fatalf("build corpus: %v", built.err)
	}
	return built.store
}

// dirSize returns the bytes of the files in dir: the store, its WAL.
func dirSize(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			n += info.Size()
		}
	}
	return n
}

// ftsSize returns the bytes of the pages of the full-text tables' shadow
// tables in the store at path, read from the dbstat table.
func ftsSize(ctx context.Context, path string) int64 {
	db, err := openDB(path, true, 1)
	if err != nil {
		return 0
	}
	defer db.Close()
	var n int64
	db.QueryRowContext(ctx, `SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'fts\_%' ESCAPE '\'`).Scan(&n)
	return n
}

// BenchmarkIndex stores batches of new tenders in a fresh store; one op is
// one batch. It also reports the rate at which the shared corpus was built.
func BenchmarkIndex(b *testing.B) {
	benchStore(b)
	b.ReportMetric(built.rate, "build_docs/s")
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "index.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rngStart := 0
	b.ResetTimer()
	for b.Loop() {
		var batch []tenderbase.Record
		genCorpus(putBatch, putBatch, func(rs []tenderbase.Record) error { batch = rs; return nil })
		for i, r := range batch { // new keys every batch
			r.(*tenderbase.Tender).PurchaseNumber = fmt.Sprintf("b%d", rngStart+i)
		}
		rngStart += putBatch
		if _, err := s.Put(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*putBatch)/b.Elapsed().Seconds(), "docs/s")
}

// benchSearches are the searches of BenchmarkSearch, each a top-20 page of
// tenders newest first with its exact total.
var benchSearches = []benchCase{
	{"common", "поставка", tenderbase.Filters{}, 0, nil, nil, ""},
	{"rare", "погрузчик", tenderbase.Filters{}, 0, nil, nil, ""},
	{"phrase", `"медицинских изделий"`, tenderbase.Filters{}, 0, nil, nil, ""},
	{"exact", "=поставка", tenderbase.Filters{}, 0, nil, nil, ""},
	{"and", "бумага & офисной", tenderbase.Filters{}, 0, nil, nil, ""},
	{"or", "бумага | картридж", tenderbase.Filters{}, 0, nil, nil, ""},
	{"not", "поставка !медицинских", tenderbase.Filters{}, 0, nil, nil, ""},
	{"mixed_phrase", `"=поставка бумаги"`, tenderbase.Filters{}, 0, nil, nil, ""},
	{"filters", "поставка", tenderbase.Filters{Regions: []int{77, 50}, Laws: []string{"44"}}, 0, nil, nil, ""},
	{"list_all", "", tenderbase.Filters{}, 0, nil, nil, ""},
	{"list_filters", "", tenderbase.Filters{Regions: []int{16}}, 0, nil, nil, ""},
	{"deep_page", "поставка", tenderbase.Filters{}, 500, nil, nil, ""},
	{"where", "поставка", tenderbase.Filters{}, 0, []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7700000042"}}, nil, ""},
	{"list_where", "", tenderbase.Filters{}, 0, []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7700000042"}}, nil, ""},
	{"state", "поставка", tenderbase.Filters{}, 0, []tenderbase.Lookup{{Field: tenderbase.LookupState, Value: tenderbase.TenderActive}}, nil, ""},
	{"list_state", "", tenderbase.Filters{}, 0, []tenderbase.Lookup{{Field: tenderbase.LookupState, Value: tenderbase.TenderActive}}, nil, ""},
	// The filters and orders of the search tools (docs/tools.md).
	{"price_range", "поставка", tenderbase.Filters{}, 0, nil, []tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 1e6, Max: 5e6}}, ""},
	{"list_price", "", tenderbase.Filters{}, 0, nil, []tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 5e6, Max: math.Inf(1)}}, ""},
	{"list_month", "", tenderbase.Filters{}, 0, nil, []tenderbase.Range{benchMonth(tenderbase.MeasurePublished)}, ""},
	{"list_deadline", "", tenderbase.Filters{}, 0, nil, []tenderbase.Range{benchMonth(tenderbase.MeasureDeadline)}, ""},
	{"sort_price", "поставка", tenderbase.Filters{}, 0, nil, nil, tenderbase.SortPriceDesc},
	{"list_sort_price", "", tenderbase.Filters{}, 0, nil, nil, tenderbase.SortPriceDesc},
	{"list_sort_deadline", "", tenderbase.Filters{}, 0, nil, nil, tenderbase.SortDeadline},
	{"relevance", "поставка", tenderbase.Filters{}, 0, nil, nil, tenderbase.SortRelevance},
	{"okpd2", "", tenderbase.Filters{}, 0, []tenderbase.Lookup{{Field: tenderbase.LookupOKPD2, Value: "21.20"}}, nil, ""},
	{"analyst", "поставка", tenderbase.Filters{Regions: []int{77}, Laws: []string{"44"}}, 0,
		[]tenderbase.Lookup{{Field: tenderbase.LookupState, Value: tenderbase.TenderActive}},
		[]tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 5e6, Max: math.Inf(1)}, benchMonth(tenderbase.MeasureDeadline)}, tenderbase.SortPriceDesc},
}

// BenchmarkSearch times whole searches: the page and the exact total.
// "cold" counts the total every time; "warm" is Search as a caller sees it
// when the same search comes again before a write (turning pages), its
// total cached.
func BenchmarkSearch(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for _, bs := range benchSearches {
		sel := benchSelection(b, bs)
		sr := benchSearch(b, bs)
		b.Run(bs.name+"/cold", func(b *testing.B) {
			var total int
			for b.Loop() {
				found, _, err := s.search(ctx, sel, false)
				if err != nil {
					b.Fatal(err)
				}
				total = found.Total
			}
			b.ReportMetric(float64(total), "hits")
		})
		b.Run(bs.name+"/warm", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Search(ctx, sr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPage times only the page of a search, and BenchmarkCount only its
// total, to show what each costs.
func BenchmarkPage(b *testing.B) {
	s := benchStore(b)
	for _, bs := range benchSearches {
		sel := benchSelection(b, bs)
		if sel.verify {
			continue
		}
		b.Run(bs.name, func(b *testing.B) {
			for b.Loop() {
				benchInTx(b, s, func(c *conn) error { _, _, err := sel.page(context.Background(), c); return err })
			}
		})
	}
}

// BenchmarkRIDs times only the index part of a page: the rids of the 20
// newest matches, without reading or decoding the records.
func BenchmarkRIDs(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for _, bs := range benchSearches {
		sel := benchSelection(b, bs)
		if sel.verify {
			continue
		}
		q := "SELECT " + sel.col + " FROM " + sel.from + " ORDER BY " + sel.col + " DESC LIMIT ? OFFSET ?"
		args := append(slices.Clip(sel.args), sel.limit, sel.offset)
		b.Run(bs.name, func(b *testing.B) {
			for b.Loop() {
				benchInTx(b, s, func(c *conn) error {
					rows, err := c.query(ctx, q, args...)
					if err != nil {
						return err
					}
					defer rows.Close()
					for rows.Next() {
						var rid int64
						if err := rows.Scan(&rid); err != nil {
							return err
						}
					}
					return rows.Err()
				})
			}
		})
	}
}

func BenchmarkCount(b *testing.B) {
	s := benchStore(b)
	for _, bs := range benchSearches {
		sel := benchSelection(b, bs)
		if sel.verify || bs.page != 0 {
			continue
		}
		b.Run(bs.name, func(b *testing.B) {
			for b.Loop() {
				benchInTx(b, s, func(c *conn) error { _, err := sel.count(context.Background(), c); return err })
			}
		})
	}
}

// BenchmarkMedians runs every benchmark search once per op, counting its
// total, and prints the median and 95th percentile latency of each.
func BenchmarkMedians(b *testing.B) {
	s := benchStore(b)
	searches := make([]selection, len(benchSearches))
	for i, bs := range benchSearches {
		searches[i] = benchSelection(b, bs)
	}
	times := make([][]time.Duration, len(searches))
	for b.Loop() {
		for i, sel := range searches {
			start := time.Now()
			if _, _, err := s.search(context.Background(), sel, false); err != nil {
				b.Fatal(err)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	for i, bs := range benchSearches {
		slices.Sort(times[i])
		n := len(times[i])
		fmt.Fprintf(os.Stderr, "%-14s p50 %8.3f ms  p95 %8.3f ms  (%d runs)\n", bs.name,
			ms(times[i][n/2]), ms(times[i][n*95/100]), n)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchCase is one of benchSearches.
type benchCase = struct {
	name    string
	query   string
	filters tenderbase.Filters
	page    int
	where   []tenderbase.Lookup
	ranges  []tenderbase.Range
	sort    tenderbase.Sort
}

// benchMonth is the range of m over the second month of the corpus.
func benchMonth(m tenderbase.Measure) tenderbase.Range {
	from := corpusStart.AddDate(0, 1, 0)
	return tenderbase.Range{Measure: m, Min: float64(from.Unix()), Max: float64(from.AddDate(0, 1, 0).Unix())}
}

func benchSearch(b *testing.B, bs benchCase) tenderbase.Search {
	b.Helper()
	sr := tenderbase.Search{Kind: tenderbase.KindTender, Filters: bs.filters, Page: bs.page, Where: bs.where, Ranges: bs.ranges, Sort: bs.sort}
	if bs.query != "" {
		q, err := query.Parse(bs.query, query.MCP)
		if err != nil {
			b.Fatal(err)
		}
		sr.Query = q
	}
	return sr
}

func benchSelection(b *testing.B, bs benchCase) selection {
	b.Helper()
	sel, err := benchStore(b).plan(context.Background(), benchSearch(b, bs))
	if err != nil {
		b.Fatal(err)
	}
	return sel
}

func benchInTx(b *testing.B, s *Store, f func(c *conn) error) {
	b.Helper()
	if err := s.read.tx(context.Background(), "BEGIN", f); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLatinWord counts the tenders that hold a Latin word, looked up
// as a search of tenders writes it (its one key) and as a search of world
// tenders does (its key in every language, query.ForKind), to show what
// looking a word up in every language costs an index of this size.
func BenchmarkLatinWord(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	for _, text := range []string{"supply", `"office paper"`} {
		for _, k := range []tenderbase.Kind{tenderbase.KindTender, tenderbase.KindWorldTender} {
			m, err := emitMatch(query.ForKind(k, benchSearch(b, benchCase{query: text}).Query), nil, false)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(text+"/as "+string(k), func(b *testing.B) {
				for b.Loop() {
					benchInTx(b, s, func(c *conn) error {
						var n int
						return c.queryRow(ctx, "SELECT count(*) FROM fts_tender WHERE fts_tender MATCH ?", m.expr).Scan(&n)
					})
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
// (storetest.BenchEnds) on a store of -contracts contracts, and the
// migration step that fills the ends of stored contracts (fillEnds), in a
// transaction rolled back.
func BenchmarkEnds(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "ends.db")
	s, err := Open(ctx, path, nil)
	if err != nil {
		b.Fatal(err)
	}
	now := storetest.PutContractCorpus(b, s, *contractsSize, putBatch)
	storetest.BenchEnds(b, s, now)
	s.Close() // its writer holds the one connection that writes
	db, err := openDB(path, false, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	b.Run("fill ends", func(b *testing.B) {
		for b.Loop() {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer() // the ends as before the migration
			if _, err := tx.ExecContext(ctx, `UPDATE measures SET ends = NULL`); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := fillEnds(ctx, tx); err != nil {
				b.Fatal(err)
			}
			tx.Rollback()
		}
	})
}

// BenchmarkAggregate times aggregates over the corpus (storetest.BenchAggregates).
func BenchmarkAggregate(b *testing.B) { storetest.BenchAggregates(b, benchStore(b), "7700000042") }
