package tenderbase

import (
	"cmp"
	"slices"
	"time"
)

// Types of lot events.
const (
	// LotEventCancellation cancels the message it names: an auction's
	// announcement (every lot of it is cancelled) or its result (the lots
	// have no result again).
	LotEventCancellation = "cancellation"
	// LotEventAnnulment annuls the message it names as published in error;
	// it acts on the lots as a cancellation does.
	LotEventAnnulment = "annulment"
	// LotEventStop suspends the procedure of the notice it names
	// (torgi.gov.ru's noticeStop): its active lots are Suspended until a
	// resumption.
	LotEventStop = "stop"
	// LotEventResumption resumes a suspended procedure (noticeResumption):
	// its suspended lots are active again.
	LotEventResumption = "resumption"
)

// LookupMessage is the lookup by which lot events name the message they act
// on, and by which a lot is found from the message that reported its result.
const LookupMessage = "message"

// LotEvent is a document that changes the lots of an auction without
// naming them: fedresurs' CancelAuctionTradeResult and Annul name the
// message they cancel, not its lots, and the entries of torgi.gov.ru's daily
// lists for a noticeCancel, noticeStop, noticeResumption or noticeAnnulment
// name the notice only. Like a tender's events it is a record
// of its own, so that it applies whatever order the two arrive in: a store
// applies every event to each lot of the message it names (ApplyLotEvents),
// to the lots stored and to those that come later.
type LotEvent struct {
	ID       string `json:"id"` // e.g. efrsb-<number of the cancelling message>, noticeStop_<notice>_<uuid>
	Source   string `json:"source,omitempty"`
	Type     string `json:"type"`     // LotEventCancellation, LotEventAnnulment, LotEventStop, LotEventResumption
	Document string `json:"document"` // the publisher's document, e.g. "CancelAuctionTradeResult", "noticeStop"
	// Number is the publisher's number of the event's own message.
	Number string `json:"number,omitempty"`
	// Message is the number of the message it cancels: an auction (the
	// notice number of its lots) or a result (LotResult.Message).
	Message     string    `json:"message"`
	PublishedAt time.Time `json:"published_at"`
	Reason      string    `json:"reason,omitempty"`
	URL         string    `json:"url,omitempty"`
}

func (e *LotEvent) Kind() Kind      { return KindLotEvent }
func (e *LotEvent) Key() string     { return e.ID }
func (e *LotEvent) Revision() int   { return 0 }
func (e *LotEvent) Date() time.Time { return e.PublishedAt }

// SearchText returns nil: events are found through their lots.
func (e *LotEvent) SearchText() []Text { return nil }

// Flags returns nil.
func (e *LotEvent) Flags() []string { return nil }

// Lookups returns the message the event acts on.
func (e *LotEvent) Lookups() []Lookup { return lookups(LookupMessage, e.Message) }

// ApplyLotEvents returns l with events applied, oldest first, and whether
// any of them changed it. An event applies to the lots of its source whose
// notice is the message it names, which it cancels (status cancelled, a
// cancelled result with the event's reason), and to those whose result that
// message reported, which lose the result and stand active again. A stop or
// a resumption changes only an active lot of the notice it names, and none
// whose latest word (Updated) is newer: a stop suspends it, a resumption
// resumes a suspended one, each giving it its document as the source
// status; a lot completed, failed or cancelled stays so. It is the one rule of a lot's events: every store
// applies it when a lot or an event is put.
func ApplyLotEvents(l *Lot, events []*LotEvent) (*Lot, bool) {
	events = slices.SortedStableFunc(slices.Values(events), func(a, b *LotEvent) int {
		return cmp.Or(a.PublishedAt.Compare(b.PublishedAt), cmp.Compare(a.ID, b.ID))
	})
	out, changed := l, false
	for _, e := range events {
		if e.Message == "" || e.Source != l.Source {
			continue
		}
		switch {
		case e.Type == LotEventStop || e.Type == LotEventResumption:
			suspend := e.Type == LotEventStop
			if e.Message != out.NoticeNumber || out.Status != TenderActive || e.PublishedAt.Before(out.Updated) ||
				out.Suspended == suspend && (!suspend || out.SourceStatus == e.Document) {
				continue // ended, older than the lot's latest word, not suspended, or applied already
			}
			c := *out
			c.Suspended, c.SourceStatus = suspend, e.Document
			c.Updated = later(c.Updated, e.PublishedAt)
			out, changed = &c, true
		case e.Message == out.NoticeNumber:
			if out.Result != nil && out.Result.Outcome == LotCancelled && out.Result.Message == e.Number && e.Number != "" {
				continue // applied already
			}
			c := *out
			c.Status, c.SourceStatus, c.Suspended = TenderCancelled, e.Document, false
			c.Result = &LotResult{Outcome: LotCancelled, Reason: e.Reason, PublishedAt: e.PublishedAt, Document: e.Document, Message: e.Number}
			c.Updated = later(c.Updated, e.PublishedAt)
			out, changed = &c, true
		case out.Result != nil && out.Result.Message == e.Message:
			c := *out
			c.Result, c.Status, c.SourceStatus = nil, TenderActive, e.Document
			c.Updated = later(c.Updated, e.PublishedAt)
			out, changed = &c, true
		}
	}
	return out, changed
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
