package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations are the schema changes, applied in the order of the number
// their file names start with ("0001_records.sql").
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrateLock is the advisory lock key held while migrating, so that
// servers started at once apply each migration once.
const migrateLock = 0x7462_6d69_6772 // "tbmigr"

// migration is one schema change.
type migration struct {
	version int
	name    string
	sql     string
}

// migrate applies the migrations the database has not seen, each in its own
// transaction together with its row in schema_migrations, so that a failed
// migration leaves the schema as it was. It holds an advisory lock on one
// connection throughout.
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
		if slices.Contains(applied, m.version) {
			continue
		}
		if err := apply(ctx, c.Conn(), m); err != nil {
			return err
		}
		logger.Info("applied migration", "version", m.version, "name", m.name)
	}
	return nil
}

func loadMigrations() ([]migration, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var all []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", base)
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return nil, err
		}
		all = append(all, migration{version: v, name: base, sql: string(body)})
	}
	slices.SortFunc(all, func(a, b migration) int { return a.version - b.version })
	return all, nil
}

// apply runs one migration. Without arguments Exec uses the simple
// protocol, which runs the several statements of a file.
func apply(ctx context.Context, c *pgx.Conn, m migration) error {
	return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`,
			m.version, m.name); err != nil {
			return fmt.Errorf("migration %s: record it: %w", m.name, err)
		}
		return nil
	})
}
