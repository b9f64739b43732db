package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// reindexProgressEvery is how many records pass between two progress lines
// of a re-index.
const reindexProgressEvery = 50_000

// checkAnalysis makes the full-text tables those of this build's text
// analysis (postings.IndexVersion). A store indexed with another one is
// indexed again, in one transaction, before it serves: a search never sees
// words analyzed two ways, and a re-index cut short leaves the old index
// whole, to be done again at the next open.
func checkAnalysis(ctx context.Context, db *sql.DB, logger *slog.Logger) error {
	want := postings.IndexVersion()
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
	// Another process's cached totals and postings chunks are of the
	// generation before.
	if _, err := raiseGeneration(ctx, txStatements{tx}); err != nil {
		return fmt.Errorf("re-index: %w", err)
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
	for _, stmt := range []string{`DELETE FROM postings`, `UPDATE kinds SET docs = 0`} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("re-index: %w", describe(err))
		}
	}
	if total == 0 {
		return nil
	}
	logger.Info("indexing the records again for a new text analysis", "records", total, "from", from, "to", to)
	start := time.Now()
	ri := reindexer{tx: tx, st: textproc.Stemmer{}, changes: &postings.Changes{}, docs: map[tenderbase.Kind]uint32{}}
	done := 0
	err := eachCurrentRecord(ctx, tx, func(r ridRecord) error {
		if err := ri.index(ctx, r); err != nil {
			return err
		}
		if done++; done%reindexProgressEvery == 0 {
			logger.Info("re-indexing", "done", done, "of", total)
		}
		return nil
	})
	if err == nil {
		err = ri.finish(ctx)
	}
	if err != nil {
		return fmt.Errorf("re-index: %w", err)
	}
	logger.Info("re-indexed", "records", done, "seconds", int(time.Since(start).Seconds()))
	return nil
}

// maxPendingPostings bounds the postings a re-index holds in memory before
// it writes them: about 100 MB.
const maxPendingPostings = 4 << 20

// reindexer writes the full-text rows and postings of records anew, giving
// each its kind's next doc, in rid order.
type reindexer struct {
	tx      *sql.Tx
	st      textproc.Stemmer
	changes *postings.Changes
	docs    map[tenderbase.Kind]uint32 // the next doc of each kind
}

func (ri *reindexer) index(ctx context.Context, r ridRecord) error {
	k := r.rec.Kind()
	doc := ri.docs[k]
	ri.docs[k]++
	d := newDocument(r.rec, ri.st)
	if _, err := ri.tx.ExecContext(ctx, ftsTables[k].insert, d.args(r.rid)...); err != nil {
		return fmt.Errorf("%s %s: %w", k, r.rec.Key(), describe(err))
	}
	if _, err := ri.tx.ExecContext(ctx, `UPDATE records SET doc = ? WHERE rid = ?`, doc, r.rid); err != nil {
		return fmt.Errorf("%s %s: %w", k, r.rec.Key(), describe(err))
	}
	ri.changes.Add(k, doc, d.terms)
	if ri.changes.Pending() >= maxPendingPostings {
		return ri.changes.Flush(ctx, chunks{txStatements{ri.tx}})
	}
	return nil
}

// finish writes the postings still held and the kinds' doc counters.
func (ri *reindexer) finish(ctx context.Context) error {
	if err := ri.changes.Flush(ctx, chunks{txStatements{ri.tx}}); err != nil {
		return err
	}
	for k, n := range ri.docs {
		if _, err := ri.tx.ExecContext(ctx, `UPDATE kinds SET docs = ? WHERE kind = ?`, n, string(k)); err != nil {
			return fmt.Errorf("count the docs of %s: %w", k, describe(err))
		}
	}
	return nil
}
