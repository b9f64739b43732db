package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// reindexProgressEvery is how many records pass between two progress lines
// of a re-index.
const reindexProgressEvery = 50_000

// analysisOf returns the text analysis the tsvectors were written with, ""
// for none or a database without the table.
func analysisOf(ctx context.Context, c *pgx.Conn) (string, error) {
	var exists bool
	if err := c.QueryRow(ctx, `SELECT to_regclass('analysis') IS NOT NULL`).Scan(&exists); err != nil || !exists {
		return "", err
	}
	var have string
	if err := c.QueryRow(ctx, `SELECT version FROM analysis`).Scan(&have); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("read the index's analysis: %w", err)
	}
	return have, nil
}

// checkAnalysis makes the tsvectors those of this build's text analysis
// (textproc.AnalysisVersion). A store indexed with another one is indexed
// again, in one transaction, before it serves: a search never sees words
// analyzed two ways, and a re-index cut short leaves the old index whole,
// to be done again at the next open. The caller holds the migration lock.
func checkAnalysis(ctx context.Context, c *pgx.Conn, logger *slog.Logger) error {
	want := textproc.AnalysisVersion()
	have, err := analysisOf(ctx, c)
	if err != nil || have == want {
		return err
	}
	return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
		if err := reindexAll(ctx, tx, logger, have, want); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM analysis`); err != nil {
			return fmt.Errorf("re-index: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO analysis (version) VALUES ($1)`, want); err != nil {
			return fmt.Errorf("re-index: %w", err)
		}
		return nil
	})
}

// reindexAll writes anew the tsvector of every current record, logging its
// progress.
func reindexAll(ctx context.Context, tx pgx.Tx, logger *slog.Logger, from, to string) error {
	var total int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM records`).Scan(&total); err != nil {
		return fmt.Errorf("re-index: %w", err)
	}
	if total == 0 {
		return nil
	}
	logger.Info("indexing the records again for a new text analysis", "records", total, "from", from, "to", to)
	start := time.Now()
	st := textproc.Stemmer{}
	all := func(tenderbase.Record) bool { return true }
	after, done := int64(math.MinInt64), 0
	for {
		var n int
		var err error
		if after, n, err = reindexAfter(ctx, tx, st, all, after); err != nil {
			return fmt.Errorf("re-index: %w", err)
		}
		if done/reindexProgressEvery != (done+n)/reindexProgressEvery {
			logger.Info("re-indexing", "done", done+n, "of", total)
		}
		if done += n; n < reindexBatch {
			break
		}
	}
	logger.Info("re-indexed", "records", done, "seconds", int(time.Since(start).Seconds()))
	return nil
}
