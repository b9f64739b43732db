package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// seqBits is the width of the sequence within one second of a rid: up to
// 4,194,304 records may carry dates within the same second.
const seqBits = 22

// maxSecond keeps rid within int64: dates after it (year 71,700) share its
// second.
const maxSecond = 1<<(63-seqBits) - 1

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
func (s *Store) Put(ctx context.Context, records []tenderbase.Record) (tenderbase.PutResult, error) {
	var res tenderbase.PutResult
	if len(records) == 0 {
		return res, nil
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
			return fmt.Errorf("lock for writing: %w", err)
		}
		w := writer{q: tx, stems: textproc.Stemmer{}}
		for _, r := range records {
			if err := w.put(ctx, r, &res); err != nil {
				return fmt.Errorf("put %s %s: %w", r.Kind(), r.Key(), err)
			}
		}
		if res.Inserted+res.Replaced+res.Older == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE generation SET n = n + 1`); err != nil {
			return fmt.Errorf("count the generation: %w", err)
		}
		return nil
	})
	if err != nil {
		return tenderbase.PutResult{}, fmt.Errorf("put: %w", err)
	}
	return res, nil
}

// writer applies records within one write transaction.
type writer struct {
	q     querier
	stems textproc.Stemmer
}

// current is what is stored of a record's current version.
type current struct {
	rid  int64
	rev  int
	hash []byte
}

// put stores one record and counts what it did; a withdrawal then
// withdraws its target.
func (w writer) put(ctx context.Context, r tenderbase.Record, res *tenderbase.PutResult) error {
	if err := w.store(ctx, r, res); err != nil {
		return err
	}
	if wd, ok := r.(*tenderbase.Withdrawal); ok {
		return w.withdraw(ctx, wd)
	}
	return nil
}

// store stores one record and counts what it did.
func (w writer) store(ctx context.Context, r tenderbase.Record, res *tenderbase.PutResult) error {
	e, err := encode(r)
	if err != nil {
		return err
	}
	cur, found, err := w.current(ctx, e)
	if err != nil {
		return err
	}
	if !found {
		// A withdrawn record has no current row and never gets one.
		_, gone, err := withdrawnBy(ctx, w.q, e.kind, e.key)
		if err != nil {
			return err
		}
		if !gone {
			res.Inserted++
			return w.insert(ctx, e)
		}
	}
	vid, oldHash, err := w.version(ctx, e)
	if err != nil {
		return err
	}
	if vid != 0 && bytes.Equal(oldHash, e.hash) {
		res.Unchanged++
		return nil
	}
	if vid, err = w.saveVersion(ctx, e, vid); err != nil {
		return err
	}
	switch {
	case !found:
		res.Older++ // withdrawn: kept as history only
		return nil
	case e.rev < cur.rev:
		res.Older++
		return w.addLookups(ctx, e, cur.rid)
	}
	res.Replaced++
	return w.replace(ctx, e, cur, vid)
}

func (w writer) current(ctx context.Context, e encoded) (current, bool, error) {
	var c current
	err := w.q.QueryRow(ctx, `
		SELECT r.rid, v.revision, v.hash FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = $1 AND r.key = $2`, e.kind, e.key).Scan(&c.rid, &c.rev, &c.hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("read current version: %w", err)
	}
	return c, true, nil
}

// version returns the id and hash of the stored version with e's revision,
// or a zero id when there is none.
func (w writer) version(ctx context.Context, e encoded) (int64, []byte, error) {
	var id int64
	var hash []byte
	err := w.q.QueryRow(ctx, `
		SELECT id, hash FROM versions WHERE kind = $1 AND key = $2 AND revision = $3`,
		e.kind, e.key, e.rev).Scan(&id, &hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read version %d: %w", e.rev, err)
	}
	return id, hash, nil
}

// saveVersion stores e as a new version, or over the version vid with the
// same revision (a correction), and returns its id.
func (w writer) saveVersion(ctx context.Context, e encoded, vid int64) (int64, error) {
	if vid != 0 {
		if _, err := w.q.Exec(ctx, `UPDATE versions SET hash = $1, body = $2 WHERE id = $3`, e.hash, e.body, vid); err != nil {
			return 0, fmt.Errorf("correct version %d: %w", e.rev, err)
		}
		return vid, nil
	}
	err := w.q.QueryRow(ctx, `
		INSERT INTO versions (kind, key, revision, hash, body) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		e.kind, e.key, e.rev, e.hash, e.body).Scan(&vid)
	if err != nil {
		return 0, fmt.Errorf("store version %d: %w", e.rev, err)
	}
	return vid, nil
}

