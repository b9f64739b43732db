package storetest

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// Purchase numbers of the tenders of StateRecords.
const (
	stateFailed    = "0373100000125000101" // its one protocol failed
	stateWon       = "0373100000125000102" // its protocol names a winner
	stateCancelled = "0373100000125000103" // a winner, then a cancellation
	stateActive    = "0373100000125000104" // nothing since its notice
)

// StateRecords returns tenders with protocols and events that give each
// another state (tenderbase.TenderState).
func StateRecords() []tenderbase.Record {
	tender := func(number string, d int) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: number, Law: "44", Version: 1, Title: "Поставка бумаги",
			Customer: tenderbase.Party{INN: "7701000001"}, Region: 77, PublishedAt: day(d)}
	}
	protocol := func(id, number string, failed bool, d int) *tenderbase.Protocol {
		p := &tenderbase.Protocol{ID: id, PurchaseNumber: number, Number: id, Failed: failed, PublishedAt: day(d)}
		if !failed {
			p.Participants = []tenderbase.Participant{{Party: tenderbase.Party{INN: "7701234567"}, Winner: true}}
		}
		return p
	}
	return []tenderbase.Record{
		tender(stateFailed, 1), tender(stateWon, 2), tender(stateCancelled, 3), tender(stateActive, 4),
		protocol("state-p1", stateFailed, true, 5),
		protocol("state-p2", stateWon, false, 6),
		protocol("state-p3", stateCancelled, false, 7),
		&tenderbase.TenderEvent{ID: "state-e1", PurchaseNumber: stateCancelled, Type: tenderbase.EventCancellation,
			Document: "fcsNotificationCancel", PublishedAt: day(8)},
	}
}

// CheckStates checks that s, holding StateRecords, finds each of their
// tenders by its state lookup, and by no other.
func CheckStates(t *testing.T, s tenderbase.Store) {
	t.Helper()
	want := map[string][]string{
		tenderbase.TenderFailed: {stateFailed}, tenderbase.TenderCompleted: {stateWon},
		tenderbase.TenderCancelled: {stateCancelled}, tenderbase.TenderActive: {stateActive},
	}
	for _, state := range tenderbase.TenderStates {
		page, err := s.Search(t.Context(), tenderbase.Search{Kind: tenderbase.KindTender,
			Where: []tenderbase.Lookup{{Field: tenderbase.LookupState, Value: state}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range page.Items {
			got = append(got, r.Key())
		}
		slices.Sort(got)
		if diff := cmp.Diff(want[state], got); diff != "" || page.Total != len(want[state]) {
			t.Errorf("tenders in state %s: total %d (-want +got):\n%s", state, page.Total, diff)
		}
	}
}

// CheckStatesFollowPuts puts the records of StateRecords into the empty
// store s one at a time, newest first, so that each tender comes after its
// protocols and events, and checks that every Put derived the states its
// records change.
func CheckStatesFollowPuts(t *testing.T, s tenderbase.Store) {
	t.Helper()
	recs := StateRecords()
	for i := len(recs) - 1; i >= 0; i-- {
		if _, err := s.Put(t.Context(), recs[i:i+1]); err != nil {
			t.Fatal(err)
		}
	}
	CheckStates(t, s)
}
