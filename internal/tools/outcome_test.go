package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// day returns a moment of March 2025, in Moscow time as EIS publishes.
func day(d int) time.Time {
	return time.Date(2025, 3, d, 10, 0, 0, 0, time.FixedZone("MSK", 3*3600))
}

// stateResult is the part of ru.detail that its events and protocols decide.
type stateResult struct {
	Status    string            `json:"status"`
	State     string            `json:"state"`
	StateFrom string            `json:"state_from"`
	Events    []json.RawMessage `json:"events"`
	Protocols int               `json:"protocols"`
}

func detailState(t *testing.T, set *Set, number string) stateResult {
	t.Helper()
	r, _ := decodeCall[stateResult](t, set, tenderbase.PlanFree, "ru.detail", `{"id": "`+number+`"}`)
	return r
}

// decodeCall calls a tool of set that must succeed as a caller of plan,
// checks its output against the output schema and decodes it into an R.
func decodeCall[R any](t *testing.T, set *Set, plan tenderbase.Plan, name, args string) (R, Output) {
	t.Helper()
	var r R
	out, err := call(t, set, asPlan(plan), name, args)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	validateOutput(t, name, out)
	if err := json.Unmarshal(out.Value, &r); err != nil {
		t.Fatal(err)
	}
	return r, out
}

func TestStateOfDemoTenders(t *testing.T) {
	for _, c := range []struct {
		number            string
		state, from       string
		events, protocols int
	}{
		{"32493281398", tenderbase.TenderCancelled, "tender_event purchaseRejection-31696934 (cancellation)", 1, 0},
		{"0162307330524391275", tenderbase.TenderCompleted, "protocol 31020087 (winner)", 0, 1},
		{"32371456824", tenderbase.TenderFailed, "protocol 39794207 (failed)", 0, 1},
	} {
		got := detailState(t, demoSet, c.number)
		if got.State != c.state || got.StateFrom != c.from || len(got.Events) != c.events || got.Protocols != c.protocols {
			t.Errorf("%s: state %q from %q, %d events, %d protocols; want %q from %q, %d, %d",
				c.number, got.State, got.StateFrom, len(got.Events), got.Protocols, c.state, c.from, c.events, c.protocols)
		}
	}
}

// notice returns version 1 of a 44-FZ notice published on day 1.
func notice(number, status string) *tenderbase.Tender {
	return &tenderbase.Tender{
		PurchaseNumber: number, Law: "44", Version: 1, Title: "Поставка бумаги", Status: status,
		Customer: tenderbase.Party{INN: "7712137030", Name: "ГБУЗ «ГКБ № 7»"}, PublishedAt: day(1),
	}
}

func event(id, number, typ string, d int) *tenderbase.TenderEvent {
	return &tenderbase.TenderEvent{ID: id, PurchaseNumber: number, Law: "44", Type: typ, Document: "doc", PublishedAt: day(d)}
}

func protocol(id, number string, lot, d int, parts ...tenderbase.Participant) *tenderbase.Protocol {
	return &tenderbase.Protocol{ID: id, PurchaseNumber: number, Law: "44", Type: "epProtocolEF2020Final",
		Number: number + "-" + id, Version: 1, LotNumber: lot, PublishedAt: day(d), Participants: parts}
}

func bidder(inn string, rank int, winner bool) tenderbase.Participant {
	return tenderbase.Participant{Party: tenderbase.Party{INN: inn, Name: "ООО " + inn}, Rank: rank, Winner: winner}
}

