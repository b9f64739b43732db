package redflags

import (
	"cmp"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// is returns f fired or not, its figures as they are.
func (f Flag) is(fired bool) Flag {
	f.State = NotFired
	if fired {
		f.State = Fired
	}
	if f.Because == nil {
		f.Because = []string{}
	}
	return f
}

// notFired returns f not fired because of what the sentence says.
func (f Flag) notFired(because string) Flag {
	f.Because = append(f.Because, because)
	return f.is(false)
}

// cannotTell returns f undecided for want of the data missing names.
func (f Flag) cannotTell(missing string) Flag {
	f.State, f.Missing = CannotTell, missing
	if f.Because == nil {
		f.Because = []string{}
	}
	return f
}

// method names t's placing method, by its name and code.
func method(t *tenderbase.Tender) string {
	switch {
	case t.PlacingMethod != "" && t.PlacingMethodCode != "":
		return t.PlacingMethod + ", " + t.PlacingMethodCode
	case t.PlacingMethod != "":
		return t.PlacingMethod
	}
	return t.PlacingMethodCode
}

// day writes the first date that is set, in Moscow, as YYYY-MM-DD.
func day(dates ...time.Time) string {
	for _, d := range dates {
		if !d.IsZero() {
			return d.In(tenderbase.Moscow).Format(time.DateOnly)
		}
	}
	return "an unknown date"
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// currencyOf returns the ISO code of a price, RUB when the record says none.
func currencyOf(c string) string { return cmp.Or(c, "RUB") }

// orOf returns the first of its arguments that is not empty.
func orOf(s ...string) string { return cmp.Or(s...) }
