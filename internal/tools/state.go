package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// stateOf returns the state the events and protocols of t give it
// (tenderbase.TenderState), and the record that decided it.
func stateOf(t *tenderbase.Tender, o outcome) (state, from string) {
	state, by := tenderbase.TenderState(t, o.stored, o.events)
	switch by := by.(type) {
	case *tenderbase.TenderEvent:
		return state, eventSource(by)
	case *tenderbase.Protocol:
		what := "winner"
		if state == tenderbase.TenderFailed {
			what = "failed"
		}
		return state, fmt.Sprintf("%s %s (%s)", by.Kind(), by.Key(), what)
	}
	return state, fmt.Sprintf("%s %s (version %d)", t.Kind(), t.Key(), t.Version)
}

func eventSource(e *tenderbase.TenderEvent) string {
	return fmt.Sprintf("%s %s (%s)", e.Kind(), e.Key(), e.Type)
}

// tenderDetail is what ru.detail adds to a tender record: the state its
// events and protocols give it, apart from the notice's own status.
type tenderDetail struct {
	State     string            `json:"state" jsonschema:"Where the tender stands once its events and protocols are applied: active, completed, cancelled or failed. The record's status is the notice's own and may be older."`
	StateFrom string            `json:"state_from" jsonschema:"The record that decided state: tender_event <id> (<type>), protocol <id> (winner or failed), or tender <purchase number> (version <n>) when the notice's own status stands."`
	Events    []json.RawMessage `json:"events" jsonschema:"The tender's events (date changes, cancelled date changes, cancellations, cancelled cancellations, lot cancellations, lot changes, changes of the organization conducting the purchase, no applications, protocol cancellations), newest first."`
	Dates     tenderDates       `json:"dates" jsonschema:"The tender's deadline for applications and bidding date once its date changes and prolongations are applied. The record's dates are the notice's own."`
	Protocols int               `json:"protocols" jsonschema:"How many protocols of the tender are in force (stored, and named by no protocol cancellation); ru.contractByNum shows them."`
}

// tenderDetailOf returns what ru.detail adds to the tender rec.
func (s *Set) tenderDetailOf(ctx context.Context, rec tenderbase.Record, hidden restricted) (any, error) {
	t, ok := rec.(*tenderbase.Tender)
	if !ok {
		return nil, fmt.Errorf("tender %s is a %T", rec.Key(), rec)
	}
	o, err := s.outcomeOf(ctx, t.PurchaseNumber)
	if err != nil {
		return nil, err
	}
	d := tenderDetail{Protocols: len(o.protocols)}
	d.State, d.StateFrom = stateOf(t, o)
	d.Dates = datesOf(t, o.events)
	d.Events, err = hidden.maskAll(records(o.events), callerOf(ctx).plan)
	return d, err
}

// tenderMissing returns the error of ru.detail for a purchase number with no
// notice, naming the tools that show what else is known of it.
func (s *Set) tenderMissing(ctx context.Context, number string) error {
	o, err := s.outcomeOf(ctx, number)
	if err != nil {
		return err
	}
	if o.known() {
		return notFound("no notice of tender %s is stored, only %d protocol(s) and %d event(s); ru.contractByNum shows its protocols and winners, ru.izm its timeline",
			tenderbase.Quote(number), len(o.stored), len(o.events))
	}
	return notFound("no tender with purchase number %s; find tenders with ru.search", tenderbase.Quote(number))
}