func TestState(t *testing.T) {
	const (
		undone    = "0373200041525000001"
		redone    = "0373200041525000002"
		noApps    = "0373200041525000003"
		bare      = "0373200041525000004"
		lotFailed = "0373200041525000005"
		sameDay   = "0373200041525000006"
	)
	failed := protocol("p5", lotFailed, 2, 5)
	failed.Failed, failed.Reason = true, "Не подано ни одной заявки"
	// Records arrive in any order: events before their notice, the undoing
	// event before the cancellation it undoes.
	set := emptySet(t,
		event("e2", undone, tenderbase.EventCancellationFailure, 4),
		event("e1", undone, tenderbase.EventCancellation, 3),
		notice(undone, tenderbase.TenderActive),
		protocol("p1", undone, 0, 6, bidder("7701000001", 1, true)),
		notice(redone, tenderbase.TenderActive),
		event("e3", redone, tenderbase.EventCancellation, 2),
		event("e4", redone, tenderbase.EventCancellationFailure, 3),
		event("e5", redone, tenderbase.EventCancellation, 4),
		notice(noApps, tenderbase.TenderActive),
		event("e6", noApps, tenderbase.EventNoApplications, 5),
		notice(bare, ""),
		event("e7", bare, tenderbase.EventDateChange, 2),
		notice(lotFailed, tenderbase.TenderActive),
		protocol("p4", lotFailed, 1, 4, bidder("7701000001", 1, true)),
		failed,
		notice(sameDay, tenderbase.TenderActive),
		event("e8", sameDay, tenderbase.EventCancellationFailure, 3),
		event("e9", sameDay, tenderbase.EventCancellation, 3),
	)
	for _, c := range []struct {
		number, state, from string
	}{
		// The cancellation was itself cancelled: the protocol decides.
		{undone, tenderbase.TenderCompleted, "protocol p1 (winner)"},
		// Cancelled, undone, cancelled again.
		{redone, tenderbase.TenderCancelled, "tender_event e5 (cancellation)"},
		{noApps, tenderbase.TenderFailed, "tender_event e6 (no_applications)"},
		// A date change leaves the state alone; no status is active.
		{bare, tenderbase.TenderActive, "tender " + bare + " (version 1)"},
		// One lot failed, the other was won.
		{lotFailed, tenderbase.TenderCompleted, "protocol p4 (winner)"},
		// A failure published with the cancellation undoes it.
		{sameDay, tenderbase.TenderActive, "tender " + sameDay + " (version 1)"},
	} {
		got := detailState(t, set, c.number)
		if got.State != c.state || got.StateFrom != c.from {
			t.Errorf("%s: state %q from %q, want %q from %q", c.number, got.State, got.StateFrom, c.state, c.from)
		}
		if want := tenderbase.TenderActive; c.number != bare && got.Status != want {
			t.Errorf("%s: the record's status is %q, want the notice's own %q", c.number, got.Status, want)
		}
	}
	got := detailState(t, set, redone)
	var ids []string
	for _, e := range got.Events {
		var ev tenderbase.TenderEvent
		if err := json.Unmarshal(e, &ev); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ev.ID)
	}
	if diff := cmp.Diff([]string{"e5", "e4", "e3"}, ids); diff != "" {
		t.Errorf("events of %s, newest first (-want +got):\n%s", redone, diff)
	}
}

