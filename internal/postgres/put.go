package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// writeLock is the advisory lock key every Put holds for its transaction.
// Puts from several servers then follow one another, so that rids are
// allocated without collisions and two versions of one record arriving at
// once are ordered by their revisions, not by a race.
const writeLock = 0x7462_7772_6974 // "tbwrit"

// querier is a pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Put stores records in one transaction, as tenderbase.Store says.
func (s *Store) Put(ctx context.Context, records []tenderbase.Record) (_ tenderbase.PutResult, err error) {
	defer classify(&err)
	var res tenderbase.PutResult
	if len(records) == 0 {
		return res, nil
	}
	ahead := textproc.Stemmer{}
	indexes := versioning.ComputeAhead(records, func(r tenderbase.Record) indexed { return indexOf(ahead, r) })
	defer indexes.Stop()
	var postingsWrite *postings.RecentWrite
	var gen int64
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
			return fmt.Errorf("lock for writing: %w", err)
		}
		w := writer{q: tx, stems: textproc.Stemmer{}, changes: &postings.Changes{}, feed: &versioning.FeedNotes{}, indexes: indexes}
		settling, err := versioning.BeforeSettling(ctx, stateWriter{q: tx}, records)
		if err != nil {
			return err
		}
		if err := versioning.PutAll(ctx, w, records, &res); err != nil {
			return err
		}
		if !res.Changed() {
			return nil
		}
		states, err := settling.Settle(ctx, stateWriter{q: tx})
		if err != nil {
			return err
		}
		w.feed.Add(states...)
		// Last, so that the postings of the lots SettleLots writes go too.
		if err := versioning.SettleLots(ctx, w, stateWriter{q: tx}, records); err != nil {
			return err
		}
		if gen, err = raiseGeneration(ctx, tx); err != nil {
			return err
		}
		// The chunks the last Put kept are good if it left the generation
		// before this one.
		postingsWrite = s.recent.Write(chunks{tx}, gen-1)
		if err := w.changes.Flush(ctx, postingsWrite); err != nil {
			return err
		}
		return writeFeed(ctx, tx, w.feed, time.Now())
	})
	if err != nil {
		return tenderbase.PutResult{}, fmt.Errorf("put: %w", err)
	}
	if postingsWrite != nil {
		postingsWrite.Committed(gen)
	}
	s.keepUp(ctx, res.Inserted+res.Replaced+res.Older)
	return res, nil
}

// raiseGeneration raises the generation within a write's transaction, and
// returns the new one.
func raiseGeneration(ctx context.Context, q querier) (int64, error) {
	var gen int64
	if err := q.QueryRow(ctx, `UPDATE generation SET n = n + 1 RETURNING n`).Scan(&gen); err != nil {
		return 0, fmt.Errorf("count the generation: %w", err)
	}
	return gen, nil
}

// writer applies records within one write transaction.
type writer struct {
	q     pgx.Tx
	stems textproc.Stemmer
	// changes gathers the postings of the records written, to be flushed
	// before the transaction commits.
	changes *postings.Changes
	feed    *versioning.FeedNotes
	// indexes are the records' index entries, analyzed ahead on another
	// goroutine; nil analyzes each here.
	indexes *versioning.Ahead[indexed]
}

// indexed is what the store indexes of a record: the tsvector of its
// texts, their terms in the postings, its flags and its measures.
type indexed struct {
	document
	terms    []string
	flags    []string // never nil: the column is an array
	price    *float64
	deadline *int64
	ends     *int64
}

// indexOf analyzes r for the index.
func indexOf(st textproc.Stemmer, r tenderbase.Record) indexed {
	open, tariff := query.IndexedFields(st, r)
	x := indexed{document: newDocument(open, tariff), flags: r.Flags()}
	if x.flags == nil {
		x.flags = []string{}
	}
	x.terms = postings.Terms(open, tariff, postings.Titles(r), x.flags)
	x.price, x.deadline = measures(r)
	x.ends = endsOf(r)
	return x
}

// index returns r's index entry, analyzed ahead or now.
func (w writer) index(r tenderbase.Record) indexed {
	return w.indexes.Of(r, func(r tenderbase.Record) indexed { return indexOf(w.stems, r) })
}

