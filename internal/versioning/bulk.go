package versioning

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/tenderbase/tenderbase"
)

// Inserter is implemented by a store's Tx that stores many new records in
// fewer statements than one Insert each, for stores where a statement
// costs a round trip.
type Inserter interface {
	// Fresh reports, for each of es, whether its kind and key have neither
	// a current record nor a withdrawal: whether Put would Insert it.
	Fresh(ctx context.Context, es []Encoded) ([]bool, error)
	// InsertAll stores records whose kinds and keys are new and distinct,
	// as Insert stores each, in the order given.
	InsertAll(ctx context.Context, es []Encoded) error
}

// PutAll stores records through tx as Put stores each in turn, and counts
// what it did. When tx is an Inserter, the records that Put would simply
// insert go first, together: those whose key is new to the store and to
// the rest of the batch, that merge with nothing and that no withdrawal of
// the batch names. The rest follow one by one, in their order, and with
// them every new record that comes after one of them dated in the same
// second, whose rid would otherwise sort it before that one; the others
// cannot see the difference, since no two share a record. The entries of
// the feed are noted in the order of records whichever way they went.
func PutAll(ctx context.Context, tx Tx, records []tenderbase.Record, res *tenderbase.PutResult) error {
	ordered := &orderedNotes{Tx: tx}
	if err := putAll(ctx, ordered, records, res); err != nil {
		return err
	}
	ordered.flush()
	return nil
}

func putAll(ctx context.Context, tx *orderedNotes, records []tenderbase.Record, res *tenderbase.PutResult) error {
	place := make(map[tenderbase.Record]int, len(records))
	for i, r := range records {
		place[r] = i
	}
	ins, ok := tx.Tx.(Inserter)
	if !ok || len(records) < 2 {
		return putEach(ctx, tx, records, place, res)
	}
	candidates, rest := splitFresh(records)
	if len(candidates) == 0 {
		return putEach(ctx, tx, records, place, res)
	}
	fresh, err := ins.Fresh(ctx, candidates)
	if err != nil {
		return err
	}
	for i, e := range candidates {
		if !fresh[i] {
			rest = append(rest, e.Rec)
		}
	}
	// A record put one by one takes its rid in its second when its turn
	// comes, and of two records of one second the later stored sorts
	// first. A new record that follows, in the batch, one of the rest in
	// its second waits its turn among them, so that the batch sorts as
	// one Put after another would.
	firstRest := map[int64]int{}
	for _, r := range rest {
		lo, _ := RIDs(r.Date())
		if at, ok := firstRest[lo]; !ok || place[r] < at {
			firstRest[lo] = place[r]
		}
	}
	var inserts []Encoded
	for i, e := range candidates {
		if !fresh[i] {
			continue
		}
		lo, _ := RIDs(e.Rec.Date())
		if at, ok := firstRest[lo]; ok && at < place[e.Rec] {
			rest = append(rest, e.Rec)
			continue
		}
		inserts = append(inserts, e)
	}
	if len(inserts) > 0 {
		if err := ins.InsertAll(ctx, inserts); err != nil {
			return fmt.Errorf("put %d new records: %w", len(inserts), err)
		}
		for _, e := range inserts {
			tx.at = place[e.Rec]
			changed(tx, tenderbase.FeedNew, e)
		}
		res.Inserted += len(inserts)
	}
	return putEach(ctx, tx, inOrder(records, rest), place, res)
}

// putEach puts records one by one; place gives each its place in the batch.
func putEach(ctx context.Context, tx *orderedNotes, records []tenderbase.Record, place map[tenderbase.Record]int, res *tenderbase.PutResult) error {
	for _, r := range records {
		tx.at = place[r]
		if err := Put(ctx, tx, r, res); err != nil {
			return fmt.Errorf("put %s %s: %w", r.Kind(), r.Key(), err)
		}
	}
	return nil
}

// orderedNotes holds the entries of the feed that Put notes, each with the
// place of its record in the batch, and passes them on to its Tx in that
// order.
type orderedNotes struct {
	Tx
	at    int // the place of the record being put
	notes []placedEntry
}

type placedEntry struct {
	at    int
	entry tenderbase.FeedEntry
}

func (o *orderedNotes) Changed(e tenderbase.FeedEntry) {
	o.notes = append(o.notes, placedEntry{o.at, e})
}

func (o *orderedNotes) flush() {
	slices.SortStableFunc(o.notes, func(a, b placedEntry) int { return cmp.Compare(a.at, b.at) })
	for _, n := range o.notes {
		o.Tx.Changed(n.entry)
	}
	o.notes = nil
}

// splitFresh returns, encoded, the records that may be inserted together
// if the store holds nothing of them, and the others.
func splitFresh(records []tenderbase.Record) ([]Encoded, []tenderbase.Record) {
	type id struct{ kind, key string }
	seen := map[id]int{}
	for _, r := range records {
		seen[id{string(r.Kind()), r.Key()}]++
		if wd, ok := r.(*tenderbase.Withdrawal); ok {
			seen[id{string(wd.TargetKind), wd.TargetKey}] += 2
		}
	}
	var candidates []Encoded
	var rest []tenderbase.Record
	for _, r := range records {
		_, merges := r.(tenderbase.Merger)
		_, withdraws := r.(*tenderbase.Withdrawal)
		if merges || withdraws || seen[id{string(r.Kind()), r.Key()}] != 1 {
			rest = append(rest, r)
			continue
		}
		e, err := Encode(r)
		if err != nil {
			rest = append(rest, r) // Put says what is wrong, in its turn
			continue
		}
		candidates = append(candidates, e)
	}
	return candidates, rest
}

// inOrder returns the records of some in the order they have in all.
func inOrder(all, some []tenderbase.Record) []tenderbase.Record {
	if len(some) == 0 {
		return nil
	}
	in := make(map[tenderbase.Record]bool, len(some))
	for _, r := range some {
		in[r] = true
	}
	out := make([]tenderbase.Record, 0, len(some))
	for _, r := range all {
		if in[r] {
			out = append(out, r)
		}
	}
	return out
}
