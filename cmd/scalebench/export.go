package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
)

// exportPageSize is the page a walk of the export asks for: the largest
// the export gives.
const exportPageSize = 1000

// exportResult is what a run of the export bench found.
type exportResult struct {
	Complaints int          `json:"complaints"`
	Results    int          `json:"results"`
	Seed       uint64       `json:"seed"`
	Rounds     int          `json:"rounds"`
	PageSize   int          `json:"page_size"`
	Machine    machine      `json:"machine"`
	Builds     []built      `json:"builds"`
	Walks      []walkResult `json:"walks"`
	// Warnings name the walks that failed or read another number of
	// records than the total the export gave.
	Warnings []string `json:"warnings"`
}

// walkResult is the figures of the walks of one store in one format.
type walkResult struct {
	Store  string `json:"store"`
	Format string `json:"format"`
	// Records and Bytes are those of one walk, Pages the requests it made.
	Records int   `json:"records"`
	Pages   int   `json:"pages"`
	Bytes   int64 `json:"bytes"`
	// Rates are the records a second of each round's walk, in the order
	// they ran; Median is their median.
	Rates  []float64 `json:"records_per_second"`
	Median float64   `json:"median_records_per_second"`
	// PeakHeap is the highest heap in use sampled during any walk.
	PeakHeap uint64 `json:"peak_heap_bytes"`
}

// exportFormats are the formats a walk reads, by their dtype.
var exportFormats = []string{"json", "xml"}

// runExport builds or finds the stores of stored complaints, walks the
// export of every one of them page by page in each format and round, and
// returns the figures. Progress goes to stderr.
func runExport(ctx context.Context, cfg config, stderr io.Writer) (*exportResult, error) {
	b := &bench{
		cfg:    cfg,
		logger: slog.New(slog.NewTextHandler(stderr, nil)),
		quiet:  slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	r := &exportResult{Complaints: cfg.Records, Results: resultsOf(cfg.Records), Seed: cfg.Seed, Rounds: cfg.Rounds,
		PageSize: exportPageSize, Machine: currentMachine(), Warnings: []string{}}
	if err := os.MkdirAll(cfg.Cache, 0o755); err != nil {
		return nil, fmt.Errorf("make the cache folder: %w", err)
	}
	var pg *cluster
	if cfg.wants(storePostgres) {
		var err error
		if pg, err = connect(ctx, cfg.Postgres); err != nil {
			return nil, err
		}
		defer pg.close()
	}
	servers, err := b.openExports(ctx, pg, r)
	defer func() {
		for _, s := range servers {
			s.close()
		}
	}()
	if err != nil {
		return nil, err
	}
	b.logger.Info("walk the export", "rounds", cfg.Rounds, "stores", len(servers))
	r.Walks = b.walkRounds(ctx, servers, r)
	r.Machine.LoadAfter = loadAverage()
	return r, ctx.Err()
}

// openExports opens the stores of the configuration, building those the
// cache lacks, and serves each.
func (b *bench) openExports(ctx context.Context, pg *cluster, r *exportResult) ([]*exportServer, error) {
	var servers []*exportServer
	for _, name := range b.cfg.Stores {
		var s ourStore
		var bt built
		var err error
		switch name {
		case storeSQLite:
			s, bt, err = b.openCachedSQLite(ctx, b.cfg.exportPath(), b.cfg.exportMarker(), b.putComplaints)
		case storePostgres:
			s, bt, err = b.openCachedPostgres(ctx, pg, b.cfg.dbName("export"), b.cfg.exportMarker(), b.putComplaints)
		}
		if err != nil {
			return servers, err
		}
		r.Builds = append(r.Builds, bt)
		srv, err := b.serveExport(ctx, name, s)
		if err != nil {
			return servers, err
		}
		servers = append(servers, srv)
	}
	return servers, nil
}

// exportServer is the HTTP server of one store, in this process, with a
// key of the corporate plan, whose rows are not capped.
type exportServer struct {
	name   string
	ts     *httptest.Server
	secret string
	close  func()
}

// serveExport serves store s as `tenderbase serve` does. Closing the
// server stops it, revokes the key and closes s; so does a failure.
func (b *bench) serveExport(ctx context.Context, name string, s ourStore) (*exportServer, error) {
	key, secret, err := s.CreateKey(ctx, tenderbase.Key{Name: "scalebench export", Plan: tenderbase.PlanCorporate})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("create the bench's key in %s: %w", name, err)
	}
	srv := httpserver.New(httpserver.Config{Keys: s, RequestTimeout: requestTimeout}, s, b.quiet)
	ts := httptest.NewServer(srv.Handler())
	return &exportServer{name: name, ts: ts, secret: secret, close: func() {
		ts.Close()
		if _, err := s.SetKeyStatus(context.WithoutCancel(ctx), key.ID, tenderbase.KeyRevoked); err != nil {
			b.logger.Warn("revoke the bench's key", "store", name, "err", err)
		}
		s.Close()
	}}, nil
}

// walkRounds walks the export of every server in every format, once a
// round, in an order shuffled anew each round, so that no walk always
// follows another that warmed a cache.
func (b *bench) walkRounds(ctx context.Context, servers []*exportServer, r *exportResult) []walkResult {
	type pair struct {
		srv *exportServer
		out *walkResult
	}
	var pairs []pair
	out := make([]walkResult, 0, len(servers)*len(exportFormats))
	for _, srv := range servers {
		for _, f := range exportFormats {
			out = append(out, walkResult{Store: srv.name, Format: f})
		}
	}
	for i := range out {
		pairs = append(pairs, pair{servers[i/len(exportFormats)], &out[i]})
	}
	order := rand.New(rand.NewPCG(orderSeed, orderSeed))
	for round := range b.cfg.Rounds {
		for _, i := range order.Perm(len(pairs)) {
			if ctx.Err() != nil {
				return out
			}
			p := pairs[i]
			w, err := walkExport(ctx, p.srv, p.out.Format)
			if err != nil {
				r.warn("%s %s, round %d: %v", p.srv.name, p.out.Format, round+1, err)
				continue
			}
			if w.records != w.total {
				r.warn("%s %s, round %d: the walk read %d records of a total of %d", p.srv.name, p.out.Format, round+1, w.records, w.total)
			}
			p.out.add(w)
			b.logger.Info("walked", "store", p.srv.name, "format", p.out.Format, "round", round+1,
				"records", w.records, "in", w.wall.Round(time.Millisecond), "records/s", int(w.rate()), "peak heap MiB", w.peakHeap>>20)
		}
	}
	for i := range out {
		out[i].Median = median(out[i].Rates)
	}
	return out
}

// add counts one walk in.
func (w *walkResult) add(x walk) {
	w.Records, w.Pages, w.Bytes = x.records, x.pages, x.bytes
	w.Rates = append(w.Rates, x.rate())
	w.PeakHeap = max(w.PeakHeap, x.peakHeap)
}

// median returns the median of xs, 0 of none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r *exportResult) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// exportPath is the export bench's SQLite store in the cache.
func (c config) exportPath() string {
	return filepath.Join(c.Cache, fmt.Sprintf("export-v%d-seed%d-n%d%s.db", exportCorpusVersion, c.Seed, c.Records, c.DBSuffix))
}

// exportMarker says which complaints an export bench's store holds.
func (c config) exportMarker() string {
	return fmt.Sprintf("scalebench export v%d seed %d complaints %d", exportCorpusVersion, c.Seed, c.Records)
}
