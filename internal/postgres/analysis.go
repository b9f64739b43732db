package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
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
// (postings.IndexVersion). A store indexed with another one is indexed
// again, in one transaction, before it serves: a search never sees words
// analyzed two ways, and a re-index cut short leaves the old index whole,
// to be done again at the next open. The caller holds the migration lock.
func checkAnalysis(ctx context.Context, c *pgx.Conn, logger *slog.Logger) error {
	want := postings.IndexVersion()
	have, err := analysisOf(ctx, c)
	if err != nil || have == want {
		return err
	}
	return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
		// Puts of other servers wait: they would write postings the
		// re-index writes anew.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
			return fmt.Errorf("re-index: lock for writing: %w", err)
		}
		if err := reindexAll(ctx, tx, logger, have, want); err != nil {
			return err
		}
		// Another server's cached totals and postings chunks are of the
		// generation before.
		if _, err := raiseGeneration(ctx, tx); err != nil {
			return fmt.Errorf("re-index: %w", err)
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
	for _, stmt := range []string{`DELETE FROM postings`, `DELETE FROM doc_counters`} {
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("re-index: %w", err)
		}
	}
	if total == 0 {
		return nil
	}
	logger.Info("indexing the records again for a new text analysis", "records", total, "from", from, "to", to)
	start := time.Now()
	ri := &reindexer{tx: tx, st: textproc.Stemmer{}, changes: &postings.Changes{}, docs: map[tenderbase.Kind]int64{}}
	after, done := int64(math.MinInt64), 0
	for {
		var n int
		var err error
		if after, n, err = ri.after(ctx, after); err != nil {
			return fmt.Errorf("re-index: %w", err)
		}
		if done/reindexProgressEvery != (done+n)/reindexProgressEvery {
			logger.Info("re-indexing", "done", done+n, "of", total)
		}
		if done += n; n < reindexBatch {
			break
		}
	}
	if err := ri.finish(ctx); err != nil {
		return fmt.Errorf("re-index: %w", err)
	}
	logger.Info("re-indexed", "records", done, "seconds", int(time.Since(start).Seconds()))
	return nil
}

// maxPendingPostings bounds the postings a re-index holds in memory before
// it writes them: about 100 MB.
const maxPendingPostings = 4 << 20

// reindexer writes the tsvectors and postings of records anew, giving each
// its kind's next doc, in rid order.
type reindexer struct {
	tx      pgx.Tx
	st      textproc.Stemmer
	changes *postings.Changes
	docs    map[tenderbase.Kind]int64 // the next doc of each kind
}

// finish writes the postings still held and the kinds' doc counters.
func (ri *reindexer) finish(ctx context.Context) error {
	if err := ri.changes.Flush(ctx, chunks{ri.tx}); err != nil {
		return err
	}
	for k, n := range ri.docs {
		if _, err := ri.tx.Exec(ctx, `INSERT INTO doc_counters (kind, next) VALUES ($1, $2)`, string(k), n); err != nil {
			return fmt.Errorf("count the docs of %s: %w", k, err)
		}
	}
	return nil
}

// reindexBatch is how many records reindex reads at a time.
const reindexBatch = 1000

// after writes anew the tsvectors and postings of the next reindexBatch
// records after the rid after, and returns the last rid read and how many
// were.
func (ri *reindexer) after(ctx context.Context, after int64) (int64, int, error) {
	rows, _ := ri.tx.Query(ctx, `
		SELECT r.rid, r.kind, v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.rid > $1 ORDER BY r.rid LIMIT $2`, after, reindexBatch)
	var rids, docs []int64
	var tsvs, flagSets []string
	var lossy, tariff []bool
	var rid int64
	var kind string
	var body []byte
	n, err := pgx.ForEachRow(rows, []any{&rid, &kind, &body}, func() error {
		after = rid
		k := tenderbase.Kind(kind)
		r, err := versioning.Decode(k, body)
		if err != nil {
			return err
		}
		x := indexOf(ri.st, r)
		doc := ri.docs[k]
		ri.docs[k]++
		ri.changes.Add(k, uint32(doc), x.terms)
		rids, docs, tsvs = append(rids, rid), append(docs, doc), append(tsvs, x.tsv)
		flagSets = append(flagSets, strings.Join(x.flags, flagSeparator))
		lossy, tariff = append(lossy, x.lossy), append(tariff, x.tariff)
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("read records to reindex: %w", err)
	}
	if _, err := ri.tx.Exec(ctx, `
		UPDATE records r SET tsv = u.tsv::tsvector, lossy = u.lossy, tariff = u.tariff, doc = u.doc,
			flags = coalesce(string_to_array(u.flags, $6), '{}')
		FROM unnest($1::bigint[], $2::text[], $3::boolean[], $4::boolean[], $5::bigint[], $7::text[]) AS u (rid, tsv, lossy, tariff, doc, flags)
		WHERE r.rid = u.rid`, rids, tsvs, lossy, tariff, docs, flagSeparator, flagSets); err != nil {
		return 0, 0, fmt.Errorf("reindex: %w", tooLarge(err))
	}
	if _, err := ri.tx.Exec(ctx, `UPDATE facts f SET doc = u.doc FROM unnest($1::bigint[], $2::bigint[]) AS u (rid, doc) WHERE f.rid = u.rid`,
		rids, docs); err != nil {
		return 0, 0, fmt.Errorf("reindex the facts' docs: %w", err)
	}
	if ri.changes.Pending() >= maxPendingPostings {
		if err := ri.changes.Flush(ctx, chunks{ri.tx}); err != nil {
			return 0, 0, err
		}
	}
	return after, int(n.RowsAffected()), nil
}
