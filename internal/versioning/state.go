package versioning

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// StateTx is what deriving the state of tenders needs of a store's write
// transaction. It reads and writes many tenders at once, since a Put of
// thousands of tenders must not cost thousands of round trips each.
type StateTx interface {
	// Related returns, by value, the current records of kind k that carry
	// the lookup field with one of values, newest first, as Search orders
	// them.
	Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error)
	// Latest returns the newest stored version of the record of kind k
	// with key, withdrawn or not, or nil when none is stored.
	Latest(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error)
	// SetStandings keeps each standing for the current tender whose
	// purchase number is its key: its state as the one
	// tenderbase.LookupState lookup, its participants as the
	// tenderbase.LookupParticipantINN lookups, its deadline as its measure.
	SetStandings(ctx context.Context, standings map[string]tenderbase.TenderStanding) error
	// Standings returns the state and deadline kept for each current
	// tender among keys that has a standing, by key.
	Standings(ctx context.Context, keys []string) (map[string]tenderbase.TenderStanding, error)
}

// settleBatch is how many tenders SettleTenders derives at a time.
const settleBatch = 1000

// Settling is the tenders whose state the records of a write may change,
// and the standings they had before it.
type Settling struct {
	numbers []string
	before  map[string]tenderbase.TenderStanding
}

// BeforeSettling reads, before a write of records, the tenders whose state
// the records may change (tenders, their protocols and events, and
// withdrawals of protocols and events) and the standings the store keeps
// for them, so that Settle can tell what the write changed.
func BeforeSettling(ctx context.Context, tx StateTx, records []tenderbase.Record) (*Settling, error) {
	numbers, err := tendersOf(ctx, tx, records)
	if err != nil {
		return nil, err
	}
	s := &Settling{numbers: numbers, before: map[string]tenderbase.TenderStanding{}}
	for batch := range slices.Chunk(numbers, settleBatch) {
		old, err := tx.Standings(ctx, batch)
		if err != nil {
			return nil, err
		}
		maps.Copy(s.before, old)
	}
	return s, nil
}

// Settle derives anew, by tenderbase.TenderState, the state lookup of every
// tender of s. A store calls it in the transaction that puts records,
// after them, so that a search by state sees the state the records give,
// the same in every reader. It returns a FeedState entry for each tender
// that had a standing before the write and now has another state or
// deadline, for the feed.
func (s *Settling) Settle(ctx context.Context, tx StateTx) ([]tenderbase.FeedEntry, error) {
	var changes []tenderbase.FeedEntry
	for batch := range slices.Chunk(s.numbers, settleBatch) {
		standings, err := settle(ctx, tx, batch)
		if err != nil {
			return nil, err
		}
		for _, n := range batch {
			before, had := s.before[n]
			now, has := standings[n]
			if had && has && (before.State != now.State || !sameSecond(before.Deadline, now.Deadline)) {
				changes = append(changes, tenderbase.FeedEntry{Type: tenderbase.FeedState, Kind: tenderbase.KindTender,
					Key: n, State: now.State, Deadline: now.Deadline})
			}
		}
	}
	return changes, nil
}

// sameSecond reports whether two deadlines are the same second, as the
// stores keep them, or both none.
func sameSecond(a, b time.Time) bool {
	return a.IsZero() == b.IsZero() && (a.IsZero() || a.Unix() == b.Unix())
}

// SettleTenders derives anew the state lookup of the tenders with the
// purchase numbers whose notice is stored.
func SettleTenders(ctx context.Context, tx StateTx, numbers []string) error {
	for batch := range slices.Chunk(numbers, settleBatch) {
		if _, err := settle(ctx, tx, batch); err != nil {
			return err
		}
	}
	return nil
}

// settle derives the standings of the tenders of numbers, keeps them and
// returns them by key.
func settle(ctx context.Context, tx StateTx, numbers []string) (map[string]tenderbase.TenderStanding, error) {
	tenders, err := tx.Related(ctx, tenderbase.KindTender, tenderbase.LookupPurchaseNumber, numbers)
	if err != nil {
		return nil, err
	}
	protocols, err := tx.Related(ctx, tenderbase.KindProtocol, tenderbase.LookupPurchaseNumber, numbers)
	if err != nil {
		return nil, err
	}
	events, err := tx.Related(ctx, tenderbase.KindTenderEvent, tenderbase.LookupPurchaseNumber, numbers)
	if err != nil {
		return nil, err
	}
	standings := map[string]tenderbase.TenderStanding{}
	for n, recs := range tenders {
		t, ok := recs[0].(*tenderbase.Tender)
		if !ok {
			return nil, fmt.Errorf("tender %s is a %T", n, recs[0])
		}
		standings[t.Key()] = tenderbase.StandingOf(t, only[*tenderbase.Protocol](protocols[n]), only[*tenderbase.TenderEvent](events[n]))
	}
	if err := tx.SetStandings(ctx, standings); err != nil {
		return nil, fmt.Errorf("standings of %d tenders: %w", len(standings), err)
	}
	return standings, nil
}

// only returns the records of recs of type R.
func only[R tenderbase.Record](recs []tenderbase.Record) []R {
	out := make([]R, 0, len(recs))
	for _, r := range recs {
		if r, ok := r.(R); ok {
			out = append(out, r)
		}
	}
	return out
}

// tendersOf returns the purchase numbers of the tenders whose state records
// may change, each once.
func tendersOf(ctx context.Context, tx StateTx, records []tenderbase.Record) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, r := range records {
		if wd, ok := r.(*tenderbase.Withdrawal); ok {
			var err error
			if r, err = withdrawnRecord(ctx, tx, wd); err != nil {
				return nil, err
			}
		}
		// A key no store holds is found nowhere: Put refuses its record.
		if n := purchaseNumberOf(r); n != "" && tenderbase.Holdable(n) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// withdrawnRecord returns the newest version of the tender, protocol or
// event that wd withdraws, or nil for another kind.
func withdrawnRecord(ctx context.Context, tx StateTx, wd *tenderbase.Withdrawal) (tenderbase.Record, error) {
	if !tenderbase.Holdable(wd.TargetKey) {
		return nil, nil
	}
	switch wd.TargetKind {
	case tenderbase.KindTender, tenderbase.KindProtocol, tenderbase.KindTenderEvent:
		return tx.Latest(ctx, wd.TargetKind, wd.TargetKey)
	}
	return nil, nil
}

func purchaseNumberOf(r tenderbase.Record) string {
	switch r := r.(type) {
	case *tenderbase.Tender:
		return r.PurchaseNumber
	case *tenderbase.Protocol:
		return r.PurchaseNumber
	case *tenderbase.TenderEvent:
		return r.PurchaseNumber
	}
	return ""
}