// insert stores a record whose kind and key are new.
func (w writer) insert(ctx context.Context, e encoded) error {
	vid, err := w.saveVersion(ctx, e, 0)
	if err != nil {
		return err
	}
	rid, err := w.newRID(ctx, e.rec.Date())
	if err != nil {
		return err
	}
	d := newDocument(w.stems.Fields(e.rec.SearchText()))
	if _, err := w.q.Exec(ctx, `
		INSERT INTO records (rid, kind, key, version, flags, tsv, lossy)
		VALUES ($1, $2, $3, $4, $5, $6::tsvector, $7)`,
		rid, e.kind, e.key, vid, flags(e.rec), d.tsv, d.lossy); err != nil {
		return fmt.Errorf("store record: %w", err)
	}
	return w.addLookups(ctx, e, rid)
}

// replace makes version vid the current one. A record whose date moved to
// another second gets a new rid, so that it sorts by its new date; the
// lookups follow by cascade.
func (w writer) replace(ctx context.Context, e encoded, cur current, vid int64) error {
	rid := cur.rid
	if second(e.rec.Date()) != cur.rid>>seqBits {
		var err error
		if rid, err = w.newRID(ctx, e.rec.Date()); err != nil {
			return err
		}
	}
	d := newDocument(w.stems.Fields(e.rec.SearchText()))
	if _, err := w.q.Exec(ctx, `
		UPDATE records SET rid = $1, version = $2, flags = $3, tsv = $4::tsvector, lossy = $5
		WHERE rid = $6`, rid, vid, flags(e.rec), d.tsv, d.lossy, cur.rid); err != nil {
		return fmt.Errorf("replace record: %w", err)
	}
	return w.addLookups(ctx, e, rid)
}

// flags returns r's flags, never nil, since the column is NOT NULL.
func flags(r tenderbase.Record) []string {
	if f := r.Flags(); f != nil {
		return f
	}
	return []string{}
}

// newRID returns the next free rid in the second of date: later stored
// records of the same second sort first.
func (w writer) newRID(ctx context.Context, date time.Time) (int64, error) {
	lo := second(date) << seqBits
	hi := lo + 1<<seqBits
	var last *int64
	if err := w.q.QueryRow(ctx, `SELECT max(rid) FROM records WHERE rid >= $1 AND rid < $2`,
		lo, hi).Scan(&last); err != nil {
		return 0, fmt.Errorf("allocate rid: %w", err)
	}
	if last == nil {
		return lo, nil
	}
	if *last+1 >= hi {
		return 0, fmt.Errorf("allocate rid: more than %d records dated %s", 1<<seqBits, date.UTC().Format(time.RFC3339))
	}
	return *last + 1, nil
}

// second returns the unix second of a date, clamped to what a rid can hold;
// dates before 1970 (and zero dates) sort as 1970.
func second(date time.Time) int64 {
	return min(max(date.Unix(), 0), maxSecond)
}

// addLookups points every lookup of this version at the record's rid; the
// lookups of earlier versions stay.
func (w writer) addLookups(ctx context.Context, e encoded, rid int64) error {
	ls := e.rec.Lookups()
	if len(ls) == 0 {
		return nil
	}
	fields, values := make([]string, len(ls)), make([]string, len(ls))
	for i, l := range ls {
		fields[i], values[i] = l.Field, l.Value
	}
	if _, err := w.q.Exec(ctx, `
		INSERT INTO lookups (kind, field, value, rid)
		SELECT $1, f, v, $4 FROM unnest($2::text[], $3::text[]) AS l (f, v)
		ON CONFLICT DO NOTHING`, e.kind, fields, values, rid); err != nil {
		return fmt.Errorf("store lookups: %w", err)
	}
	return nil
}