func TestContractByNumProtocolWinners(t *testing.T) {
	const (
		lots   = "0373200041525000011"
		noneOf = "0373200041525000012"
	)
	tender := notice(lots, tenderbase.TenderCompleted)
	tender.Participants = []tenderbase.Participant{bidder("7701000009", 1, true)}
	other := notice(noneOf, tenderbase.TenderCompleted)
	other.Participants = []tenderbase.Participant{bidder("7701000008", 2, false), bidder("7701000009", 1, false)}
	failed := protocol("p4", lots, 1, 9)
	failed.Failed = true
	set := emptySet(t, tender, other,
		protocol("p1", lots, 1, 3, bidder("7701000001", 1, true), bidder("7701000002", 2, false)),
		protocol("p2", lots, 1, 5, bidder("7701000002", 1, false), bidder("7701000001", 2, false)),
		protocol("p3", lots, 2, 4, bidder("7701000003", 1, true)),
		failed,
		protocol("p5", noneOf, 0, 4, bidder("7701000008", 2, false)),
	)
	for _, c := range []struct {
		number    string
		winners   []string
		protocols []string
	}{
		// Lot 1: the newest protocol naming a winner (p2, by rank), not the
		// failed one after it; lot 2: p3.
		{lots, []string{"7701000002", "7701000003"}, []string{"p4", "p2", "p3", "p1"}},
		// No protocol names a winner: the notice's own participants do.
		{noneOf, []string{"7701000009"}, []string{"p5"}},
	} {
		got, _ := decodeCall[winnerResult](t, set, tenderbase.PlanStandard, "ru.contractByNum", `{"tend_num": "`+c.number+`"}`)
		var inns, ids []string
		for _, w := range got.Winners {
			inns = append(inns, w.INN)
		}
		for _, p := range got.Protocols {
			ids = append(ids, recordKey(t, p, "id"))
		}
		if diff := cmp.Diff(c.winners, inns); diff != "" {
			t.Errorf("%s winners (-want +got):\n%s", c.number, diff)
		}
		if diff := cmp.Diff(c.protocols, ids); diff != "" {
			t.Errorf("%s protocols (-want +got):\n%s", c.number, diff)
		}
	}
}

// recordKey returns the string member name of a record's JSON.
func recordKey(t *testing.T, rec json.RawMessage, name string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec, &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m[name].(string)
	return s
}

// A tender whose notice was never imported is still known by its protocol.
func TestKnownOnlyThroughProtocol(t *testing.T) {
	const number = "0373200041525000021"
	p := protocol("p1", number, 0, 4, bidder("7701000001", 1, true), bidder("7701000002", 2, false))
	set := emptySet(t, p, event("e1", number, tenderbase.EventDateChange, 2))

	for _, c := range []struct {
		plan       tenderbase.Plan
		want       string
		restricted []string
	}{
		{tenderbase.PlanFree, `"tender":null,"winners":null,"protocols":[{`, []string{"participants", "winners"}},
		{tenderbase.PlanStandard, `"tender":null,"winners":[{"inn":"7701000001"`, nil},
	} {
		out, err := call(t, set, asPlan(c.plan), "ru.contractByNum", `{"tend_num": "`+number+`"}`)
		if err != nil {
			t.Fatalf("%s: %v", c.plan, err)
		}
		validateOutput(t, "ru.contractByNum", out)
		if !strings.Contains(string(out.Value), c.want) || !strings.HasSuffix(string(out.Value), `"contracts":[]}`) {
			t.Errorf("%s: %s lacks %s", c.plan, out.Value, c.want)
		}
		if !slices.Equal(out.Restricted, c.restricted) {
			t.Errorf("%s: restricted %v, want %v", c.plan, out.Restricted, c.restricted)
		}
	}

	_, err := call(t, set, asPlan(tenderbase.PlanStandard), "ru.detail", `{"id": "`+number+`"}`)
	if tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND || !strings.Contains(err.Error(), "only 1 protocol(s) and 1 event(s); ru.contractByNum") {
		t.Errorf("ru.detail: %v, want not found naming what is known", err)
	}

	got, out := decodeCall[izmResult](t, set, tenderbase.PlanFree, "ru.izm", `{"tend_num": "`+number+`"}`)
	if len(got.Versions) != 0 || len(got.Timeline) != 2 || got.Timeline[0].Kind != "tender_event" || got.Timeline[1].Kind != "protocol" {
		t.Errorf("ru.izm: %s", out.Value)
	}

	if _, err := call(t, set, asPlan(tenderbase.PlanFree), "contragent.byInn", `{"inn": "7701000001"}`); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("contragent.byInn of a participant for a free caller: %v, want not found", err)
	}
	_, out = decodeCall[innResult](t, set, tenderbase.PlanStandard, "contragent.byInn", `{"inn": "7701000001"}`)
	for _, part := range []string{`"name":"ООО 7701000001","name_source":"protocol p1"`, `"as_participant":{"protocols":1,"wins":1}`} {
		if !strings.Contains(string(out.Value), part) {
			t.Errorf("contragent.byInn: %s lacks %s", out.Value, part)
		}
	}
}

