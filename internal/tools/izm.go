package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// izmResult is the output of ru.izm.
type izmResult struct {
	PurchaseNumber string       `json:"purchase_number" jsonschema:"The tender's purchase number."`
	Versions       []izmVersion `json:"versions" jsonschema:"Every version of the notice, oldest first; empty when only events or protocols of the tender are stored."`
	// Timeline is added beside Versions, which it summarizes, so that a
	// caller reading versions alone sees what it always saw.
	Timeline []timelineEntry `json:"timeline" jsonschema:"The tender's life in one list, oldest first: each version of the notice, each event (date changes with their new dates, cancellations...) and each protocol (number, type, date, failed, how many participants and winners, null when the plan does not show participants), each saying its kind."`
}

// izmVersion is one version of a tender's notice.
type izmVersion struct {
	Version     int             `json:"version" jsonschema:"Version number: 1 for the first notice, then 2, 3... for each amendment."`
	PublishedAt time.Time       `json:"published_at,omitzero" jsonschema:"When this version was published."`
	Reason      string          `json:"reason,omitempty" jsonschema:"Why the notice was amended, as the customer says."`
	Changed     []string        `json:"changed" jsonschema:"JSON names of the fields that differ from the version before; empty for the first."`
	Record      json.RawMessage `json:"record" jsonschema:"The tender record of this version."`
}

// bookkeeping are the fields that differ between any two versions by
// definition; listing them as changed would say nothing.
var bookkeeping = []string{"version", "published_at", "change"}

// izm lists the versions of a tender with what each changed, and its
// timeline of versions, events and protocols.
func (s *Set) izm(ctx context.Context, number string) (Output, error) {
	recs, err := s.store.Versions(ctx, tenderbase.KindTender, number)
	if err != nil && tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		return Output{}, fmt.Errorf("versions of tender %s: %w", number, err)
	}
	o, err := s.outcomeOf(ctx, number)
	if err != nil {
		return Output{}, err
	}
	if len(recs) == 0 && !o.known() {
		return Output{}, notFound("no tender with purchase number %s; find tenders with ru.search", tenderbase.Quote(number))
	}
	plan := callerOf(ctx).plan
	hidden := restricted{}
	res := izmResult{PurchaseNumber: number}
	if res.Versions, err = izmVersions(number, recs, hidden, plan); err != nil {
		return Output{}, err
	}
	res.Timeline = timeline(res.Versions, o, plan)
	if len(o.stored) > 0 && plan.Hides(tenderbase.KindProtocol, "participants") {
		hidden.add("timeline.participants", "timeline.winners")
	}
	return output(res, hidden)
}

// izmVersions describes the versions recs of a tender, oldest first, their
// records masked for plan. What changed is told from the masked records, so
// that a change of a field plan hides is not told either.
func izmVersions(number string, recs []tenderbase.Record, hidden restricted, plan tenderbase.Plan) ([]izmVersion, error) {
	out := make([]izmVersion, 0, len(recs))
	var prev map[string]json.RawMessage
	for _, rec := range recs {
		t, ok := rec.(*tenderbase.Tender)
		if !ok {
			return nil, fmt.Errorf("version of tender %s is a %T", number, rec)
		}
		body, err := hidden.mask(t, plan)
		if err != nil {
			return nil, err
		}
		v, fields, err := izmVersionOf(t, body, prev)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		prev = fields
	}
	return out, nil
}

// izmVersionOf describes version t of a tender, whose JSON as the caller
// sees it is body, and whose previous version had the top-level fields prev
// (nil for the first). It returns t's own fields for the next comparison.
func izmVersionOf(t *tenderbase.Tender, body json.RawMessage, prev map[string]json.RawMessage) (izmVersion, map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return izmVersion{}, nil, fmt.Errorf("fields of %s %s: %w", t.Kind(), t.Key(), err)
	}
	v := izmVersion{Version: t.Version, PublishedAt: t.PublishedAt, Changed: []string{}, Record: body}
	if t.Change != nil {
		v.Reason = t.Change.Reason
	}
	if prev != nil {
		v.Changed = changedFields(prev, fields)
		if t.Change != nil {
			v.Changed = append(v.Changed, t.Change.Fields...)
		}
		slices.Sort(v.Changed)
		v.Changed = slices.Compact(v.Changed)
	}
	return v, fields, nil
}

// changedFields returns the fields whose canonical JSON differs between a
// and b, a field present in only one of them included, bookkeeping left out.
func changedFields(a, b map[string]json.RawMessage) []string {
	changed := []string{}
	note := func(name string) {
		if !slices.Contains(bookkeeping, name) && !bytes.Equal(a[name], b[name]) {
			changed = append(changed, name)
		}
	}
	for name := range a {
		note(name)
	}
	for name := range b {
		if _, seen := a[name]; !seen {
			note(name)
		}
	}
	return changed
}
