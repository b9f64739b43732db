package tools

import (
	"time"

	"github.com/tenderbase/tenderbase"
)

// tenderDates are a tender's dates once its date changes are applied.
type tenderDates struct {
	ApplicationsDeadline time.Time `json:"applications_deadline,omitzero" jsonschema:"The deadline for applications now: the notice's, unless a later date change or prolongation moved it."`
	BiddingDate          time.Time `json:"bidding_date,omitzero" jsonschema:"The date of the bidding now: the notice's, unless a later date change moved it."`
	From                 string    `json:"from" jsonschema:"The record that set these dates: tender_event <id> (date_change) or tender <purchase number> (version <n>)."`
}

// datesOf returns t's dates with the date changes among events (newest
// first) applied, by tenderbase.DatesOf.
func datesOf(t *tenderbase.Tender, events []*tenderbase.TenderEvent) tenderDates {
	d := tenderbase.DatesOf(t, events)
	return tenderDates{ApplicationsDeadline: d.ApplicationsDeadline, BiddingDate: d.BiddingDate, From: d.From}
}
