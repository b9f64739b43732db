package tools

import (
	"fmt"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// tenderDates are a tender's dates once its date changes are applied.
type tenderDates struct {
	ApplicationsDeadline time.Time `json:"applications_deadline,omitzero" jsonschema:"The deadline for applications now: the notice's, unless a later date change or prolongation moved it."`
	BiddingDate          time.Time `json:"bidding_date,omitzero" jsonschema:"The date of the bidding now: the notice's, unless a later date change moved it."`
	From                 string    `json:"from" jsonschema:"The record that set these dates: tender_event <id> (date_change) or tender <purchase number> (version <n>)."`
}

// datesOf returns t's dates with the date changes published after it
// applied, oldest first: a date change moves the dates it gives, and a
// cancelled date change (date_change_cancel, which does not say which
// dates apply again) undoes the latest change still standing. Changes
// published before t are already in it, as a notice restates its dates;
// changes of one lot leave the tender's dates alone. events are newest
// first.
func datesOf(t *tenderbase.Tender, events []*tenderbase.TenderEvent) tenderDates {
	standing := []tenderDates{{
		ApplicationsDeadline: t.ApplicationsDeadline,
		BiddingDate:          t.BiddingDate,
		From:                 fmt.Sprintf("%s %s (version %d)", t.Kind(), t.Key(), t.Version),
	}}
	for _, e := range slices.Backward(events) {
		if e.LotNumber != 0 || !e.PublishedAt.After(t.PublishedAt) {
			continue
		}
		switch e.Type {
		case tenderbase.EventDateChange:
			next := standing[len(standing)-1]
			if !e.ApplicationsDeadline.IsZero() {
				next.ApplicationsDeadline = e.ApplicationsDeadline
			}
			if !e.BiddingDate.IsZero() {
				next.BiddingDate = e.BiddingDate
			}
			next.From = eventSource(e)
			standing = append(standing, next)
		case tenderbase.EventDateChangeCancel:
			if len(standing) > 1 {
				standing = standing[:len(standing)-1]
			}
		}
	}
	return standing[len(standing)-1]
}
