package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExport runs the export bench on 3,000 complaints: every walk reads
// the total, in both formats, on SQLite and, where PostgreSQL is
// reachable, on the PostgreSQL store in a database of the test's own.
func TestExport(t *testing.T) {
	cache := t.TempDir()
	figures := filepath.Join(cache, "figures.json")
	args := []string{"-export", "-records", "3000", "-rounds", "1", "-cache", cache, "-json", figures}
	stores := []string{storeSQLite}
	if admin, ok := testPostgres(t); ok {
		suffix := "_test_" + randomHex(4)
		args = append(args, "-postgres", admin, "-db-suffix", suffix)
		stores = []string{storeSQLite, storePostgres}
		t.Cleanup(func() { dropDatabases(t, admin, suffix) })
	}
	args = append(args, "-stores", strings.Join(stores, ","))
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), args, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit status %d; the log:\n%s", code, stderr.String())
	}
	report := stdout.String()
	for _, s := range stores {
		for _, f := range exportFormats {
			if !regexp.MustCompile(`(?m)^\s*` + s + `\s+` + f + `\s+3000\s+3\s+\d+\s+[1-9]\d*\s`).MatchString(report) {
				t.Errorf("no figures of %s in %s:\n%s", s, f, report)
			}
		}
	}
	b, err := os.ReadFile(figures)
	if err != nil {
		t.Fatal(err)
	}
	var r exportResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) > 0 || len(r.Walks) != 2*len(stores) {
		t.Errorf("%d walks, warnings:\n%s", len(r.Walks), strings.Join(r.Warnings, "\n"))
	}
}

var (
	exportRecords = flag.Int("export-records", 3000, "`COMPLAINTS` BenchmarkExport stores")
	exportCache   = flag.String("export-cache", "", "`DIR` BenchmarkExport keeps its SQLite store in; empty: a temporary one")
	exportStores  = flag.String("export-stores", storeSQLite, "`LIST` of the stores BenchmarkExport walks")
)

// BenchmarkExport walks the export of -export-records stored complaints
// (default 3,000) in each store of -export-stores and each format, as
// scalebench -export does, so that go test -cpuprofile profiles the whole
// path. A store is built once and kept in -export-cache (PostgreSQL's in
// its database, tenderbase_export_N); without it, SQLite's in a temporary
// folder.
func BenchmarkExport(b *testing.B) {
	cfg := config{Records: *exportRecords, Seed: 2026, Rounds: 1, Cache: *exportCache, Stores: strings.Split(*exportStores, ","),
		Postgres: "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", Export: true}
	if cfg.Cache == "" {
		cfg.Cache = b.TempDir()
	}
	if err := cfg.check(); err != nil {
		b.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	bench := &bench{cfg: cfg, logger: quiet, quiet: quiet}
	var pg *cluster
	if cfg.wants(storePostgres) {
		var err error
		if pg, err = connect(b.Context(), cfg.Postgres); err != nil {
			b.Fatal(err)
		}
		defer pg.close()
	}
	servers, err := bench.openExports(b.Context(), pg, &exportResult{})
	defer func() {
		for _, s := range servers {
			s.close()
		}
	}()
	if err != nil {
		b.Fatal(err)
	}
	for _, srv := range servers {
		for _, f := range exportFormats {
			b.Run(srv.name+"/"+f, func(b *testing.B) {
				var all walkResult
				for b.Loop() {
					w, err := walkExport(b.Context(), srv, f)
					if err != nil || w.records != w.total {
						b.Fatalf("%v; %d records of %d", err, w.records, w.total)
					}
					all.add(w)
				}
				b.ReportMetric(median(all.Rates), "records/s")
				b.ReportMetric(float64(all.PeakHeap)/(1<<20), "peak-heap-MiB")
			})
		}
	}
}
