package versioning

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// StateTx is what deriving the state of tenders needs of a store's write
// transaction.
type StateTx interface {
	// Related returns the current records of kind k that carry the lookup
	// field=value, newest first, as Search orders them.
	Related(ctx context.Context, k tenderbase.Kind, field, value string) ([]tenderbase.Record, error)
	// Latest returns the newest stored version of the record of kind k
	// with key, withdrawn or not, or nil when none is stored.
	Latest(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error)
	// SetState makes state the one tenderbase.LookupState lookup of the
	// current tender with the purchase number key.
	SetState(ctx context.Context, key, state string) error
}

// SettleStates derives anew, by tenderbase.TenderState, the state lookup of
// every tender that records change: tenders, their protocols and events,
// and withdrawals of protocols and events. A store calls it in the
// transaction that puts records, after them, so that a search by state
// sees the state the records give, the same in every reader.
func SettleStates(ctx context.Context, tx StateTx, records []tenderbase.Record) error {
	numbers, err := tendersOf(ctx, tx, records)
	if err != nil {
		return err
	}
	for _, n := range numbers {
		if err := SettleState(ctx, tx, n); err != nil {
			return fmt.Errorf("state of tender %s: %w", n, err)
		}
	}
	return nil
}

// SettleState derives anew the state lookup of the tender with the
// purchase number, if a notice of it is stored.
func SettleState(ctx context.Context, tx StateTx, number string) error {
	tenders, err := tx.Related(ctx, tenderbase.KindTender, tenderbase.LookupPurchaseNumber, number)
	if err != nil || len(tenders) == 0 {
		return err
	}
	protocols, err := related[*tenderbase.Protocol](ctx, tx, tenderbase.KindProtocol, number)
	if err != nil {
		return err
	}
	events, err := related[*tenderbase.TenderEvent](ctx, tx, tenderbase.KindTenderEvent, number)
	if err != nil {
		return err
	}
	t := tenders[0].(*tenderbase.Tender)
	state, _ := tenderbase.TenderState(t, protocols, events)
	return tx.SetState(ctx, t.Key(), state)
}

func related[R tenderbase.Record](ctx context.Context, tx StateTx, k tenderbase.Kind, number string) ([]R, error) {
	recs, err := tx.Related(ctx, k, tenderbase.LookupPurchaseNumber, number)
	if err != nil {
		return nil, err
	}
	out := make([]R, 0, len(recs))
	for _, r := range recs {
		if r, ok := r.(R); ok {
			out = append(out, r)
		}
	}
	return out, nil
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
		if n := purchaseNumberOf(r); n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// withdrawnRecord returns the newest version of the tender, protocol or
// event that wd withdraws, or nil for another kind.
func withdrawnRecord(ctx context.Context, tx StateTx, wd *tenderbase.Withdrawal) (tenderbase.Record, error) {
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
