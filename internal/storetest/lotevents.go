package storetest

import (
	"fmt"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// testLotEvents checks that a lot event changes the lots of the message it
// names whichever order the two arrive in: a cancelled auction cancels its
// lots, a cancelled result leaves the lot without it, an event of another
// source or message changes nothing, and a result put again after its
// cancellation does not come back.
func testLotEvents(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	lot := func(id, notice string, number int) *tenderbase.Lot {
		return &tenderbase.Lot{
			ID: id, Source: tenderbase.LotSourceFedresurs, NoticeNumber: notice, LotNumber: number,
			Title: "Автомобиль " + id, Status: tenderbase.TenderActive, StartPrice: 100000, PublishedAt: day(1),
		}
	}
	sold := func() *tenderbase.Lot {
		l := lot("efrsb-100_2", "100", 2)
		l.Status, l.Updated = tenderbase.TenderCompleted, day(5)
		l.Result = &tenderbase.LotResult{Outcome: tenderbase.LotSold, Price: 120000, PublishedAt: day(5), Document: "TradeResult", Message: "300"}
		return l
	}
	event := func(number, message string, at int) *tenderbase.LotEvent {
		return &tenderbase.LotEvent{
			ID: "efrsb-" + number, Source: tenderbase.LotSourceFedresurs, Type: tenderbase.LotEventCancellation,
			Document: "CancelAuctionTradeResult", Number: number, Message: message, PublishedAt: day(at), Reason: "отмена " + message,
		}
	}
	unsold, other, elsewhere := lot("efrsb-100_1", "100", 1), lot("efrsb-200_1", "200", 1), lot("torgi-1_1", "200", 1)
	elsewhere.Source = tenderbase.LotSourceTorgi
	cancelResult, cancelAuction := event("400", "300", 6), event("500", "200", 7)

	wantSold := sold()
	wantSold.Result, wantSold.Status, wantSold.SourceStatus, wantSold.Updated = nil, tenderbase.TenderActive, "CancelAuctionTradeResult", day(6)
	wantOther := lot("efrsb-200_1", "200", 1)
	wantOther.Status, wantOther.SourceStatus, wantOther.Updated = tenderbase.TenderCancelled, "CancelAuctionTradeResult", day(7)
	wantOther.Result = &tenderbase.LotResult{Outcome: tenderbase.LotCancelled, Reason: "отмена 200", PublishedAt: day(7), Document: "CancelAuctionTradeResult", Message: "500"}
	want := []tenderbase.Record{lot("efrsb-100_1", "100", 1), wantSold, wantOther, elsewhere}

	for name, puts := range map[string][][]tenderbase.Record{
		"lots first":   {{unsold, sold(), other, elsewhere}, {cancelResult, cancelAuction}},
		"events first": {{cancelResult, cancelAuction}, {unsold, sold(), other, elsewhere}},
		"one put":      {{cancelAuction, unsold, sold(), cancelResult, other, elsewhere}},
		"one by one":   {{other}, {cancelAuction}, {sold()}, {unsold}, {cancelResult}, {elsewhere}},
	} {
		t.Run(name, func(t *testing.T) {
			st := openStore(t, open)
			for _, rs := range puts {
				put(t, st, rs...)
			}
			for _, w := range want {
				if diff := gocmp.Diff(w, get(t, st, tenderbase.KindLot, w.Key())); diff != "" {
					t.Errorf("lot %s (-want +got):\n%s", w.Key(), diff)
				}
			}
			put(t, st, sold()) // the result again, after its cancellation
			if diff := gocmp.Diff(wantSold, get(t, st, tenderbase.KindLot, wantSold.Key())); diff != "" {
				t.Errorf("lot %s after its result is put again (-want +got):\n%s", wantSold.Key(), diff)
			}
			wantListed(t, st, tenderbase.KindLotEvent, "efrsb-500", "efrsb-400")
		})
	}
}

// testLotStops checks the stops and resumptions of torgi.gov.ru on a
// store: a stop suspends the active lots of its notice and a resumption
// resumes them, whichever order lots and events arrive in; a cancellation
// after them cancels; and each change of a lot is in the feed.
func testLotStops(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	const notice = "21000035130000000412"
	lot := func(number int) *tenderbase.Lot {
		return &tenderbase.Lot{
			ID: fmt.Sprintf("%s_%d", notice, number), Source: tenderbase.LotSourceTorgi, NoticeNumber: notice, LotNumber: number,
			Title: "Земельный участок", Status: tenderbase.TenderActive, SourceStatus: "PUBLISHED", PublishedAt: day(1),
		}
	}
	event := func(typ, document, uuid string, at int) *tenderbase.LotEvent {
		return &tenderbase.LotEvent{
			ID: document + "_" + notice + "_" + uuid, Source: tenderbase.LotSourceTorgi, Type: typ,
			Document: document, Number: uuid, Message: notice, PublishedAt: day(at),
		}
	}
	stop := event(tenderbase.LotEventStop, "noticeStop", "1d06ccbe", 3)
	resume := event(tenderbase.LotEventResumption, "noticeResumption", "0b7e4a91", 5)
	cancel := event(tenderbase.LotEventCancellation, "noticeCancel", "6f1d2c3b", 7)
	want := func(status, word string, at int, result *tenderbase.LotResult) *tenderbase.Lot {
		l := lot(2)
		l.Status, l.SourceStatus, l.Updated, l.Result, l.Suspended = status, word, day(at), result, word == "noticeStop"
		return l
	}
	for _, tt := range []struct {
		name   string
		events []tenderbase.Record
		want   *tenderbase.Lot
	}{
		{"stopped", []tenderbase.Record{stop}, want(tenderbase.TenderActive, "noticeStop", 3, nil)},
		{"resumed", []tenderbase.Record{resume, stop}, want(tenderbase.TenderActive, "noticeResumption", 5, nil)},
		{"cancelled", []tenderbase.Record{stop, cancel, resume}, want(tenderbase.TenderCancelled, "noticeCancel", 7,
			&tenderbase.LotResult{Outcome: tenderbase.LotCancelled, PublishedAt: day(7), Document: "noticeCancel", Message: "6f1d2c3b"})},
	} {
		for order, puts := range map[string][][]tenderbase.Record{
			"lots first":   {{lot(1), lot(2)}, tt.events},
			"events first": {tt.events, {lot(1), lot(2)}},
		} {
			t.Run(tt.name+", "+order, func(t *testing.T) {
				st := openStore(t, open)
				for _, rs := range puts {
					put(t, st, rs...)
				}
				if diff := gocmp.Diff(tt.want, get(t, st, tenderbase.KindLot, tt.want.Key())); diff != "" {
					t.Errorf("lot (-want +got):\n%s", diff)
				}
				put(t, st, lot(2)) // the notice again, after its events
				if diff := gocmp.Diff(tt.want, get(t, st, tenderbase.KindLot, tt.want.Key())); diff != "" {
					t.Errorf("lot after its notice is put again (-want +got):\n%s", diff)
				}
			})
		}
	}
	t.Run("feed", func(t *testing.T) {
		st := openStore(t, open)
		if _, ok := st.(tenderbase.ChangeFeed); !ok {
			t.Skip("the store has no feed")
		}
		put(t, st, lot(1))
		_, after := readFeed(t, st, []tenderbase.Kind{tenderbase.KindLot}, 0, 10)
		for _, e := range []*tenderbase.LotEvent{stop, resume} {
			put(t, st, e)
			lines, end := readFeed(t, st, []tenderbase.Kind{tenderbase.KindLot}, after, 10)
			if len(lines) != 1 || !strings.Contains(lines[0], notice+"_1") {
				t.Errorf("after %s, the feed has %q; want the lot once", e.Document, lines)
			}
			after = end
		}
	})
}
