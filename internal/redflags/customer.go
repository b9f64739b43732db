package redflags

import (
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// Thresholds of the flags of a customer.
const (
	// shareRed is the share of a customer's procedures at which a share
	// flag fires: the European Commission's Single Market Scoreboard
	// rates a single-bidder share above 20% red (10% to 20% amber).
	shareRed = 20
	// minProcedures is the fewest procedures a share is taken over: of
	// fewer, one tender moves it by 20 points or more, and the flag
	// cannot tell. Tenderbase's.
	minProcedures = 5
)

const (
	sourceSingleBidShare = "OCP Cardinal R018 (single bid received), per buyer; European Commission Single Market Scoreboard, public procurement: single bidder share, red above 20%"
	sourceCloseShare     = "IACRC red flag: winning bid very close to budget; Accounts Chamber of Russia, 2021: drops of 2-14%; the 20% share is the Scoreboard's red line"
	sourceAmendedShare   = "EU indicator toolbox: substantial changes to the output; 3 amendments and the 20% share are Tenderbase's"
)

// CheckCustomer applies the rules of a customer (docs/flags.md, "Red
// flags of a customer") to the figures its store counted, in order.
func CheckCustomer(f tenderbase.CustomerFigures) []Flag {
	return []Flag{
		share(Flag{Rule: "single_bid_share", Source: sourceSingleBidShare}, f.SingleBid, f.Bidded,
			"competitive procedures whose protocols name a participant", "had one participant"),
		share(Flag{Rule: "price_close_to_initial_share", Source: sourceCloseShare}, f.Close, f.Priced,
			"competitive procedures with an initial price and one contract", "were contracted at 99% of the initial price or more"),
		share(Flag{Rule: "many_amendments_share", Source: sourceAmendedShare}, f.Amended, f.Tenders,
			"notices", "were amended 3 times or more (version 4 or later)"),
		customerComplaints(f),
	}
}

// share fires when n of all, at least minProcedures, is shareRed percent
// or more.
func share(f Flag, n tenderbase.Examples, all int, what, did string) Flag {
	f.Open = opens(n.Purchases)
	if all < minProcedures {
		return f.cannotTell(fmt.Sprintf("%d %s stored, fewer than the %d a share is taken over", all, what, minProcedures))
	}
	pct := float64(n.Count) * 100 / float64(all)
	f.Because = append(f.Because, fmt.Sprintf("%d of %d %s %s: %.1f%%, the flag fires above %d%%", n.Count, all, what, did, pct, shareRed))
	if len(n.Purchases) > 0 {
		f.Because = append(f.Because, "for instance "+strings.Join(n.Purchases, ", "))
	}
	return f.is(pct > shareRed)
}

// customerComplaints fires when a check found a complaint against the
// customer's purchases founded, wholly or in part.
func customerComplaints(f tenderbase.CustomerFigures) Flag {
	fl := Flag{Rule: "complaints_upheld", Source: sourceComplaints, Open: opens(f.Upheld)}
	c := f.Complaints
	if c.Count == 0 {
		return fl.notFired("no complaint against the customer's purchases is stored")
	}
	fl.Because = append(fl.Because, fmt.Sprintf("%s: %d upheld, %d partly upheld, %d dismissed, %d pending",
		plural(c.Count, "complaint"), c.Upheld, c.Partly, c.Dismissed, c.Pending))
	if len(f.Upheld) > 0 {
		fl.Because = append(fl.Because, "upheld on "+strings.Join(f.Upheld, ", "))
	}
	if c.Upheld+c.Partly > 0 {
		return fl.is(true)
	}
	if c.Pending > 0 {
		return fl.cannotTell(fmt.Sprintf("no stored check result decides %s", plural(c.Pending, "complaint")))
	}
	return fl.is(false)
}

// opens returns the ru.flags calls of the purchases to look at next.
func opens(purchases []string) []string {
	var out []string
	for _, p := range purchases {
		out = append(out, "ru.flags "+p)
	}
	return out
}