func TestIzmTimeline(t *testing.T) {
	const number = "0373200041525000031"
	v1 := notice(number, tenderbase.TenderActive)
	v2 := *v1
	v2.Version, v2.PublishedAt, v2.MaxPrice = 2, day(3), 120
	v2.Change = &tenderbase.Change{Reason: "Цена"}
	dates := event("e1", number, tenderbase.EventDateChange, 2)
	dates.ApplicationsDeadline, dates.BiddingDate = day(10), day(11)
	cancel := event("e2", number, tenderbase.EventCancellation, 4)
	cancel.Reason = "Изменение потребности"
	undo := event("e3", number, tenderbase.EventCancellationFailure, 5)
	p := protocol("p1", number, 0, 12, bidder("7701000001", 1, true), bidder("7701000002", 2, false))
	p.ProtocolDate = day(11)
	failedLot := protocol("p2", number, 2, 12)
	failedLot.Failed, failedLot.Reason = true, "Нет заявок"
	set := emptySet(t, failedLot, p, undo, &v2, cancel, dates, v1)

	got, out := decodeCall[izmResult](t, set, tenderbase.PlanStandard, "ru.izm", `{"tend_num": "`+number+`"}`)
	zero, one, two := &count{N: new(0)}, &count{N: new(1)}, &count{N: new(2)}
	want := []timelineEntry{
		{Kind: "version", PublishedAt: day(1), Version: 1},
		{Kind: "tender_event", PublishedAt: day(2), ID: "e1", Type: "date_change", ApplicationsDeadline: day(10), BiddingDate: day(11)},
		{Kind: "version", PublishedAt: day(3), Version: 2, Changed: []string{"max_price"}, Reason: "Цена"},
		{Kind: "tender_event", PublishedAt: day(4), ID: "e2", Type: "cancellation", Reason: "Изменение потребности"},
		{Kind: "tender_event", PublishedAt: day(5), ID: "e3", Type: "cancellation_failure"},
		{Kind: "protocol", PublishedAt: day(12), ID: "p1", Type: "epProtocolEF2020Final", Number: number + "-p1",
			ProtocolDate: day(11), Participants: two, Winners: one},
		{Kind: "protocol", PublishedAt: day(12), ID: "p2", Type: "epProtocolEF2020Final", Number: number + "-p2",
			LotNumber: 2, Reason: "Нет заявок", Failed: true, Participants: zero, Winners: zero},
	}
	same := cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
	if diff := cmp.Diff(want, got.Timeline, same); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
	if len(got.Versions) != 2 || len(out.Restricted) != 0 {
		t.Errorf("%d versions, restricted %v; want 2 and nothing", len(got.Versions), out.Restricted)
	}

	// A free caller sees the protocols, but not how many took part or won.
	_, out = decodeCall[izmResult](t, set, tenderbase.PlanFree, "ru.izm", `{"tend_num": "`+number+`"}`)
	wantRestricted := []string{"contact", "participants", "timeline.participants", "timeline.winners"}
	if diff := cmp.Diff(wantRestricted, out.Restricted); diff != "" {
		t.Errorf("free restricted (-want +got):\n%s", diff)
	}
	if n := strings.Count(string(out.Value), `"participants":null,"winners":null`); n != 2 {
		t.Errorf("free timeline has %d protocols with their counts null, want 2: %s", n, out.Value)
	}
}

