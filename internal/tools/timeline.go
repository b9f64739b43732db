package tools

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Kinds of the entries of a tender's timeline.
const (
	entryVersion  = "version"
	entryEvent    = string(tenderbase.KindTenderEvent)
	entryProtocol = string(tenderbase.KindProtocol)
)

// timelineEntry is one document of a tender's life in ru.izm: a version of
// its notice, an event or a protocol. Kind says which, and which fields it
// carries.
type timelineEntry struct {
	Kind        string    `json:"kind" jsonschema:"What the entry is: version (of the notice), tender_event or protocol."`
	PublishedAt time.Time `json:"published_at,omitzero" jsonschema:"When it was published; the timeline is ordered by it."`
	// A version's number, reason and changes, as in versions.
	Version int      `json:"version,omitempty" jsonschema:"version: the version number; the whole record is in versions."`
	Changed []string `json:"changed,omitempty" jsonschema:"version: the fields that differ from the version before; left out when none do."`
	// An event's or a protocol's document.
	ID     string `json:"id,omitempty" jsonschema:"tender_event, protocol: the EIS document id."`
	Type   string `json:"type,omitempty" jsonschema:"tender_event: date_change, date_change_cancel, cancellation, cancellation_failure, lot_cancellation, lot_change, org_change, no_applications or protocol_cancellation; protocol: the EIS document, such as epProtocolEF2020Final."`
	Number string `json:"number,omitempty" jsonschema:"protocol: its number; tender_event protocol_cancellation: the number of the protocol it cancels."`
	// LotNumber is the lot an event or protocol is of.
	LotNumber int    `json:"lot_number,omitempty" jsonschema:"tender_event, protocol: the lot, when of one lot."`
	Reason    string `json:"reason,omitempty" jsonschema:"Why: the amendment's reason, the event's, or why a protocol failed the tender."`
	// The new dates of a date change.
	ApplicationsDeadline time.Time `json:"applications_deadline,omitzero" jsonschema:"tender_event date_change: the new deadline for applications."`
	BiddingDate          time.Time `json:"bidding_date,omitzero" jsonschema:"tender_event date_change: the new bidding date."`
	// What a lot change or an org change changed.
	Changes      string           `json:"changes,omitempty" jsonschema:"tender_event lot_change: what changed, in the document's words."`
	Org          tenderbase.Party `json:"org,omitzero" jsonschema:"tender_event org_change: the organization that conducts the purchase from then on."`
	ProtocolDate time.Time        `json:"protocol_date,omitzero" jsonschema:"protocol: when the commission met."`
	Failed       bool             `json:"failed,omitempty" jsonschema:"protocol: set when the tender (or lot) did not take place at this stage."`
	// Counts of a protocol's participants, a tariff field: null for a plan
	// that does not show it.
	Participants *count `json:"participants,omitempty" jsonschema:"protocol: how many participants it names; null when the plan does not show protocol participants."`
	Winners      *count `json:"winners,omitempty" jsonschema:"protocol: how many of them it names winner (or, where none is marked, ranks first); null when the plan does not show protocol participants."`
	URL          string `json:"url,omitempty" jsonschema:"tender_event, protocol: the document in EIS."`
}

// count is a number that a plan may not be shown, since it is made from a
// field the plan hides: null then.
type count struct{ N *int }

// countOf returns n as a count, hidden or not.
func countOf(n int, hidden bool) *count {
	if hidden {
		return &count{}
	}
	return &count{N: &n}
}

func (c count) MarshalJSON() ([]byte, error) { return json.Marshal(c.N) }

func (c *count) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &c.N) }

// timeline returns the versions, events and protocols of a tender in one
// list, oldest first, with the counts of participants that plan may see.
// Entries published at the same moment keep the order versions, events,
// protocols. A cancelled protocol stays in the tender's history, followed
// by its cancellation.
func timeline(versions []izmVersion, o outcome, plan tenderbase.Plan) []timelineEntry {
	out := make([]timelineEntry, 0, len(versions)+len(o.events)+len(o.stored))
	for _, v := range versions {
		out = append(out, timelineEntry{Kind: entryVersion, PublishedAt: v.PublishedAt, Version: v.Version, Changed: v.Changed, Reason: v.Reason})
	}
	// Events and protocols come newest first.
	for _, e := range slices.Backward(o.events) {
		out = append(out, eventEntry(e))
	}
	for _, p := range slices.Backward(o.stored) {
		out = append(out, protocolEntry(p, plan.Hides(tenderbase.KindProtocol, "participants")))
	}
	slices.SortStableFunc(out, func(a, b timelineEntry) int { return a.PublishedAt.Compare(b.PublishedAt) })
	return out
}

func eventEntry(e *tenderbase.TenderEvent) timelineEntry {
	return timelineEntry{
		Kind: entryEvent, PublishedAt: e.PublishedAt, ID: e.ID, Type: e.Type, Number: e.ProtocolNumber, LotNumber: e.LotNumber,
		Reason: e.Reason, ApplicationsDeadline: e.ApplicationsDeadline, BiddingDate: e.BiddingDate, Changes: e.Changes, Org: e.Org,
		URL: e.URL,
	}
}

// protocolEntry returns the entry of p, its counts of participants hidden
// when the caller does not see participants.
func protocolEntry(p *tenderbase.Protocol, hidden bool) timelineEntry {
	return timelineEntry{
		Kind: entryProtocol, PublishedAt: p.PublishedAt, ID: p.ID, Type: p.Type, Number: p.Number, LotNumber: p.LotNumber,
		Reason: p.Reason, ProtocolDate: p.ProtocolDate, Failed: p.Failed,
		Participants: countOf(len(p.Participants), hidden), Winners: countOf(len(p.Winners()), hidden), URL: p.URL,
	}
}
