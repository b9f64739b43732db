package redflags

import (
	"fmt"

	"github.com/tenderbase/tenderbase"
)

const sourceAmendments = "EU indicator toolbox: substantial changes to the output; the count of 3 is Tenderbase's"

// manyAmendments is how many amendments of a notice fire the rule: a
// notice changed three times has moved under its bidders more than a
// correction or two would.
const manyAmendments = 3

// manyAmendmentsRule fires when the notice was amended at least three
// times: its current version is 4 or more. Version numbers are the EIS's
// own, so a notice whose earlier versions are not stored still counts.
func manyAmendmentsRule(e Evidence) Flag {
	f := Flag{Rule: "many_amendments", Source: sourceAmendments, Open: []string{"ru.izm " + e.PurchaseNumber}}
	t := e.Tender
	if t == nil {
		return f.cannotTell("no notice of the tender is stored")
	}
	version := t.Version
	for _, v := range e.Versions {
		version = max(version, v.Version)
	}
	amendments := max(version-1, 0)
	f.Because = []string{fmt.Sprintf("notice version %d: %s (%s stored)", version, plural(amendments, "amendment"), plural(len(e.Versions), "version"))}
	if n := dateChanges(e.Events); n > 0 {
		f.Because = append(f.Because, fmt.Sprintf("besides, %s of the deadlines", plural(n, "date change")))
	}
	return f.is(amendments >= manyAmendments)
}

func dateChanges(events []*tenderbase.TenderEvent) int {
	n := 0
	for _, ev := range events {
		if ev.Type == tenderbase.EventDateChange {
			n++
		}
	}
	return n
}
