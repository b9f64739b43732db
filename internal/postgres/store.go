// Package postgres is the scale-out store: records, their versions, lookups
// and full-text search in PostgreSQL, through pgx, as docs/SEARCH.md
// designs it. Several servers may share one database; they hold no state
// that another server's writes could make stale.
//
// Every current record has a rid, the unix second of its date shifted left
// 22 bits plus a sequence within that second, so that newest first is
// descending rid, exactly as in the SQLite store. Text is analyzed in Go by
// internal/textproc and stored as a tsvector that Go writes itself: at each
// position the stem and the exact form prefixed with '='. A query becomes a
// tsquery literal written in Go; PostgreSQL's own text search
// configurations are never used, since they drop stop words and split words
// otherwise.
package postgres

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
)

var (
	_ tenderbase.Store   = (*Store)(nil)
	_ tenderbase.Readier = (*Store)(nil)
)

// Store is the PostgreSQL store. It is safe for concurrent use.
type Store struct {
	pool   *pgxpool.Pool
	totals *totals
	logger *slog.Logger
	upkeep *upkeep
	// recent keeps the postings chunks the last Put wrote, for the next.
	recent *postings.Recent
}

// Open connects to the database at url, a postgres:// or postgresql:// URL,
// and brings its schema up to date. A nil logger discards.
func Open(ctx context.Context, url string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := checkURL(url); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "PostgreSQL URL: %v", err)
	}
	// A search's best plan depends on how common its words are, which a
	// generic plan of a prepared statement cannot know: after five runs it
	// would scan every tsvector for a rare word.
	cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL store: %w", err)
	}
	if err := migrate(ctx, pool, logger); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open PostgreSQL store %s@%s/%s: %w", cfg.ConnConfig.User, cfg.ConnConfig.Host, cfg.ConnConfig.Database, err)
	}
	return &Store{pool: pool, totals: newTotals(), logger: logger, upkeep: &upkeep{}, recent: &postings.Recent{}}, nil
}

// checkURL accepts only URLs, not key=value connection strings, so that a
// mistyped --db is never taken for some other database.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return tenderbase.Errorf(tenderbase.EINVALID, "a PostgreSQL store needs a postgres:// or postgresql:// URL")
	}
	return nil
}

// Close closes the connections.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Optimize vacuums the tables a bulk import wrote and refreshes the
// planner's statistics, which it leaves stale: without them the planner
// misjudges how many records a word has and picks the wrong index. Every
// Put rewrites the last chunk of the postings of its words, so an import
// leaves many dead rows behind (25 times the live postings at 100,000
// tenders with autovacuum off), which the vacuum makes room for again; it
// also marks the pages all-visible, so that the walk of a page newest
// first reads the rid index alone. The facts are written twice a tender
// (the row, then its standing), so an import leaves as many dead rows as
// live ones, and no statistics: the planner took a kind's 100,000
// tenders for 1,078.
func (s *Store) Optimize(ctx context.Context) (err error) {
	defer classify(&err)
	for _, table := range []string{"records", "versions", "lookups", "postings", "doc_counters", "facts", "bids"} {
		if _, err := s.pool.Exec(ctx, "VACUUM (ANALYZE) "+table); err != nil {
			return fmt.Errorf("optimize: vacuum %s: %w", table, err)
		}
	}
	return nil
}
