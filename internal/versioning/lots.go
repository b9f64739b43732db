package versioning

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// SettleLots applies lot events to the lots they name, by
// tenderbase.ApplyLotEvents: the events among records to the stored lots of
// the messages they name, and the stored events to the lots among records,
// so that a lot reads the same whichever came first. A lot an event changes
// gets a new current version, written as it is: merging it with the stored
// one would bring back the result a cancellation took away. A store calls it
// in the transaction that puts records, after them.
func SettleLots(ctx context.Context, tx Tx, stx StateTx, records []tenderbase.Record) error {
	messages := lotMessages(records)
	if len(messages) == 0 {
		return nil
	}
	events, err := stx.Related(ctx, tenderbase.KindLotEvent, tenderbase.LookupMessage, messages)
	if err != nil || len(events) == 0 {
		return err
	}
	named := make([]string, 0, len(events))
	for m := range events {
		named = append(named, m)
	}
	lots := map[string]*tenderbase.Lot{}
	var order []string
	for _, field := range []string{tenderbase.LookupNoticeNumber, tenderbase.LookupMessage} {
		found, err := stx.Related(ctx, tenderbase.KindLot, field, named)
		if err != nil {
			return err
		}
		for _, recs := range found {
			for _, r := range recs {
				l, ok := r.(*tenderbase.Lot)
				if !ok {
					return fmt.Errorf("lot %s is a %T", r.Key(), r)
				}
				if lots[l.ID] == nil {
					order = append(order, l.ID)
				}
				lots[l.ID] = l
			}
		}
	}
	for _, key := range order {
		l := lots[key]
		var evs []*tenderbase.LotEvent
		for _, m := range lotMessagesOf(l) {
			evs = append(evs, only[*tenderbase.LotEvent](events[m])...)
		}
		applied, changed := tenderbase.ApplyLotEvents(l, evs)
		if !changed {
			continue
		}
		var res tenderbase.PutResult // what the caller put is counted, not what it derived
		if err := write(ctx, tx, applied, &res); err != nil {
			return fmt.Errorf("apply events to lot %s: %w", key, err)
		}
	}
	return nil
}

// lotMessages returns the messages that lots and lot events among records
// name, each once.
func lotMessages(records []tenderbase.Record) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range records {
		var ms []string
		switch r := r.(type) {
		case *tenderbase.Lot:
			ms = lotMessagesOf(r)
		case *tenderbase.LotEvent:
			ms = []string{r.Message}
		}
		for _, m := range ms {
			if m != "" && !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// lotMessagesOf returns the messages an event may name to act on l: its
// notice and the message that reported its result.
func lotMessagesOf(l *tenderbase.Lot) []string {
	ms := []string{l.NoticeNumber}
	if l.Result != nil && l.Result.Message != "" && l.Result.Message != l.NoticeNumber {
		ms = append(ms, l.Result.Message)
	}
	return ms
}
