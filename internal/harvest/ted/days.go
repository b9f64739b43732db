package ted

import "time"

// settle is how long after a day ends it is completed: a notice the
// search indexes late is still taken by the runs until then. It is a
// caution, not a figure TED publishes.
const settle = 12 * time.Hour

// day is a day of publication: a day in UTC, at its midnight.
type day struct{ start time.Time }

// walk returns the days with a moment in [since, until), oldest first.
func walk(since, until time.Time) []day {
	var days []day
	for d := midnight(since.UTC()); d.Before(until); d = d.AddDate(0, 0, 1) {
		days = append(days, day{d})
	}
	return days
}

// name is the day's partition in the sync log, "2026-04-22".
func (d day) name() string { return d.start.Format(time.DateOnly) }

// end is the moment the day ends.
func (d day) end() time.Time { return d.start.AddDate(0, 0, 1) }

// settled reports whether the day's notices are all searchable at now.
func (d day) settled(now time.Time) bool { return !now.Before(d.end().Add(settle)) }

// query is the expert query for the notices published on the day, as a
// public client asks for one day:
// publication-date>=20260422 AND publication-date<=20260422.
func (d day) query() string {
	ymd := d.start.Format("20060102")
	return "publication-date>=" + ymd + " AND publication-date<=" + ymd
}

func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}