// Current returns the current version of e's record, or else whether it
// was withdrawn, in one round trip.
func (w writer) Current(ctx context.Context, e versioning.Encoded) (versioning.Current, bool, bool, error) {
	var rid, rev *int64
	var withdrawn bool
	err := w.q.QueryRow(ctx, `
		SELECT r.rid, v.revision, EXISTS (SELECT 1 FROM withdrawn WHERE kind = $1 AND key = $2)
		FROM (SELECT 1) one
		LEFT JOIN records r ON r.kind = $1 AND r.key = $2
		LEFT JOIN versions v ON v.id = r.version`, e.Kind, e.Key).Scan(&rid, &rev, &withdrawn)
	if err != nil {
		return versioning.Current{}, false, false, fmt.Errorf("read current version: %w", err)
	}
	if rid == nil {
		return versioning.Current{}, false, withdrawn, nil
	}
	return versioning.Current{RID: *rid, Rev: int(*rev)}, true, false, nil
}

// CurrentBody returns the body of the current version of a record, or nil.
// The row is locked, so that two imports merging into one record take turns.
func (w writer) CurrentBody(ctx context.Context, kind, key string) ([]byte, error) {
	var body []byte
	err := w.q.QueryRow(ctx, `
		SELECT v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = $1 AND r.key = $2 FOR UPDATE OF r`, kind, key).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read current body: %w", err)
	}
	return body, nil
}

// Version returns the id and hash of the stored version with e's revision,
// or a zero id when there is none.
func (w writer) Version(ctx context.Context, e versioning.Encoded) (int64, []byte, error) {
	var id int64
	var hash []byte
	err := w.q.QueryRow(ctx, `
		SELECT id, hash FROM versions WHERE kind = $1 AND key = $2 AND revision = $3`,
		e.Kind, e.Key, e.Rev).Scan(&id, &hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read version %d: %w", e.Rev, err)
	}
	return id, hash, nil
}

