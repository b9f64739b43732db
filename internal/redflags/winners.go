package redflags

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

const (
	sourceWinnerNew      = "IACRC red flags of shell companies; the age of one year is Tenderbase's"
	sourceWinnerUnfair   = "44-FZ art. 104 (register of unfair suppliers), art. 31 part 1.1"
	sourceWinnerBankrupt = "44-FZ art. 31 part 1 item 3 (no liquidation or bankruptcy)"
)

// newWinnerAge is the age below which a winner was registered shortly
// before the notice.
const newWinnerAge = 365 * 24 * time.Hour

// winnerRule is a rule checked winner by winner: it fires when it fires
// for one of them, and cannot tell when it tells for none and one is
// missing what the rule needs.
type winnerRule struct {
	Flag
	// check returns the figure for w, or missing, and whether it fired.
	check func(w Winner) (figure, missing string, fired bool)
}

func (r winnerRule) over(e Evidence) Flag {
	f := r.Flag
	if len(e.Winners) == 0 {
		return f.cannotTell("no protocol of the tender names a winner and no contract names a supplier")
	}
	fired := false
	var missing []string
	for _, w := range e.Winners {
		f.Open = append(f.Open, "contragent.byInn "+w.INN)
		figure, lack, yes := r.check(w)
		if lack != "" {
			missing = append(missing, lack)
			continue
		}
		f.Because = append(f.Because, figure)
		fired = fired || yes
	}
	if !fired && len(missing) > 0 {
		return f.cannotTell(strings.Join(missing, "; "))
	}
	return f.is(fired)
}

// winnerNew fires when a winner was registered less than a year before the
// notice was placed (or, with no notice stored, before it won).
func winnerNew(e Evidence) Flag {
	ref, what := time.Time{}, ""
	if e.Tender != nil {
		if placed, _ := placement(e); !placed.IsZero() {
			ref, what = placed, "the notice was placed"
		} else if !e.Tender.PublishedAt.IsZero() {
			ref, what = e.Tender.PublishedAt, "the notice was published"
		}
	}
	return winnerRule{Flag: Flag{Rule: "winner_new", Source: sourceWinnerNew}, check: func(w Winner) (string, string, bool) {
		if w.Org == nil || w.Org.RegisteredAt.IsZero() {
			return "", fmt.Sprintf("no register card (EGRUL/EGRIP) with a registration date is stored for INN %s", w.INN), false
		}
		at, ago := ref, what
		if at.IsZero() {
			at, ago = w.Award, "it won"
		}
		if at.IsZero() {
			return "", "neither the notice's placement nor the award has a date", false
		}
		age := at.Sub(w.Org.RegisteredAt)
		return fmt.Sprintf("INN %s registered %s, %s before %s (%s)", w.INN, day(w.Org.RegisteredAt), plural(int(age.Hours()/24), "day"), ago, day(at)),
			"", age < newWinnerAge
	}}.over(e)
}

// winnerUnfair fires when an entry of the register of unfair suppliers
// naming a winner as the supplier barred it on the day it won or bars it
// today.
func winnerUnfair(e Evidence, now time.Time) Flag {
	return winnerRule{Flag: Flag{Rule: "winner_unfair", Source: sourceWinnerUnfair}, check: func(w Winner) (string, string, bool) {
		var barring []string
		for _, u := range w.Unfair {
			if u.RoleOf(w.INN) != tenderbase.UnfairRoleSupplier {
				continue
			}
			switch {
			case !w.Award.IsZero() && barredOn(u, w.Award):
				barring = append(barring, fmt.Sprintf("entry %s (included %s) barred INN %s on %s, when it won", u.RegistryNumber, day(u.IncludedAt), w.INN, day(w.Award)))
			case u.InRegister(now):
				barring = append(barring, fmt.Sprintf("entry %s (included %s) bars INN %s today", u.RegistryNumber, day(u.IncludedAt), w.INN))
			}
		}
		if len(barring) > 0 {
			return strings.Join(barring, "; "), "", true
		}
		switch n := suppliedEntries(w); n {
		case 0:
			return fmt.Sprintf("INN %s: no stored entry of the register names it as supplier", w.INN), "", false
		case 1:
			return fmt.Sprintf("INN %s: 1 stored entry of the register names it as supplier, not barring it when it won or today", w.INN), "", false
		default:
			return fmt.Sprintf("INN %s: %d stored entries of the register name it as supplier, none barring it when it won or today", w.INN, n), "", false
		}
	}}.over(e)
}

func suppliedEntries(w Winner) int {
	n := 0
	for _, u := range w.Unfair {
		if u.RoleOf(w.INN) == tenderbase.UnfairRoleSupplier {
			n++
		}
	}
	return n
}

// barredOn reports whether entry u barred its supplier on day d: it was
// included by then, and neither its term nor an exclusion had ended it.
func barredOn(u *tenderbase.UnfairSupplier, d time.Time) bool {
	if u.IncludedAt.IsZero() || u.IncludedAt.After(d) || u.State == tenderbase.UnfairRefused {
		return false
	}
	if u.Exclusion != nil && !u.Exclusion.Date.IsZero() && !u.Exclusion.Date.After(d) {
		return false
	}
	if u.ExcludeOn == "" {
		return true
	}
	until, err := time.ParseInLocation(time.DateOnly, u.ExcludeOn, tenderbase.Moscow)
	return err != nil || d.Before(until)
}

// winnerBankrupt fires when fedresurs sells a winner's property as a
// bankrupt's, or its register card says it is bankrupt.
func winnerBankrupt(e Evidence) Flag {
	return winnerRule{Flag: Flag{Rule: "winner_bankrupt", Source: sourceWinnerBankrupt}, check: func(w Winner) (string, string, bool) {
		var found []string
		for _, l := range w.Bankruptcy {
			found = append(found, fmt.Sprintf("fedresurs lot %s of %s sells the property of INN %s as a debtor", l.ID, day(l.PublishedAt), w.INN))
		}
		if w.Org != nil && bankruptText(w.Org.StatusText) {
			found = append(found, fmt.Sprintf("the register card of INN %s says %q", w.INN, w.Org.StatusText))
		}
		if len(found) > 0 {
			return strings.Join(found, "; "), "", true
		}
		card := "no register card stored"
		if w.Org != nil {
			card = "register status " + orOf(w.Org.StatusText, w.Org.Status, "not stated")
		}
		return fmt.Sprintf("INN %s: no stored fedresurs lot names it as a debtor; %s", w.INN, card), "", false
	}}.over(e)
}

// bankruptText reports whether a register's status names a bankruptcy
// (несостоятельность, банкротство, конкурсное производство).
func bankruptText(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "банкрот") || strings.Contains(s, "несостоятельн") || strings.Contains(s, "конкурсн")
}
