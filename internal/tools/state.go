package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

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
	State       string            `json:"state" jsonschema:"Where the tender stands once its events and protocols are applied: active, completed, cancelled or failed. The record's status is the notice's own and may be older."`
	StateFrom   string            `json:"state_from" jsonschema:"The record that decided state: tender_event <id> (<type>), protocol <id> (winner or failed), or tender <purchase number> (version <n>) when the notice's own status stands."`
	Events      []json.RawMessage `json:"events" jsonschema:"The tender's events (date changes, cancelled date changes, cancellations, cancelled cancellations, lot cancellations, lot changes, changes of the organization conducting the purchase, no applications, protocol cancellations), newest first."`
	Dates       tenderDates       `json:"dates" jsonschema:"The tender's deadline for applications and bidding date once its date changes and prolongations are applied. The record's dates are the notice's own."`
	Protocols   int               `json:"protocols" jsonschema:"How many protocols of the tender are in force (stored, and named by no protocol cancellation); ru.contractByNum shows them."`
	CustomerOrg *orgCard          `json:"customer_org" jsonschema:"What the registers tell of the customer: legal form, address, status, head, main activity, SME category, headcount and finances. Guru and corporate plans; null for others, and when the customer is not in the registers held."`
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
	if d.Events, err = hidden.maskAll(records(o.events), callerOf(ctx).plan); err != nil {
		return nil, err
	}
	cards, _, err := s.orgCards(ctx, []string{t.Customer.INN}, hidden, "customer_org")
	if len(cards) > 0 {
		d.CustomerOrg = &cards[0]
	}
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

// standingKeeper is a store that keeps the standing of every tender (the
// lookup "state" and the deadline, derived by tenderbase.StandingOf
// whenever a tender, protocol or event is put) and reads its state and
// deadline for many tenders at once. Both real stores are; a store that is
// not has them derived here.
type standingKeeper interface {
	TenderStandings(ctx context.Context, numbers []string) (map[string]tenderbase.TenderStanding, error)
}

// tenderStandings returns the state and the deadline of each tender of
// recs: what ru.detail says of it. The kept ones come in one read:
// deriving them again took two searches a tender, which made a page of
// ru.search on PostgreSQL several times slower.
func (s *Set) tenderStandings(ctx context.Context, recs []tenderbase.Record) ([]tenderbase.TenderStanding, error) {
	kept := map[string]tenderbase.TenderStanding{}
	if keeper, ok := s.store.(standingKeeper); ok && len(recs) > 0 {
		numbers := make([]string, len(recs))
		for i, rec := range recs {
			numbers[i] = rec.Key()
		}
		var err error
		if kept, err = keeper.TenderStandings(ctx, numbers); err != nil {
			return nil, err
		}
	}
	standings := make([]tenderbase.TenderStanding, len(recs))
	for i, rec := range recs {
		var err error
		if standings[i], err = s.standingOfTender(ctx, rec, kept); err != nil {
			return nil, err
		}
	}
	return standings, nil
}

// standingOfTender returns the state and the deadline of the tender rec:
// the ones kept, or else derived from its protocols and events.
func (s *Set) standingOfTender(ctx context.Context, rec tenderbase.Record, kept map[string]tenderbase.TenderStanding) (tenderbase.TenderStanding, error) {
	t, ok := rec.(*tenderbase.Tender)
	if !ok {
		return tenderbase.TenderStanding{}, fmt.Errorf("tender %s is a %T", rec.Key(), rec)
	}
	if st, ok := kept[t.PurchaseNumber]; ok {
		return st, nil
	}
	o, err := s.outcomeOf(ctx, t.PurchaseNumber)
	if err != nil {
		return tenderbase.TenderStanding{}, err
	}
	state, _ := stateOf(t, o)
	return tenderbase.TenderStanding{State: state, Deadline: datesOf(t, o.events).ApplicationsDeadline}, nil
}

// withState returns the JSON object item with the property state added.
func withState(item json.RawMessage, state string) json.RawMessage {
	value, _ := json.Marshal(state) // a string always encodes
	out := append(slices.Clip(item[:len(item)-1]), `,"state":`...)
	return append(append(out, value...), '}')
}

// stateSchema is the schema of the state ru.search adds to each tender.
func stateSchema() *jsonschema.Schema {
	enum := make([]any, len(tenderbase.TenderStates))
	for i, s := range tenderbase.TenderStates {
		enum[i] = s
	}
	return &jsonschema.Schema{Type: "string", Enum: enum,
		Description: "Where the tender stands once its events and protocols are applied, as ru.detail says: active, completed, cancelled or failed. The record's status is the notice's own and may be older."}
}

// withStates returns the output schema out, of a search result, with the
// property state in the schema of its items.
func withStates(out outputSchema) outputSchema {
	return amended(out, func(s *jsonschema.Schema) (json.RawMessage, error) {
		items := valueBranch(s.Properties["items"])
		if items == nil || items.Items == nil {
			return nil, fmt.Errorf("a search result without items")
		}
		items.Items.Properties["state"] = stateSchema()
		items.Items.Required = append(items.Items.Required, "state")
		return marshal(s)
	})
}

// amended returns the output schema out as f changes and writes it.
func amended(out outputSchema, f func(*jsonschema.Schema) (json.RawMessage, error)) outputSchema {
	return func() (json.RawMessage, error) {
		body, err := out()
		if err != nil {
			return nil, err
		}
		var s jsonschema.Schema
		if err := json.Unmarshal(body, &s); err != nil {
			return nil, err
		}
		return f(&s)
	}
}
