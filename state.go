package tenderbase

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// LookupState is the lookup by which a store finds tenders in a derived
// state (TenderState). Unlike the other lookups it is no field of the
// tender's notice: the store derives it from the tender's protocols and
// events, anew whenever one of them or the notice is put.
const LookupState = "state"

// TenderStates lists the states TenderState derives.
var TenderStates = []string{TenderActive, TenderCompleted, TenderCancelled, TenderFailed}

// TenderState returns where the tender t stands once its protocols and
// events are applied, and the record that decided it, or nil when the
// notice's own status stands. protocols are every stored protocol of the
// tender, events its events, each newest first. A cancellation stands
// unless a cancellation failure came after it; a tender fails when the
// newest protocol in force of every lot says so or no application came at
// all; it is completed when a protocol in force names a winner; otherwise
// the notice says, and a notice that gives no status is active, since
// nothing since has changed it. Events of one lot leave the tender's state
// alone, and a cancelled protocol decides nothing.
//
// It is the one rule of a tender's state: the tools show it, and the stores
// derive their state lookup by it.
func TenderState(t *Tender, protocols []*Protocol, events []*TenderEvent) (string, Record) {
	if e := standingCancellation(events); e != nil {
		return TenderCancelled, e
	}
	protocols = ProtocolsInForce(protocols, events)
	if p := failedProtocol(protocols); p != nil {
		return TenderFailed, p
	}
	for _, e := range events {
		if e.Type == EventNoApplications && e.LotNumber == 0 {
			return TenderFailed, e
		}
	}
	for _, p := range protocols {
		if len(p.Winners()) > 0 {
			return TenderCompleted, p
		}
	}
	return cmp.Or(t.Status, TenderActive), nil
}

// standingCancellation returns the newest cancellation of events (newest
// first) unless a cancellation failure published with it or after it undid
// it.
func standingCancellation(events []*TenderEvent) *TenderEvent {
	i := slices.IndexFunc(events, func(e *TenderEvent) bool { return e.Type == EventCancellation })
	if i < 0 {
		return nil
	}
	cancel := events[i]
	for _, e := range events {
		if e.Type == EventCancellationFailure && !e.PublishedAt.Before(cancel.PublishedAt) {
			return nil
		}
	}
	return cancel
}

// failedProtocol returns the newest failed protocol when the newest
// protocol of every lot failed, and nil otherwise.
func failedProtocol(protocols []*Protocol) *Protocol {
	for _, p := range NewestByLot(protocols, func(*Protocol) bool { return true }) {
		if !p.Failed {
			return nil
		}
	}
	i := slices.IndexFunc(protocols, func(p *Protocol) bool { return p.Failed })
	if i < 0 {
		return nil
	}
	return protocols[i]
}

// CancelledProtocols returns the numbers of the protocols that the protocol
// cancellations among events cancel.
func CancelledProtocols(events []*TenderEvent) map[string]bool {
	out := map[string]bool{}
	for _, e := range events {
		if e.Type == EventProtocolCancellation && e.ProtocolNumber != "" {
			out[e.ProtocolNumber] = true
		}
	}
	return out
}

// ProtocolsInForce returns the protocols whose number no protocol
// cancellation among events names. A cancellation names a protocol by its
// number, which every version of the protocol shares: a cancelled protocol
// stays cancelled in all its versions.
func ProtocolsInForce(protocols []*Protocol, events []*TenderEvent) []*Protocol {
	cancelled := CancelledProtocols(events)
	return slices.DeleteFunc(slices.Clone(protocols), func(p *Protocol) bool {
		return p.Number != "" && cancelled[p.Number]
	})
}

// NewestByLot returns the newest protocol (of protocols, newest first) of
// each lot that keep admits, in the order of lot numbers. A tender's
// protocols without a lot number are one lot.
func NewestByLot(protocols []*Protocol, keep func(*Protocol) bool) []*Protocol {
	var out []*Protocol
	seen := map[int]bool{}
	for _, p := range protocols {
		if !seen[p.LotNumber] && keep(p) {
			seen[p.LotNumber] = true
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *Protocol) int { return cmp.Compare(a.LotNumber, b.LotNumber) })
	return out
}

// TenderDates are a tender's dates once its date changes are applied, and
// the record that set them.
type TenderDates struct {
	ApplicationsDeadline time.Time
	BiddingDate          time.Time
	// From names the record that set these dates: "tender_event <id>
	// (date_change)" or "tender <purchase number> (version <n>)".
	From string
}

// DatesOf returns t's dates with the date changes published after it
// applied, oldest first: a date change moves the dates it gives, and a
// cancelled date change (date_change_cancel, which does not say which
// dates apply again) undoes the latest change still standing. Changes
// published before t are already in it, as a notice restates its dates;
// changes of one lot leave the tender's dates alone. events are newest
// first.
//
// It is the one rule of a tender's dates: ru.detail shows them, and the
// stores keep the deadline by it for searches to bound and sort by.
func DatesOf(t *Tender, events []*TenderEvent) TenderDates {
	standing := []TenderDates{{
		ApplicationsDeadline: t.ApplicationsDeadline,
		BiddingDate:          t.BiddingDate,
		From:                 fmt.Sprintf("%s %s (version %d)", t.Kind(), t.Key(), t.Version),
	}}
	for _, e := range slices.Backward(events) {
		if e.LotNumber != 0 || !e.PublishedAt.After(t.PublishedAt) {
			continue
		}
		switch e.Type {
		case EventDateChange:
			next := standing[len(standing)-1]
			if !e.ApplicationsDeadline.IsZero() {
				next.ApplicationsDeadline = e.ApplicationsDeadline
			}
			if !e.BiddingDate.IsZero() {
				next.BiddingDate = e.BiddingDate
			}
			next.From = fmt.Sprintf("%s %s (%s)", e.Kind(), e.Key(), e.Type)
			standing = append(standing, next)
		case EventDateChangeCancel:
			if len(standing) > 1 {
				standing = standing[:len(standing)-1]
			}
		}
	}
	return standing[len(standing)-1]
}

// TenderStanding is what a tender's protocols and events make of it, kept
// by the stores beside the notice so that a search selects and sorts by it.
type TenderStanding struct {
	State    string    // TenderState
	Deadline time.Time // the applications deadline of DatesOf
	// Participants are the INNs of the participants that the tender's
	// protocols in force name, each once, sorted; LookupParticipantINN.
	Participants []string
}

// StandingOf returns the standing of t among its protocols and events, each
// newest first.
func StandingOf(t *Tender, protocols []*Protocol, events []*TenderEvent) TenderStanding {
	s := TenderStanding{Deadline: DatesOf(t, events).ApplicationsDeadline}
	s.State, _ = TenderState(t, protocols, events)
	for _, p := range ProtocolsInForce(protocols, events) {
		for _, part := range p.Participants {
			if part.INN != "" && !IsPlaceholderINN(part.INN) {
				s.Participants = append(s.Participants, part.INN)
			}
		}
	}
	slices.Sort(s.Participants)
	s.Participants = slices.Compact(s.Participants)
	return s
}

// Lookups returns the lookups the standing gives its tender: its state and
// each participant's INN.
func (s TenderStanding) Lookups() []Lookup {
	ls := []Lookup{{Field: LookupState, Value: s.State}}
	for _, inn := range s.Participants {
		ls = append(ls, Lookup{Field: LookupParticipantINN, Value: inn})
	}
	return ls
}
