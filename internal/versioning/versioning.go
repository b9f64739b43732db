// Package versioning holds the rules by which every store's Put treats the
// versions of a record, as tenderbase.Store says: which version is current,
// which are kept as history only, which change nothing, and that a
// withdrawn record never becomes current again. A store supplies its reads
// and writes through Tx; the rules are written once, here.
//
// It also holds the rid, the date-ordered key under which both stores keep
// a current record, so that both order records of one date alike; the
// cache of exact totals kept for one generation of the data; and the
// checks of text that no store can hold, so that both refuse it alike.
package versioning

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Encoded is a record ready to be stored: its canonical JSON and the
// SHA-256 of it, by which an identical re-put is recognized.
type Encoded struct {
	Rec  tenderbase.Record
	Kind string
	Key  string
	Rev  int
	Body []byte
	Hash []byte
}

// Encode checks that r can be stored, by every store alike, and encodes it.
func Encode(r tenderbase.Record) (Encoded, error) {
	if r.Key() == "" {
		return Encoded{}, tenderbase.Errorf(tenderbase.EINVALID, "%s record has no key", r.Kind())
	}
	if _, err := tenderbase.NewRecord(r.Kind()); err != nil {
		return Encoded{}, err
	}
	if err := checkRecord(r); err != nil {
		return Encoded{}, err
	}
	body, err := tenderbase.MarshalRecord(r)
	if err != nil {
		return Encoded{}, err
	}
	sum := sha256.Sum256(body)
	return Encoded{Rec: r, Kind: string(r.Kind()), Key: r.Key(), Rev: r.Revision(), Body: body, Hash: sum[:]}, nil
}

// Decode reads a stored body. A body that no longer decodes is the store's
// fault, not the caller's, so its error is internal.
func Decode(k tenderbase.Kind, body []byte) (tenderbase.Record, error) {
	if r, ok := decodeStored(k, body); ok {
		return r, nil
	}
	r, err := tenderbase.DecodeRecord(k, body)
	if err != nil {
		return nil, fmt.Errorf("decode stored %s: %s", k, err.Error())
	}
	return r, nil
}

// Current is what a store holds of a record's current version.
type Current struct {
	RID int64
	Rev int
}

// Tx is one store's write transaction, as Put needs it.
type Tx interface {
	// Current returns the current version of e's record, if it has one,
	// and else whether a withdrawal names the record: a withdrawn record has
	// no current version.
	Current(ctx context.Context, e Encoded) (cur Current, found, withdrawn bool, err error)
	// CurrentBody returns the stored body of the current version of the
	// record of kind and key, or nil when it has none.
	CurrentBody(ctx context.Context, kind, key string) ([]byte, error)
	// Version returns the id and hash of the stored version with e's
	// revision, or a zero id.
	Version(ctx context.Context, e Encoded) (int64, []byte, error)
	// SaveVersion stores e as a new version, or over version id (a
	// correction) when id is not zero, and returns its id.
	SaveVersion(ctx context.Context, e Encoded, id int64) (int64, error)
	// Insert stores a record whose kind and key are new: its version, its
	// current row under a new rid, its index entry and its lookups.
	Insert(ctx context.Context, e Encoded) error
	// Replace makes version id, of e, the current one of cur's record.
	Replace(ctx context.Context, e Encoded, cur Current, id int64) error
	// AddLookups points the lookups of e at rid.
	AddLookups(ctx context.Context, e Encoded, rid int64) error
	// Withdraw records the withdrawal and takes its target's current row
	// away, if it has one.
	Withdraw(ctx context.Context, wd *tenderbase.Withdrawal) error
	// Changed notes a change for the feed, written with the transaction.
	Changed(c tenderbase.FeedEntry)
}

// Put stores one record through tx and counts what it did; a withdrawal
// then withdraws its target.
func Put(ctx context.Context, tx Tx, r tenderbase.Record, res *tenderbase.PutResult) error {
	inserted := res.Inserted
	if err := store(ctx, tx, r, res); err != nil {
		return err
	}
	if wd, ok := r.(*tenderbase.Withdrawal); ok {
		if err := tx.Withdraw(ctx, wd); err != nil {
			return err
		}
		if res.Inserted > inserted {
			tx.Changed(tenderbase.FeedEntry{Type: tenderbase.FeedWithdrawn, Kind: wd.TargetKind, Key: wd.TargetKey})
		}
	}
	return nil
}

// changed notes for the feed that e's record was stored, as a new record
// or a new version; a withdrawal is noted as what it withdraws (Put).
func changed(tx Tx, t tenderbase.FeedChange, e Encoded) {
	if e.Rec.Kind() != tenderbase.KindWithdrawal {
		tx.Changed(tenderbase.FeedEntry{Type: t, Kind: e.Rec.Kind(), Key: e.Key, Revision: e.Rev})
	}
}

