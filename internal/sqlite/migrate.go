package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/migration"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// migrations are the schema changes, applied in the order of the number
// their file names start with ("0001_records.sql").
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrate applies the migrations the database has not seen, each in its own
// transaction together with its row in schema_migrations, so that a failed
// migration leaves the schema as it was.
func migrate(ctx context.Context, db *sql.DB, logger *slog.Logger) error {
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema table: %w", describe(err))
	}
	applied, err := appliedMigrations(ctx, db)
	if err != nil {
		return err
	}
	for _, m := range all {
		if applied[m.Version] {
			continue
		}
		if err := apply(ctx, db, m); err != nil {
			return err
		}
		logger.Info("applied migration", "version", m.Version, "name", m.Name)
	}
	return nil
}

// goSteps are the parts of migrations that SQL cannot do, run after the
// SQL of the migration with its number, in its transaction: a database is
// either of the old layout or of the new one, whole.
//
// The full-text tables are written anew after the migrations when the text
// analysis changed (checkAnalysis), which every migration before 0014
// counts as: steps 7 (the text of tariff fields in columns of its own) and
// 10 (texts analyzed in their language) re-indexed before it existed.
// Step 8 derived the state of every tender as a lookup; step 13 now
// derives it with the rest of a tender's standing, which needs the
// measures table that 8 predates.
var goSteps = map[int]func(ctx context.Context, tx *sql.Tx) error{
	13: fillMeasures, // prices and deadlines, code prefixes, tenders' participants
	22: fillEnds,     // the ends of contracts' terms
	// 23 made the facts table; 25 gave it the complaint column, which
	// the facts of every kind are written with, and fills it.
	25: fillFacts, // what each record contributes to an aggregation
	27: fillBids,  // the participants of protocols; contracts' statuses in their facts
}

// reindexBatch is how many records reindex reads at a time.
const reindexBatch = 1000

// eachCurrentRecord calls f with every current record, in rid order, a
// batch at a time.
func eachCurrentRecord(ctx context.Context, tx *sql.Tx, f func(ridRecord) error) error {
	return eachCurrentRecordOf(ctx, tx, "", f)
}

// eachCurrentRecordOf calls f with every current record of kind k, or of
// every kind when k is "", in rid order, a batch at a time.
func eachCurrentRecordOf(ctx context.Context, tx *sql.Tx, k tenderbase.Kind, f func(ridRecord) error) error {
	after := int64(math.MinInt64)
	for {
		batch, err := currentRecords(ctx, tx, k, after)
		if err != nil {
			return err
		}
		for _, r := range batch {
			if err := f(r); err != nil {
				return err
			}
			after = r.rid
		}
		if len(batch) < reindexBatch {
			return nil
		}
	}
}

// ridRecord is a current record with its rid.
type ridRecord struct {
	rid int64
	rec tenderbase.Record
}

// currentRecords returns the next reindexBatch current records of kind k
// (every kind for "") after the rid after, in rid order.
func currentRecords(ctx context.Context, tx *sql.Tx, k tenderbase.Kind, after int64) ([]ridRecord, error) {
	rows, err := tx.QueryContext(ctx, `
		SELECT r.rid, r.kind, v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.rid > ? AND (? = '' OR r.kind = ?) ORDER BY r.rid LIMIT ?`, after, string(k), string(k), reindexBatch)
	return scanRidRecords(rows, err, "read records to reindex")
}

// scanRidRecords decodes the rows of a query of (rid, kind, body), err
// being the query's; what says what the reading was for in an error.
func scanRidRecords(rows *sql.Rows, err error, what string) ([]ridRecord, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, describe(err))
	}
	defer rows.Close()
	var out []ridRecord
	for rows.Next() {
		var r ridRecord
		var kind string
		var body []byte
		if err := rows.Scan(&r.rid, &kind, &body); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if r.rec, err = versioning.Decode(tenderbase.Kind(kind), body); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// loadMigrations returns the migrations of this build, read once: they are
// embedded, and GET /ready compares the database with them at every probe.
var loadMigrations = sync.OnceValues(func() ([]migration.Migration, error) {
	return migration.Load(migrations, "migrations/*.sql")
})

func appliedMigrations(ctx context.Context, db *sql.DB) (map[int]bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("read schema version: %w", describe(err))
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("read schema version: %w", err)
		}
		applied[v] = true
	}
	return applied, rows.Err()
}

func apply(ctx context.Context, db *sql.DB, m migration.Migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: %w", m.Name, describe(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("migration %s: %w", m.Name, describe(err))
	}
	if step := goSteps[m.Version]; step != nil {
		if err := step(ctx, tx); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("migration %s: record it: %w", m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migration %s: commit: %w", m.Name, describe(err))
	}
	return nil
}
