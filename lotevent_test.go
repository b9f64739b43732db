package tenderbase_test

import (
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

func TestApplyLotEvents(t *testing.T) {
	at := func(d int) time.Time { return time.Date(2026, 5, d, 10, 0, 0, 0, time.UTC) }
	lot := func() *tenderbase.Lot {
		return &tenderbase.Lot{ID: "efrsb-100_1", Source: tenderbase.LotSourceFedresurs, NoticeNumber: "100", Status: tenderbase.TenderCompleted,
			Result: &tenderbase.LotResult{Outcome: tenderbase.LotSold, Price: 10, Message: "300"}, PublishedAt: at(1), Updated: at(5)}
	}
	event := func(number, message string, d int) *tenderbase.LotEvent {
		return &tenderbase.LotEvent{ID: "efrsb-" + number, Source: tenderbase.LotSourceFedresurs, Type: tenderbase.LotEventCancellation,
			Document: "CancelAuctionTradeResult", Number: number, Message: message, PublishedAt: at(d)}
	}
	torgi := event("9", "100", 8)
	torgi.Source = tenderbase.LotSourceTorgi
	for _, tt := range []struct {
		name    string
		events  []*tenderbase.LotEvent
		changed bool
		status  string
		outcome string // of the result; "" for none
		updated time.Time
	}{
		{"no events", nil, false, "completed", "sold", at(5)},
		{"another message", []*tenderbase.LotEvent{event("9", "999", 8)}, false, "completed", "sold", at(5)},
		{"another source", []*tenderbase.LotEvent{torgi}, false, "completed", "sold", at(5)},
		{"result cancelled", []*tenderbase.LotEvent{event("400", "300", 6)}, true, "active", "", at(6)},
		{"auction cancelled", []*tenderbase.LotEvent{event("500", "100", 7)}, true, "cancelled", "cancelled", at(7)},
		// Applied oldest first, whatever order they are given in: the
		// result goes, then the auction is cancelled.
		{"both", []*tenderbase.LotEvent{event("500", "100", 7), event("400", "300", 6)}, true, "cancelled", "cancelled", at(7)},
	} {
		got, changed := tenderbase.ApplyLotEvents(lot(), tt.events)
		outcome := ""
		if got.Result != nil {
			outcome = got.Result.Outcome
		}
		if changed != tt.changed || got.Status != tt.status || outcome != tt.outcome || !got.Updated.Equal(tt.updated) {
			t.Errorf("%s: changed %v, %s, result %q, updated %v; want %v, %s, %q, %v",
				tt.name, changed, got.Status, outcome, got.Updated, tt.changed, tt.status, tt.outcome, tt.updated)
		}
		if again, changed := tenderbase.ApplyLotEvents(got, tt.events); changed {
			t.Errorf("%s: applied twice, the events change the lot again: %+v", tt.name, again)
		}
	}
}

// TestApplyLotStops: a stop suspends an active lot, a resumption resumes a
// suspended one, and neither touches a lot that has ended.
func TestApplyLotStops(t *testing.T) {
	at := func(d int) time.Time { return time.Date(2026, 4, d, 10, 0, 0, 0, time.UTC) }
	lot := func(status, sourceStatus string) *tenderbase.Lot {
		return &tenderbase.Lot{ID: "22000007330000000402_1", Source: tenderbase.LotSourceTorgi, NoticeNumber: "22000007330000000402",
			Status: status, SourceStatus: sourceStatus, PublishedAt: at(1)}
	}
	event := func(typ, document string, d int) *tenderbase.LotEvent {
		return &tenderbase.LotEvent{ID: document + "_22000007330000000402_" + string(rune('a'+d)), Source: tenderbase.LotSourceTorgi,
			Type: typ, Document: document, Number: string(rune('a' + d)), Message: "22000007330000000402", PublishedAt: at(d)}
	}
	stop, resume := event(tenderbase.LotEventStop, "noticeStop", 5), event(tenderbase.LotEventResumption, "noticeResumption", 7)
	cancel := event(tenderbase.LotEventCancellation, "noticeCancel", 9)
	for _, tt := range []struct {
		name         string
		lot          *tenderbase.Lot
		events       []*tenderbase.LotEvent
		changed      bool
		status, word string
		updated      time.Time
	}{
		{"stopped", lot("active", "APPLICATIONS_SUBMISSION"), []*tenderbase.LotEvent{stop}, true, "active", "noticeStop", at(5)},
		{"resumed", lot("active", "APPLICATIONS_SUBMISSION"), []*tenderbase.LotEvent{resume, stop}, true, "active", "noticeResumption", at(7)},
		{"resumed, not stopped", lot("active", "APPLICATIONS_SUBMISSION"), []*tenderbase.LotEvent{resume}, false, "active", "APPLICATIONS_SUBMISSION", time.Time{}},
		{"stopped, then cancelled", lot("active", "PUBLISHED"), []*tenderbase.LotEvent{cancel, stop}, true, "cancelled", "noticeCancel", at(9)},
		{"completed", lot("completed", "SUCCEED"), []*tenderbase.LotEvent{stop, resume}, false, "completed", "SUCCEED", time.Time{}},
		{"another notice", lot("active", "PUBLISHED"), []*tenderbase.LotEvent{{ID: "x", Source: tenderbase.LotSourceTorgi, Type: tenderbase.LotEventStop,
			Document: "noticeStop", Message: "1", PublishedAt: at(5)}}, false, "active", "PUBLISHED", time.Time{}},
	} {
		got, changed := tenderbase.ApplyLotEvents(tt.lot, tt.events)
		if changed != tt.changed || got.Status != tt.status || got.SourceStatus != tt.word || !got.Updated.Equal(tt.updated) ||
			got.Suspended != (tt.word == "noticeStop") {
			t.Errorf("%s: changed %v, %s (%s), suspended %v, updated %v; want %v, %s (%s), %v",
				tt.name, changed, got.Status, got.SourceStatus, got.Suspended, got.Updated, tt.changed, tt.status, tt.word, tt.updated)
		}
		if again, changed := tenderbase.ApplyLotEvents(got, tt.events); changed {
			t.Errorf("%s: applied twice, the events change the lot again: %+v", tt.name, again)
		}
	}
}
