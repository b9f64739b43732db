package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// reindexProgressEvery is how many records pass between two progress lines
// of a re-index.
const reindexProgressEvery = 50_000

// checkAnalysis makes the full-text tables those of this build's text
// analysis (textproc.AnalysisVersion). A store indexed with another one is
// indexed again, in one transaction, before it serves: a search never sees
// words analyzed two ways, and a re-index cut short leaves the old index
// whole, to be done again at the next open.
func checkAnalysis(ctx context.Context, db *sql.DB, logger *slog.Logger) error {
	want := textproc.AnalysisVersion()
	var have string
	err := db.QueryRowContext(ctx, `SELECT version FROM analysis`).Scan(&have)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read the index's analysis: %w", describe(err))
	}
	if have == want {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("re-index: %w", describe(err))
	}
	defer tx.Rollback()
	if err := reindexAll(ctx, tx, logger, have, want); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM analysis`); err != nil {
		return fmt.Errorf("re-index: %w", describe(err))
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO analysis (version) VALUES (?)`, want); err != nil {
		return fmt.Errorf("re-index: %w", describe(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("re-index: commit: %w", describe(err))
	}
	return nil
}

// reindexAll empties every full-text table and writes the row of every
// current record again, logging its progress.
func reindexAll(ctx context.Context, tx *sql.Tx, logger *slog.Logger, from, to string) error {
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM records`).Scan(&total); err != nil {
		return fmt.Errorf("re-index: %w", describe(err))
	}
	for _, k := range tenderbase.Kinds {
		t := ftsTables[k].name
		if _, err := tx.ExecContext(ctx, "INSERT INTO "+t+" ("+t+") VALUES ('delete-all')"); err != nil {
			return fmt.Errorf("re-index: empty %s: %w", t, describe(err))
		}
	}
	if total == 0 {
		return nil
	}
	logger.Info("indexing the records again for a new text analysis", "records", total, "from", from, "to", to)
	start := time.Now()
	st := textproc.Stemmer{}
	done := 0
	err := eachCurrentRecord(ctx, tx, func(r ridRecord) error {
		if err := insertDocument(ctx, tx, r, st); err != nil {
			return err
		}
		if done++; done%reindexProgressEvery == 0 {
			logger.Info("re-indexing", "done", done, "of", total)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("re-index: %w", err)
	}
	logger.Info("re-indexed", "records", done, "seconds", int(time.Since(start).Seconds()))
	return nil
}
