package storetest

import (
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
