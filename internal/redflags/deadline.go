package redflags

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

const sourceShortDeadline = "OCP Cardinal R003 (short submission period); EU indicator toolbox: deadline under the legal minimum; 44-FZ art. 63 parts 2-3"

// The span of placements the quoted wordings of 44-FZ art. 63 are applied
// to: the wording of 07.06.2017, in force from 18.06.2017, and the one of
// 504-FZ of 31.12.2017 ask the same minimum. From 2022-01-01 the auction is
// governed by the wording of 360-FZ of 02.07.2021, which was not found
// published; of the wordings before 18.06.2017 none was read. Outside the
// span the rule cannot tell rather than apply a wording it has not seen
// (docs/flags.md).
var (
	art63From  = time.Date(2017, 6, 18, 0, 0, 0, 0, tenderbase.Moscow)
	art63Until = time.Date(2022, 1, 1, 0, 0, 0, 0, tenderbase.Moscow)
)

// art63Threshold is the initial price (roubles) above which art. 63 asks
// 15 days rather than 7 ("не превышает три миллиона рублей", part 2).
const art63Threshold = 3_000_000

// shortDeadline fires when a 44-FZ electronic auction placed its notice
// fewer days before the end of applications than art. 63 asks.
func shortDeadline(e Evidence) Flag {
	f := Flag{Rule: "short_deadline", Source: sourceShortDeadline, Open: []string{"ru.izm " + e.PurchaseNumber}}
	t := e.Tender
	if t == nil {
		return f.cannotTell("no notice of the tender is stored")
	}
	if t.Law != tenderbase.Law44 {
		return f.cannotTell("the minimum periods of 223-FZ (art. 3.2) are not quoted here; a 223-FZ customer's own regulation may set others")
	}
	placed, from := placement(e)
	deadline := tenderbase.DatesOf(t, e.Events).ApplicationsDeadline
	switch {
	case placed.IsZero():
		return f.cannotTell("neither the first version of the notice nor its start of applications is stored")
	case deadline.IsZero():
		return f.cannotTell("the notice states no deadline for applications")
	case placed.Before(art63From) || !placed.Before(art63Until):
		return f.cannotTell(fmt.Sprintf("placed on %s: the minimum in force then is not quoted here (only 44-FZ art. 63 in its wordings "+
			"of 18.06.2017-31.12.2021; the wording of 360-FZ in force since 2022-01-01 was not found published)", day(placed)))
	case !electronicAuction(t):
		return f.cannotTell(fmt.Sprintf("a %s: only the minimum for the electronic auction (44-FZ art. 63) is quoted here", method(t)))
	case t.MaxPrice <= 0 || currencyOf(t.Currency) != "RUB":
		return f.cannotTell("the notice states no initial price in roubles, on which the minimum depends")
	}
	minimum, part := 7, "part 2: an initial price not over 3 million roubles"
	if t.MaxPrice > art63Threshold {
		minimum, part = 15, "part 3: an initial price over 3 million roubles"
	}
	days := calendarDays(placed, deadline)
	f.Because = []string{fmt.Sprintf("applications window %s (%s placed %s, applications end %s); the minimum of 44-FZ art. 63 %s is %d days",
		plural(days, "day"), from, day(placed), day(deadline), part, minimum)}
	return f.is(days < minimum)
}

// placement returns when the notice was first placed: the publication of
// its first version, or else the start of applications, which the EIS sets
// to the placement; and which of them it is.
func placement(e Evidence) (time.Time, string) {
	for _, v := range e.Versions {
		if v.Version == 1 && !v.PublishedAt.IsZero() {
			return v.PublishedAt, "notice version 1"
		}
	}
	if t := e.Tender; !t.ApplicationsStart.IsZero() {
		return t.ApplicationsStart, "applications_start of the notice"
	}
	return time.Time{}, ""
}

// electronicAuction reports whether t is an electronic auction: the EIS
// codes EA44, EAP44, EA20... or the name "Электронный аукцион".
func electronicAuction(t *tenderbase.Tender) bool {
	name := strings.ToLower(t.PlacingMethod)
	return strings.HasPrefix(strings.ToUpper(t.PlacingMethodCode), "EA") ||
		(strings.Contains(name, "электронн") && strings.Contains(name, "аукцион"))
}

// calendarDays is the number of days from the date of a to the date of b,
// each taken in Moscow: the law counts days, not hours.
func calendarDays(a, b time.Time) int {
	da := dateOf(a)
	return int(dateOf(b).Sub(da).Hours()/24 + 0.5)
}

func dateOf(t time.Time) time.Time {
	y, m, d := t.In(tenderbase.Moscow).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
