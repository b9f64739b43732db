package torgiopen

import (
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest"
)

// publishLag is how long after a day ends its list may still answer 404
// as not published yet. The lists of a data set are made after their day
// (meta.json of the masterData set: the file of 18.12.2025 created
// 20251219T0000); one published this much later is missing, and an error.
const publishLag = 24 * time.Hour

// day is a day of the notice data set: a day in UTC, at its midnight.
type day struct{ start time.Time }

// walk returns the days whose lists hold what the scope asks for, oldest
// first: every day with a moment in [Since, Until).
func walk(scope harvest.Scope) []day {
	var days []day
	for d := midnight(scope.Since.UTC()); d.Before(scope.Until); d = d.AddDate(0, 0, 1) {
		days = append(days, day{d})
	}
	return days
}

// name is the day's partition in the sync log, "2026-04-22".
func (d day) name() string { return d.start.Format(time.DateOnly) }

// end is the moment the day ends, which the data is current to once its
// notices are imported.
func (d day) end() time.Time { return d.start.AddDate(0, 0, 1) }

// ended reports whether the day is over at now: its list will not grow.
func (d day) ended(now time.Time) bool { return !now.Before(d.end()) }

// due reports whether the day's list should be published at now.
func (d day) due(now time.Time) bool { return !now.Before(d.end().Add(publishLag)) }

// listFile is the name of the day's list in the data set:
// data-20260422T0000-20260423T0000-structure-20240401.json.
func (d day) listFile(structure string) string {
	return fmt.Sprintf("data-%sT0000-%sT0000-structure-%s.json", d.start.Format("20060102"), d.end().Format("20060102"), structure)
}

func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}
