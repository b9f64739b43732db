package main

import (
	"flag"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

var (
	importRecords = flag.Int("import-records", 3000, "`TENDERS` BenchmarkImport imports")
	importCache   = flag.String("import-cache", "", "`DIR` BenchmarkImport keeps its corpus in; empty: a temporary one")
	importStores  = flag.String("import-stores", storeSQLite, "`LIST` of the stores BenchmarkImport fills: sqlite, postgres")
)

// BenchmarkImport imports -import-records tenders of the scale corpus into
// a fresh store of each of -import-stores at every iteration, as
// `tenderbase import` does, so that go test -cpuprofile profiles an import
// whole: reading NDJSON, analysis, the store's writes and its optimizing.
// The PostgreSQL store is built in database tenderbase_import_N, dropped
// and created again for each iteration.
func BenchmarkImport(b *testing.B) {
	cfg := config{Records: *importRecords, Seed: 2026, Rounds: 1, Cache: *importCache,
		Postgres: "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"}
	if cfg.Cache == "" {
		cfg.Cache = b.TempDir()
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	bench := &bench{cfg: cfg, logger: quiet, quiet: quiet}
	c, err := loadCorpus(cfg, quiet)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range strings.Split(*importStores, ",") {
		b.Run(name, func(b *testing.B) {
			var rates []float64
			for b.Loop() {
				s, done := importTarget(b, name, cfg)
				bt := built{Store: name}
				start := time.Now()
				if err := bench.build(b.Context(), s, c.Path, &bt); err != nil {
					b.Fatal(err)
				}
				rates = append(rates, float64(bt.Records)/time.Since(start).Seconds())
				done()
			}
			b.ReportMetric(median(rates), "records/s")
		})
	}
}

// importTarget opens an empty store of the named kind, and returns it with
// the function that closes it.
func importTarget(b *testing.B, name string, cfg config) (ourStore, func()) {
	b.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	switch name {
	case storeSQLite:
		s, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "import.db"), quiet)
		if err != nil {
			b.Fatal(err)
		}
		return s, func() { s.Close() }
	case storePostgres:
		pg, err := connect(b.Context(), cfg.Postgres)
		if err != nil {
			b.Skip(err)
		}
		db := "tenderbase_import_" + strconv.Itoa(cfg.Records)
		if err := pg.recreate(b.Context(), db); err != nil {
			b.Fatal(err)
		}
		s, err := postgres.Open(b.Context(), pg.urlOf(db), quiet)
		if err != nil {
			b.Fatal(err)
		}
		return s, func() { s.Close(); pg.close() }
	}
	b.Fatalf("-import-stores: unknown store %q", name)
	return nil, nil
}