// SaveVersion stores e as a new version, or over the version vid with the
// same revision (a correction), and returns its id.
func (w writer) SaveVersion(ctx context.Context, e versioning.Encoded, vid int64) (int64, error) {
	if vid != 0 {
		// The postings of a current version corrected are those of its
		// old body, which is read before it is overwritten.
		if _, err := w.unpost(ctx, e.Rec.Kind(), `r.kind = $1 AND r.key = $2 AND r.version = $3`, e.Kind, e.Key, vid); err != nil {
			return 0, err
		}
		if _, err := w.q.Exec(ctx, `UPDATE versions SET hash = $1, body = $2 WHERE id = $3`, e.Hash, e.Body, vid); err != nil {
			return 0, fmt.Errorf("correct version %d: %w", e.Rev, err)
		}
		return vid, nil
	}
	err := w.q.QueryRow(ctx, `
		INSERT INTO versions (kind, key, revision, hash, body) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		e.Kind, e.Key, e.Rev, e.Hash, e.Body).Scan(&vid)
	if err != nil {
		return 0, fmt.Errorf("store version %d: %w", e.Rev, err)
	}
	return vid, nil
}

// Insert stores a record whose kind and key are new.
func (w writer) Insert(ctx context.Context, e versioning.Encoded) error {
	lo, hi := versioning.RIDs(e.Rec.Date())
	x := w.index(e.Rec)
	fields, values := lookups(e.Rec)
	// One statement, so that an import of new records costs one round trip
	// a record beyond its reads. The next rid of the second is taken under
	// the write lock, so no other Put can take it meanwhile.
	// The kind's counter gives the record its doc.
	var rid, doc int64
	err := w.q.QueryRow(ctx, `
		WITH v AS (
			INSERT INTO versions (kind, key, revision, hash, body) VALUES ($1, $2, $3, $4, $5) RETURNING id
		), next AS (
			SELECT coalesce(max(rid) + 1, $6) AS rid FROM records WHERE rid >= $6 AND rid < $7
		), d AS (
			INSERT INTO doc_counters (kind, next) VALUES ($1, 1)
			ON CONFLICT (kind) DO UPDATE SET next = doc_counters.next + 1
			RETURNING next - 1 AS doc
		), r AS (
			INSERT INTO records (rid, kind, key, version, flags, tsv, lossy, tariff, price, deadline, ends, doc)
			SELECT next.rid, $1, $2, v.id, $8, $9::tsvector, $10, $13, $14, $15, $16, d.doc FROM v, next, d WHERE next.rid < $7
			RETURNING rid, doc
		), l AS (
			INSERT INTO lookups (kind, field, value, rid)
			SELECT $1, f, x, r.rid FROM r, unnest($11::text[], $12::text[]) AS u (f, x)
			ON CONFLICT DO NOTHING
		)
		SELECT rid, doc FROM r`,
		e.Kind, e.Key, e.Rev, e.Hash, e.Body, lo, hi, x.flags, x.tsv, x.lossy, fields, values, x.tariff, x.price, x.deadline, x.ends).Scan(&rid, &doc)
	if errors.Is(err, pgx.ErrNoRows) {
		return versioning.ErrFullSecond(e.Rec.Date())
	}
	if err != nil {
		return fmt.Errorf("store record: %w", tooLarge(err))
	}
	w.changes.Add(e.Rec.Kind(), uint32(doc), x.terms)
	if err := putFacts(ctx, w.q, e.Rec, rid, doc); err != nil {
		return err
	}
	return putBids(ctx, w.q, e.Rec, rid)
}

// Replace makes version vid the current one. A record whose date moved to
// another second gets a new rid, so that it sorts by its new date, and its
// lookups follow.
func (w writer) Replace(ctx context.Context, e versioning.Encoded, cur versioning.Current, vid int64) error {
	rid := cur.RID
	if versioning.Moved(cur.RID, e.Rec.Date()) {
		var err error
		if rid, err = w.newRID(ctx, e.Rec.Date()); err != nil {
			return err
		}
	}
	doc, err := w.unpost(ctx, e.Rec.Kind(), `r.rid = $1`, cur.RID)
	if err != nil {
		return err
	}
	x := w.index(e.Rec)
	w.changes.Add(e.Rec.Kind(), doc, x.terms)
	if _, err := w.q.Exec(ctx, `
		UPDATE records SET rid = $1, version = $2, flags = $3, tsv = $4::tsvector, lossy = $5, tariff = $7, price = $8, deadline = $9,
			ends = $10
		WHERE rid = $6`, rid, vid, x.flags, x.tsv, x.lossy, cur.RID, x.tariff, x.price, x.deadline, x.ends); err != nil {
		return fmt.Errorf("replace record: %w", tooLarge(err))
	}
	if rid != cur.RID {
		if _, err := w.q.Exec(ctx, `UPDATE lookups SET rid = $1 WHERE rid = $2`, rid, cur.RID); err != nil {
			return fmt.Errorf("move lookups: %w", err)
		}
	}
	// The facts moved with the rid, by their foreign key.
	if err := putFacts(ctx, w.q, e.Rec, rid, int64(doc)); err != nil {
		return err
	}
	if err := putBids(ctx, w.q, e.Rec, rid); err != nil {
		return err
	}
	return w.AddLookups(ctx, e, rid)
}

// programLimitExceeded is the SQLSTATE of a value over one of PostgreSQL's
// limits.
const programLimitExceeded = "54000"

// tooLarge says what it means when PostgreSQL refuses a tsvector over its
// limit of 1 MB: the record's text has too many distinct long words to be
// indexed. The caller can act on that, so it is an invalid record, not an
// internal error.
func tooLarge(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == programLimitExceeded {
		return tenderbase.Errorf(tenderbase.EINVALID,
			"the record's text has too many distinct long words for a PostgreSQL index (a tsvector holds 1 MB)")
	}
	return err
}

// newRID returns the next free rid in the second of date: later stored
// records of the same second sort first.
func (w writer) newRID(ctx context.Context, date time.Time) (int64, error) {
	lo, hi := versioning.RIDs(date)
	var last *int64
	if err := w.q.QueryRow(ctx, `SELECT max(rid) FROM records WHERE rid >= $1 AND rid < $2`,
		lo, hi).Scan(&last); err != nil {
		return 0, fmt.Errorf("allocate rid: %w", err)
	}
	if last == nil {
		return lo, nil
	}
	if *last+1 >= hi {
		return 0, versioning.ErrFullSecond(date)
	}
	return *last + 1, nil
}

// AddLookups points every lookup of this version at the record's rid; the
// lookups of earlier versions stay.
func (w writer) AddLookups(ctx context.Context, e versioning.Encoded, rid int64) error {
	fields, values := lookups(e.Rec)
	if len(fields) == 0 {
		return nil
	}
	if _, err := w.q.Exec(ctx, `
		INSERT INTO lookups (kind, field, value, rid)
		SELECT $1, f, v, $4 FROM unnest($2::text[], $3::text[]) AS l (f, v)
		ON CONFLICT DO NOTHING`, e.Kind, fields, values, rid); err != nil {
		return fmt.Errorf("store lookups: %w", err)
	}
	return nil
}

// lookups returns the fields and values of r's lookups, as two arrays.
func lookups(r tenderbase.Record) (fields, values []string) {
	ls := r.Lookups()
	fields, values = make([]string, len(ls)), make([]string, len(ls))
	for i, l := range ls {
		fields[i], values[i] = l.Field, l.Value
	}
	return fields, values
}
