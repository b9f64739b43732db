package postgres

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tenderbase/tenderbase/internal/migration"
	"github.com/tenderbase/tenderbase/internal/postings"
)

// migrations are the schema changes, applied in the order of the number
// their file names start with ("0001_records.sql").
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrateLock is the advisory lock key held while migrating, so that
// servers started at once apply each migration once.
const migrateLock = 0x7462_6d69_6772 // "tbmigr"

// migrate applies the migrations the database has not seen, each in its own
// transaction together with its row in schema_migrations, so that a failed
// migration leaves the schema as it was. It holds an advisory lock on one
// connection throughout. A database that has every migration is only
// read, so that servers can open a read-only replica of it.
func migrate(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) error {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	c, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer c.Release()
	if done, err := upToDate(ctx, c.Conn(), all); err != nil || done {
		return err
	}
	if _, err := c.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrateLock); err != nil {
		return fmt.Errorf("lock for migrating: %w", err)
	}
	defer c.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrateLock)
	if _, err := c.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("create schema table: %w", err)
	}
	rows, _ := c.Query(ctx, `SELECT version FROM schema_migrations`)
	applied, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	for _, m := range all {
		if slices.Contains(applied, m.Version) {
			continue
		}
		if err := apply(ctx, c.Conn(), m); err != nil {
			return err
		}
		logger.Info("applied migration", "version", m.Version, "name", m.Name)
	}
	return checkAnalysis(ctx, c.Conn(), logger)
}

// upToDate reports whether the database has every migration and its index
// this build's text analysis, reading only.
func upToDate(ctx context.Context, c *pgx.Conn, all []migration.Migration) (bool, error) {
	var exists bool
	if err := c.QueryRow(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return false, fmt.Errorf("read schema version: %w", err)
	}
	if !exists {
		return false, nil
	}
	rows, _ := c.Query(ctx, `SELECT version FROM schema_migrations`)
	applied, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return false, fmt.Errorf("read schema version: %w", err)
	}
	for _, m := range all {
		if !slices.Contains(applied, m.Version) {
			return false, nil
		}
	}
	have, err := analysisOf(ctx, c)
	return have == postings.IndexVersion(), err
}

// loadMigrations returns the migrations of this build, read once: they are
// embedded, and GET /ready compares the database with them at every probe.
var loadMigrations = sync.OnceValues(func() ([]migration.Migration, error) {
	return migration.Load(migrations, "migrations/*.sql")
})

// apply runs one migration. Without arguments Exec uses the simple
// protocol, which runs the several statements of a file.
func apply(ctx context.Context, c *pgx.Conn, m migration.Migration) error {
	return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if step := goSteps[m.Version]; step != nil {
			if err := step(ctx, tx); err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`,
			m.Version, m.Name); err != nil {
			return fmt.Errorf("migration %s: record it: %w", m.Name, err)
		}
		return nil
	})
}

// goSteps are the parts of migrations that SQL cannot do, run after the
// SQL of the migration with its number, in its transaction: a database is
// either of the old layout or of the new one, whole.
//
// The tsvectors are written anew after the migrations when the text
// analysis changed (checkAnalysis), which every migration before 0009
// counts as: steps 4 (the positions of tariff text weighted) and 6 (texts
// analyzed in their language) re-indexed before it existed. Step 5 derived
// the state of every tender as a lookup; step 8 now derives it with the
// rest of a tender's standing, which needs the columns of measures that 5
// predates.
var goSteps = map[int]func(ctx context.Context, tx pgx.Tx) error{
	8:  fillMeasures, // prices and deadlines, code prefixes, tenders' participants
	17: fillEnds,     // the ends of contracts' terms
	// 18 made the facts table; 20 gave it the complaint column, which
	// the facts of every kind are written with, and fills it.
	20: fillFacts, // what each record contributes to an aggregation
	22: fillBids,  // the participants of protocols; contracts' statuses in their facts
}
