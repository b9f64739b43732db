package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// writer applies records within one write transaction.
type writer struct {
	c     *conn
	stems textproc.Stemmer
	// changes gathers the postings of the records written, to be flushed
	// before the transaction commits.
	changes *postings.Changes
	// counts and fts gather the changes of table kinds and of the
	// full-text tables, written before commit too.
	counts kindCounts
	fts    ftsWrites
	feed   *versioning.FeedNotes
	// documents are the full-text rows and terms of the records of the
	// Put, analyzed ahead on another goroutine; nil analyzes each here.
	documents *versioning.Ahead[document]
}

// Current returns the current version of e's record, or else whether it
// was withdrawn.
func (w writer) Current(ctx context.Context, e versioning.Encoded) (versioning.Current, bool, bool, error) {
	var c versioning.Current
	err := w.c.queryRow(ctx, `
		SELECT r.rid, v.revision FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = ? AND r.key = ?`, e.Kind, e.Key).Scan(&c.RID, &c.Rev)
	if errors.Is(err, sql.ErrNoRows) {
		_, gone, err := withdrawnBy(ctx, w.c, e.Kind, e.Key)
		return c, false, gone, err
	}
	if err != nil {
		return c, false, false, fmt.Errorf("read current version: %w", describe(err))
	}
	return c, true, false, nil
}

// CurrentBody returns the body of the current version of a record, or nil.
func (w writer) CurrentBody(ctx context.Context, kind, key string) ([]byte, error) {
	var body []byte
	err := w.c.queryRow(ctx, `
		SELECT v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = ? AND r.key = ?`, kind, key).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read current body: %w", describe(err))
	}
	return body, nil
}

// Version returns the id and hash of the stored version with e's revision,
// or a zero id when there is none.
func (w writer) Version(ctx context.Context, e versioning.Encoded) (int64, []byte, error) {
	var id int64
	var hash []byte
	err := w.c.queryRow(ctx, `
		SELECT id, hash FROM versions WHERE kind = ? AND key = ? AND revision = ?`,
		e.Kind, e.Key, e.Rev).Scan(&id, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read version %d: %w", e.Rev, describe(err))
	}
	return id, hash, nil
}

// SaveVersion stores e as a new version, or over the version vid with the
// same revision (a correction), and returns its id.
func (w writer) SaveVersion(ctx context.Context, e versioning.Encoded, vid int64) (int64, error) {
	if vid != 0 {
		// The postings of a current version corrected are those of its
		// old body, which is read before it is overwritten.
		if err := w.unpost(ctx, e.Rec.Kind(), `r.kind = ? AND r.key = ? AND r.version = ?`, e.Kind, e.Key, vid); err != nil {
			return 0, err
		}
		_, err := w.c.exec(ctx, `UPDATE versions SET hash = ?, body = ? WHERE id = ?`, e.Hash, e.Body, vid)
		if err != nil {
			return 0, fmt.Errorf("correct version %d: %w", e.Rev, describe(err))
		}
		return vid, nil
	}
	res, err := w.c.exec(ctx, `
		INSERT INTO versions (kind, key, revision, hash, body) VALUES (?, ?, ?, ?, ?)`,
		e.Kind, e.Key, e.Rev, e.Hash, e.Body)
	if err != nil {
		return 0, fmt.Errorf("store version %d: %w", e.Rev, describe(err))
	}
	return res.LastInsertId()
}

// Insert stores a record whose kind and key are new.
func (w writer) Insert(ctx context.Context, e versioning.Encoded) error {
	vid, err := w.SaveVersion(ctx, e, 0)
	if err != nil {
		return err
	}
	rid, err := w.newRID(ctx, e.Rec.Date())
	if err != nil {
		return err
	}
	doc, err := w.counts.insert(ctx, w.c, e.Kind)
	if err != nil {
		return err
	}
	if _, err := w.c.exec(ctx, `
		INSERT INTO records (rid, kind, key, version, doc) VALUES (?, ?, ?, ?, ?)`,
		rid, e.Kind, e.Key, vid, doc); err != nil {
		return fmt.Errorf("store record: %w", describe(err))
	}
	if err := w.index(ctx, e.Rec, rid, doc); err != nil {
		return err
	}
	return w.AddLookups(ctx, e, rid)
}

