package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/benchcorpus"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// ourStore is one of the project's stores, as the bench needs it: it
// keeps API keys, optimizes after an import, and forgets the totals it
// cached, so that a search counts as the first one after an import does.
type ourStore interface {
	tenderbase.Store
	tenderbase.KeyStore
	Optimize(ctx context.Context) error
	ForgetTotals()
}

var (
	_ ourStore = (*sqlite.Store)(nil)
	_ ourStore = (*postgres.Store)(nil)
)

// built is how a store came to be ready: built in this run, with what the
// build took, or found in the cache.
type built struct {
	Store   string `json:"store"`
	Cached  bool   `json:"cached"`
	Records int    `json:"records"`
	// Wall is the time of the build: the import and the optimization for
	// the project's stores, COPY, the tsvectors and the indexes for the
	// usual way.
	Wall             time.Duration `json:"wall_ns"`
	RecordsPerSecond float64       `json:"records_per_second"`
	// PeakRSS is the bench's own peak resident memory during the build
	// (the server's is PostgreSQL's own), or 0 when unknown.
	PeakRSS int64 `json:"peak_rss_bytes"`
	Size    int64 `json:"size_bytes"`
}

// marker says which corpus a store holds: a store whose marker is not the
// configuration's is built again.
func (c config) marker() string {
	return fmt.Sprintf("scalebench corpus v%s seed %d records %d", benchcorpus.Version, c.Seed, c.Records)
}

// sqlitePath is the SQLite store's file in the cache.
func (c config) sqlitePath() string {
	return filepath.Join(c.Cache, fmt.Sprintf("sqlite-v%s-seed%d-n%d%s.db", benchcorpus.Version, c.Seed, c.Records, c.DBSuffix))
}

// dbName returns the name of the bench's database of a kind ("scale" or
// "usual").
func (c config) dbName(kind string) string {
	return "tenderbase_" + kind + "_" + strconv.Itoa(c.Records) + c.DBSuffix
}

// openSQLite opens the SQLite store of the cache, building it first unless
// its marker says it holds the corpus.
func (b *bench) openSQLite(ctx context.Context, corpusPath string) (ourStore, built, error) {
	return b.openCachedSQLite(ctx, b.cfg.sqlitePath(), b.cfg.marker(), b.importer(corpusPath))
}

// openPostgres opens the PostgreSQL store of the bench's database on pg,
// building it first unless its marker says it holds the corpus.
func (b *bench) openPostgres(ctx context.Context, pg *cluster, corpusPath string) (ourStore, built, error) {
	return b.openCachedPostgres(ctx, pg, b.cfg.dbName("scale"), b.cfg.marker(), b.importer(corpusPath))
}

// builder fills an empty store and says what that took.
type builder func(ctx context.Context, s ourStore, bt *built) error

// importer returns the builder that imports the corpus at corpusPath.
func (b *bench) importer(corpusPath string) builder {
	return func(ctx context.Context, s ourStore, bt *built) error { return b.build(ctx, s, corpusPath, bt) }
}

// openCachedSQLite opens the SQLite store at path, building it first with
// build unless the marker beside it is mark.
func (b *bench) openCachedSQLite(ctx context.Context, path, mark string, build builder) (ourStore, built, error) {
	bt := built{Store: storeSQLite}
	found, err := os.ReadFile(path + ".marker")
	bt.Cached = err == nil && string(found) == mark
	if !bt.Cached {
		for _, suffix := range []string{".marker", "", "-wal", "-shm"} {
			if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, bt, fmt.Errorf("remove the stale SQLite store: %w", err)
			}
		}
	}
	s, err := sqlite.Open(ctx, path, b.quiet)
	if err != nil {
		return nil, bt, err
	}
	if !bt.Cached {
		if err := build(ctx, s, &bt); err != nil {
			s.Close()
			return nil, bt, err
		}
		if err := os.WriteFile(path+".marker", []byte(mark), 0o644); err != nil {
			s.Close()
			return nil, bt, err
		}
	}
	bt.Size = fileSize(path) + fileSize(path+"-wal")
	return s, bt, nil
}

// openCachedPostgres opens the PostgreSQL store in database db on pg,
// building it first with build unless the database's marker is mark.
func (b *bench) openCachedPostgres(ctx context.Context, pg *cluster, db, mark string, build builder) (ourStore, built, error) {
	bt := built{Store: storePostgres}
	found, err := pg.marker(ctx, db)
	if err != nil {
		return nil, bt, err
	}
	bt.Cached = found == mark
	if !bt.Cached {
		if err := pg.recreate(ctx, db); err != nil {
			return nil, bt, err
		}
	}
	s, err := postgres.Open(ctx, pg.urlOf(db), b.quiet)
	if err != nil {
		return nil, bt, err
	}
	if !bt.Cached {
		if err := build(ctx, s, &bt); err != nil {
			s.Close()
			return nil, bt, err
		}
		if err := pg.setMarker(ctx, db, mark); err != nil {
			s.Close()
			return nil, bt, err
		}
	}
	if bt.Size, err = pg.size(ctx, db); err != nil {
		s.Close()
		return nil, bt, err
	}
	return s, bt, nil
}

// build imports the corpus into s as `tenderbase import` does, through the
// importer and its NDJSON reader, then optimizes s, and says what it took.
func (b *bench) build(ctx context.Context, s ourStore, corpusPath string, bt *built) error {
	b.logger.Info("import the corpus", "store", bt.Store)
	peak := startPeak(b.logger)
	start := time.Now()
	progress := newProgress(b.logger, bt.Store)
	summary, err := importer.Import(ctx, s, []string{corpusPath}, importer.Options{
		Decoders: []importer.Decoder{ndjson.Format{}},
		Progress: progress.set,
	})
	if err != nil {
		return fmt.Errorf("import into %s: %w", bt.Store, err)
	}
	if summary.Rejected > 0 {
		return fmt.Errorf("import into %s rejected %d records, the first: %s", bt.Store, summary.Rejected, summary.Rejections[0])
	}
	if err := s.Optimize(ctx); err != nil {
		return fmt.Errorf("optimize %s: %w", bt.Store, err)
	}
	bt.Wall = time.Since(start)
	bt.Records = summary.Records
	bt.RecordsPerSecond = float64(summary.Records) / bt.Wall.Seconds()
	bt.PeakRSS = peak()
	b.logger.Info("imported", "store", bt.Store, "records", bt.Records, "in", bt.Wall.Round(time.Millisecond))
	return nil
}

// fileSize returns the size of a file, 0 when it is not there.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// progress logs an import's progress every tenth of the bytes.
type progress struct {
	logger *slog.Logger
	store  string
	next   int64
	start  time.Time
}

func newProgress(logger *slog.Logger, store string) *progress {
	return &progress{logger: logger, store: store, start: time.Now()}
}

// set is an importer.Options.Progress.
func (p *progress) set(done, total int64) {
	if total <= 0 || done < p.next {
		return
	}
	p.logger.Info("importing", "store", p.store, "percent", 100*done/total, "after", time.Since(p.start).Round(time.Second))
	p.next = done + total/10
}
