package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// seqBits is the width of the sequence within one second of a rid: up to
// 4,194,304 records may carry dates within the same second.
const seqBits = 22

// maxSecond keeps rid within int64: dates after it (year 71,700) share its
// second.
const maxSecond = 1<<(63-seqBits) - 1

// writer applies records within one write transaction.
type writer struct {
	c     *conn
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
	if _, ok := ftsTables[r.Kind()]; !ok {
		return tenderbase.Errorf(tenderbase.EINVALID, "unknown record kind %q", r.Kind())
	}
	cur, found, err := w.current(ctx, e)
	if err != nil {
		return err
	}
	if !found {
		// A withdrawn record has no current row and never gets one.
		gone, err := w.withdrawn(ctx, e.kind, e.key)
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
	if vid != 0 && sameHash(oldHash, e.hash) {
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
	err := w.c.queryRow(ctx, `
		SELECT r.rid, v.revision, v.hash FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = ? AND r.key = ?`, e.kind, e.key).Scan(&c.rid, &c.rev, &c.hash)
	if errors.Is(err, sql.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("read current version: %w", describe(err))
	}
	return c, true, nil
}

// version returns the id and hash of the stored version with e's revision,
// or a zero id when there is none.
func (w writer) version(ctx context.Context, e encoded) (int64, []byte, error) {
	var id int64
	var hash []byte
	err := w.c.queryRow(ctx, `
		SELECT id, hash FROM versions WHERE kind = ? AND key = ? AND revision = ?`,
		e.kind, e.key, e.rev).Scan(&id, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read version %d: %w", e.rev, describe(err))
	}
	return id, hash, nil
}

// saveVersion stores e as a new version, or over the version vid with the
// same revision (a correction), and returns its id.
func (w writer) saveVersion(ctx context.Context, e encoded, vid int64) (int64, error) {
	if vid != 0 {
		_, err := w.c.exec(ctx, `UPDATE versions SET hash = ?, body = ? WHERE id = ?`, e.hash, e.body, vid)
		if err != nil {
			return 0, fmt.Errorf("correct version %d: %w", e.rev, describe(err))
		}
		return vid, nil
	}
	res, err := w.c.exec(ctx, `
		INSERT INTO versions (kind, key, revision, hash, body) VALUES (?, ?, ?, ?, ?)`,
		e.kind, e.key, e.rev, e.hash, e.body)
	if err != nil {
		return 0, fmt.Errorf("store version %d: %w", e.rev, describe(err))
	}
	return res.LastInsertId()
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
	if _, err := w.c.exec(ctx, `
		INSERT INTO records (rid, kind, key, version) VALUES (?, ?, ?, ?)`,
		rid, e.kind, e.key, vid); err != nil {
		return fmt.Errorf("store record: %w", describe(err))
	}
	if _, err := w.c.exec(ctx, `
		INSERT INTO kinds (kind, records) VALUES (?, 1)
		ON CONFLICT (kind) DO UPDATE SET records = records + 1`, e.kind); err != nil {
		return fmt.Errorf("count record: %w", describe(err))
	}
	if err := w.index(ctx, e.rec, rid); err != nil {
		return err
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
	if _, err := w.c.exec(ctx, `UPDATE records SET rid = ?, version = ? WHERE rid = ?`,
		rid, vid, cur.rid); err != nil {
		return fmt.Errorf("replace record: %w", describe(err))
	}
	if _, err := w.c.exec(ctx, ftsTables[e.rec.Kind()].delete, cur.rid); err != nil {
		return fmt.Errorf("unindex old version: %w", describe(err))
	}
	if err := w.index(ctx, e.rec, rid); err != nil {
		return err
	}
	return w.addLookups(ctx, e, rid)
}

// newRID returns the next free rid in the second of date: later stored
// records of the same second sort first.
func (w writer) newRID(ctx context.Context, date time.Time) (int64, error) {
	lo := second(date) << seqBits
	hi := lo + 1<<seqBits
	var last sql.NullInt64
	if err := w.c.queryRow(ctx, `SELECT max(rid) FROM records WHERE rid >= ? AND rid < ?`,
		lo, hi).Scan(&last); err != nil {
		return 0, fmt.Errorf("allocate rid: %w", describe(err))
	}
	if !last.Valid {
		return lo, nil
	}
	if last.Int64+1 >= hi {
		return 0, fmt.Errorf("allocate rid: more than %d records dated %s", 1<<seqBits, date.UTC().Format(time.RFC3339))
	}
	return last.Int64 + 1, nil
}

// second returns the unix second of a date, clamped to what a rid can hold;
// dates before 1970 (and zero dates) sort as 1970.
func second(date time.Time) int64 {
	return min(max(date.Unix(), 0), maxSecond)
}

// index writes the record's row in its kind's full-text table.
func (w writer) index(ctx context.Context, r tenderbase.Record, rid int64) error {
	d := newDocument(r, w.stems)
	if _, err := w.c.exec(ctx, ftsTables[r.Kind()].insert, rid, d.stems, d.forms, d.flags); err != nil {
		return fmt.Errorf("index: %w", describe(err))
	}
	return nil
}

// addLookups points every lookup of this version at the record's rid; the
// lookups of earlier versions stay.
func (w writer) addLookups(ctx context.Context, e encoded, rid int64) error {
	for _, l := range e.rec.Lookups() {
		if _, err := w.c.exec(ctx, `
			INSERT OR IGNORE INTO lookups (kind, field, value, rid) VALUES (?, ?, ?, ?)`,
			e.kind, l.Field, l.Value, rid); err != nil {
			return fmt.Errorf("store lookup %s: %w", l.Field, describe(err))
		}
	}
	return nil
}
