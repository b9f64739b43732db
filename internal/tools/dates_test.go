package tools

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

func TestDetailDates(t *testing.T) {
	const number = "0373200041525000077"
	v1 := notice(number, tenderbase.TenderActive)
	v1.ApplicationsDeadline, v1.BiddingDate = day(10), day(11)
	v2 := *v1
	v2.Version, v2.PublishedAt, v2.ApplicationsDeadline = 2, day(4), day(12)
	dateChange := func(id string, d int, deadline, bidding time.Time) *tenderbase.TenderEvent {
		e := event(id, number, tenderbase.EventDateChange, d)
		e.ApplicationsDeadline, e.BiddingDate = deadline, bidding
		return e
	}
	prolonged := dateChange("e1", 3, day(14), time.Time{})
	moved := dateChange("e2", 5, time.Time{}, day(20))
	undone := event("e3", number, tenderbase.EventDateChangeCancel, 6)
	ofLot := dateChange("e4", 7, day(25), time.Time{})
	ofLot.LotNumber = 2
	for _, tt := range []struct {
		name string
		recs []tenderbase.Record
		want tenderDates
	}{
		{"the notice's own", []tenderbase.Record{v1},
			tenderDates{ApplicationsDeadline: day(10), BiddingDate: day(11), From: "tender " + number + " (version 1)"}},
		{"changes applied in order", []tenderbase.Record{moved, v1, prolonged},
			tenderDates{ApplicationsDeadline: day(14), BiddingDate: day(20), From: "tender_event e2 (date_change)"}},
		{"a cancelled change undone, a lot's change left alone", []tenderbase.Record{ofLot, undone, moved, v1, prolonged},
			tenderDates{ApplicationsDeadline: day(14), BiddingDate: day(11), From: "tender_event e1 (date_change)"}},
		{"a change before the latest notice is in it", []tenderbase.Record{prolonged, v1, &v2},
			tenderDates{ApplicationsDeadline: day(12), BiddingDate: day(11), From: "tender " + number + " (version 2)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set := emptySet(t, tt.recs...)
			got, _ := decodeCall[struct {
				Dates tenderDates `json:"dates"`
			}](t, set, tenderbase.PlanFree, "ru.detail", `{"id": "`+number+`"}`)
			same := cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
			if diff := cmp.Diff(tt.want, got.Dates, same); diff != "" {
				t.Errorf("dates (-want +got):\n%s", diff)
			}
		})
	}
}