func store(ctx context.Context, tx Tx, r tenderbase.Record, res *tenderbase.PutResult) error {
	merged, stored, err := merge(ctx, tx, r)
	if err != nil {
		return err
	}
	before := *res
	if err := write(ctx, tx, merged, res); err != nil {
		return err
	}
	if res.Inserted+res.Replaced > before.Inserted+before.Replaced && wonNow(stored, merged) {
		// A world tender whose award names its winners is won, as a
		// tender is when a protocol names them (tenderbase.FeedState).
		tx.Changed(tenderbase.FeedEntry{Type: tenderbase.FeedState, Kind: merged.Kind(), Key: merged.Key(), State: tenderbase.TenderCompleted})
	}
	return nil
}

// wonNow reports whether now, a world tender, names winners in its awards
// while its version before, if any, named none.
func wonNow(before, now tenderbase.Record) bool {
	w, ok := now.(*tenderbase.WorldTender)
	if !ok || len(tenderbase.WorldWinnersOf(w)) == 0 {
		return false
	}
	old, ok := before.(*tenderbase.WorldTender)
	return !ok || len(tenderbase.WorldWinnersOf(old)) == 0
}

// write stores r as it is, merged already when it merges.
func write(ctx context.Context, tx Tx, r tenderbase.Record, res *tenderbase.PutResult) error {
	e, err := Encode(r)
	if err != nil {
		return err
	}
	cur, found, withdrawn, err := tx.Current(ctx, e)
	if err != nil {
		return err
	}
	if !found && !withdrawn {
		res.Inserted++
		changed(tx, tenderbase.FeedNew, e)
		return tx.Insert(ctx, e)
	}
	vid, oldHash, err := tx.Version(ctx, e)
	if err != nil {
		return err
	}
	if vid != 0 && bytes.Equal(oldHash, e.Hash) {
		res.Unchanged++
		return nil
	}
	if vid, err = tx.SaveVersion(ctx, e, vid); err != nil {
		return err
	}
	switch {
	case !found:
		res.Older++ // withdrawn, which never becomes current: kept as history only
		return nil
	case e.Rev < cur.Rev:
		res.Older++
		return tx.AddLookups(ctx, e, cur.RID)
	}
	res.Replaced++
	changed(tx, tenderbase.FeedVersion, e)
	return tx.Replace(ctx, e, cur, vid)
}

// merge returns r joined with its stored current version when r is a
// tenderbase.Merger, so that every store merges alike, and that version
// (nil when none is stored or r does not merge).
func merge(ctx context.Context, tx Tx, r tenderbase.Record) (merged, stored tenderbase.Record, err error) {
	m, ok := r.(tenderbase.Merger)
	if !ok || r.Key() == "" {
		return r, nil, nil
	}
	body, err := tx.CurrentBody(ctx, string(r.Kind()), r.Key())
	if err != nil || body == nil {
		return r, nil, err
	}
	if stored, err = Decode(r.Kind(), body); err != nil {
		return nil, nil, err
	}
	return m.Merge(stored), stored, nil
}

// SeqBits is the width of the sequence within one second of a rid: up to
// 4,194,304 records may carry dates within the same second.
const SeqBits = 22

// maxSecond keeps rid within int64: dates after it (year 71,700) share its
// second.
const maxSecond = 1<<(63-SeqBits) - 1

// RIDs returns the rids of the second of date, [lo, hi): a store gives a
// new record the one after the highest taken, so that later stored records
// of one second sort first.
func RIDs(date time.Time) (lo, hi int64) {
	lo = second(date) << SeqBits
	return lo, lo + 1<<SeqBits
}

// Moved reports whether a record whose rid is rid needs a new one for date.
func Moved(rid int64, date time.Time) bool {
	return second(date) != rid>>SeqBits
}

// second returns the unix second of a date, clamped to what a rid can hold;
// dates before 1970 (and zero dates) sort as 1970.
func second(date time.Time) int64 {
	return min(max(date.Unix(), 0), maxSecond)
}

// ErrFullSecond is the error of a second whose rids are all taken.
func ErrFullSecond(date time.Time) error {
	return fmt.Errorf("allocate rid: more than %d records dated %s", 1<<SeqBits, date.UTC().Format(time.RFC3339))
}

// RIDRange returns the rids of the dates from the unix second lo to the
// unix second hi, both included, as [first, last]: a range of published
// dates is a range of rids. The infinities of an open range clamp to the
// first and the last second a rid holds.
func RIDRange(lo, hi float64) (first, last int64) {
	clamp := func(s float64) int64 { return int64(min(max(s, 0), maxSecond)) }
	return clamp(math.Ceil(lo)) << SeqBits, clamp(math.Floor(hi))<<SeqBits | (1<<SeqBits - 1)
}