// Replace makes version vid the current one. A record whose date moved to
// another second gets a new rid, so that it sorts by its new date; the
// lookups follow by cascade.
func (w writer) Replace(ctx context.Context, e versioning.Encoded, cur versioning.Current, vid int64) error {
	rid := cur.RID
	if versioning.Moved(cur.RID, e.Rec.Date()) {
		var err error
		if rid, err = w.newRID(ctx, e.Rec.Date()); err != nil {
			return err
		}
	}
	doc, err := w.unindex(ctx, e.Rec.Kind(), cur.RID)
	if err != nil {
		return err
	}
	if _, err := w.c.exec(ctx, `UPDATE records SET rid = ?, version = ? WHERE rid = ?`,
		rid, vid, cur.RID); err != nil {
		return fmt.Errorf("replace record: %w", describe(err))
	}
	if err := w.index(ctx, e.Rec, rid, doc); err != nil {
		return err
	}
	return w.AddLookups(ctx, e, rid)
}

// unindex takes the current version of the record at rid out of its
// kind's full-text table and out of the postings of its doc, which it
// returns: the record keeps its doc.
func (w writer) unindex(ctx context.Context, k tenderbase.Kind, rid int64) (uint32, error) {
	var doc uint32
	if err := w.c.queryRow(ctx, `SELECT doc FROM records WHERE rid = ?`, rid).Scan(&doc); err != nil {
		return 0, fmt.Errorf("read the record's doc: %w", describe(err))
	}
	if err := w.unpost(ctx, k, `r.rid = ?`, rid); err != nil {
		return 0, err
	}
	w.fts.delete(k, rid)
	return doc, nil
}

// unpost takes the terms of the current record that cond (over records r)
// picks, if any, out of the postings of its doc.
func (w writer) unpost(ctx context.Context, k tenderbase.Kind, cond string, args ...any) error {
	var doc uint32
	var body []byte
	err := w.c.queryRow(ctx, `
		SELECT r.doc, v.body FROM records r JOIN versions v ON v.id = r.version WHERE `+cond, args...).Scan(&doc, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the indexed version: %w", describe(err))
	}
	old, err := versioning.Decode(k, body)
	if err != nil {
		return err
	}
	w.changes.Remove(k, doc, postings.RecordTerms(w.stems, old))
	return nil
}

// newRID returns the next free rid in the second of date: later stored
// records of the same second sort first.
func (w writer) newRID(ctx context.Context, date time.Time) (int64, error) {
	lo, hi := versioning.RIDs(date)
	var last sql.NullInt64
	if err := w.c.queryRow(ctx, `SELECT max(rid) FROM records WHERE rid >= ? AND rid < ?`,
		lo, hi).Scan(&last); err != nil {
		return 0, fmt.Errorf("allocate rid: %w", describe(err))
	}
	if !last.Valid {
		return lo, nil
	}
	if last.Int64+1 >= hi {
		return 0, versioning.ErrFullSecond(date)
	}
	return last.Int64 + 1, nil
}

// index writes the record's row in its kind's full-text table, its
// postings under doc, its measures, its facts and its bids.
func (w writer) index(ctx context.Context, r tenderbase.Record, rid int64, doc uint32) error {
	d := w.documents.Of(r, w.document)
	w.fts.insert(r.Kind(), rid, d.args(rid))
	w.changes.Add(r.Kind(), doc, d.terms)
	if err := putMeasures(ctx, w.c, r, rid); err != nil {
		return err
	}
	if err := putFacts(ctx, w.c, r, rid); err != nil {
		return err
	}
	return putBids(ctx, w.c, r, rid)
}

// document analyzes r on the writer's goroutine.
func (w writer) document(r tenderbase.Record) document { return newDocument(r, w.stems) }

// AddLookups points every lookup of this version at the record's rid; the
// lookups of earlier versions stay.
func (w writer) AddLookups(ctx context.Context, e versioning.Encoded, rid int64) error {
	for _, l := range e.Rec.Lookups() {
		if _, err := w.c.exec(ctx, `
			INSERT OR IGNORE INTO lookups (kind, field, value, rid) VALUES (?, ?, ?, ?)`,
			e.Kind, l.Field, l.Value, rid); err != nil {
			return fmt.Errorf("store lookup %s: %w", l.Field, describe(err))
		}
	}
	return nil
}