// A protocol cancellation takes its protocol out of the tender's state, its
// winners and its participants' wins, whichever of the two arrives first,
// while ru.izm still shows both.
func TestProtocolCancellation(t *testing.T) {
	const (
		number = "0373200041525000041"
		first  = "7701000001" // winner of the protocol in force
		voided = "7701000002" // winner of the cancelled one only
	)
	older := protocol("p1", number, 0, 5, bidder(first, 1, true), bidder(voided, 2, false))
	newer := protocol("p2", number, 0, 7, bidder(voided, 1, true), bidder(first, 2, false))
	cancel := event("e1", number, tenderbase.EventProtocolCancellation, 9)
	cancel.ProtocolNumber, cancel.Reason = newer.Number, "предписание № 1 от 08.03.2025, УФАС"
	recs := []tenderbase.Record{notice(number, tenderbase.TenderActive), older, newer, cancel}
	for _, order := range []string{"protocols first", "cancellation first"} {
		t.Run(order, func(t *testing.T) {
			if order == "cancellation first" {
				recs = slices.Clone(recs)
				slices.Reverse(recs)
			}
			set := emptySet(t, recs...)
			got := detailState(t, set, number)
			if got.State != tenderbase.TenderCompleted || got.StateFrom != "protocol p1 (winner)" || got.Protocols != 1 || len(got.Events) != 1 {
				t.Errorf("ru.detail: state %q from %q, %d protocols, %d events; want completed from p1, 1 protocol, 1 event",
					got.State, got.StateFrom, got.Protocols, len(got.Events))
			}
			won, _ := decodeCall[winnerResult](t, set, tenderbase.PlanStandard, "ru.contractByNum", `{"tend_num": "`+number+`"}`)
			if len(won.Winners) != 1 || won.Winners[0].INN != first || len(won.Protocols) != 1 || recordKey(t, won.Protocols[0], "id") != "p1" {
				t.Errorf("ru.contractByNum: winners %v, %d protocols; want %s from p1 alone", won.Winners, len(won.Protocols), first)
			}
			for inn, want := range map[string]participantActivity{first: {Protocols: 1, Wins: 1}, voided: {Protocols: 1}} {
				by, _ := decodeCall[innResult](t, set, tenderbase.PlanStandard, "contragent.byInn", `{"inn": "`+inn+`"}`)
				if by.AsParticipant == nil || *by.AsParticipant != want {
					t.Errorf("contragent.byInn %s: %+v, want %+v", inn, by.AsParticipant, want)
				}
			}
			izm, _ := decodeCall[izmResult](t, set, tenderbase.PlanFree, "ru.izm", `{"tend_num": "`+number+`"}`)
			var kinds []string
			for _, e := range izm.Timeline {
				kinds = append(kinds, e.Kind+" "+e.ID+" "+e.Number)
			}
			want := []string{"version  ", "protocol p1 " + older.Number, "protocol p2 " + newer.Number, "tender_event e1 " + newer.Number}
			if diff := cmp.Diff(want, kinds); diff != "" {
				t.Errorf("ru.izm timeline (-want +got):\n%s", diff)
			}
		})
	}
}

// A tender whose one protocol was cancelled is back to what its notice
// says, and ru.contractByNum still knows it by the cancelled protocol.
func TestOnlyProtocolCancelled(t *testing.T) {
	const number = "0373200041525000042"
	p := protocol("p1", number, 0, 5, bidder("7701000001", 1, true))
	cancel := event("e1", number, tenderbase.EventProtocolCancellation, 6)
	cancel.ProtocolNumber = p.Number
	set := emptySet(t, cancel, p)
	won, _ := decodeCall[winnerResult](t, set, tenderbase.PlanStandard, "ru.contractByNum", `{"tend_num": "`+number+`"}`)
	if len(won.Winners) != 0 || len(won.Protocols) != 0 {
		t.Errorf("ru.contractByNum: winners %v, %d protocols; want none", won.Winners, len(won.Protocols))
	}
	set = emptySet(t, notice(number, tenderbase.TenderActive), p, cancel)
	if got := detailState(t, set, number); got.State != tenderbase.TenderActive || got.StateFrom != "tender "+number+" (version 1)" {
		t.Errorf("ru.detail: state %q from %q; want the notice's", got.State, got.StateFrom)
	}
}
