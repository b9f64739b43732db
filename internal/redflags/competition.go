package redflags

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// Sources of the rules of competition.
const (
	sourceSingleBid  = "OCP Cardinal R018 (single bid received); EU indicator toolbox: single received bid"
	sourcePriceClose = "IACRC red flag: winning bid very close to budget; Accounts Chamber of Russia, 2021: drops of 2-14%"
)

// priceCloseShare is the share of the initial price at or above which a
// price is close to it: a drop under 1%, below the smallest average drop
// the Accounts Chamber reports for any band of purchases (2%, over 100
// million roubles).
const priceCloseShare = 0.99

// singleSupplier reports whether t is a purchase from a single supplier.
func singleSupplier(t *tenderbase.Tender) bool {
	return strings.HasPrefix(strings.ToUpper(t.PlacingMethodCode), "EP") ||
		strings.Contains(strings.ToLower(t.PlacingMethod), "единственн")
}

// singleBid fires when a lot of a competitive procedure got one
// application: the protocol of the lot that names the most applications
// names one.
func singleBid(e Evidence) Flag {
	f := Flag{Rule: "single_bid", Source: sourceSingleBid, Open: []string{"ru.contractByNum " + e.PurchaseNumber}}
	yes, known, from := competitive(e)
	if known && !yes {
		return f.notFired(fmt.Sprintf("a purchase from a single supplier (%s): no bidding to count", from))
	}
	lots := applicationsByLot(e.Protocols)
	if len(lots) == 0 {
		return f.cannotTell("no stored protocol of the tender names its applications")
	}
	fired := false
	for _, l := range lots {
		f.Because = append(f.Because, fmt.Sprintf("%s in protocol %s of %s", plural(l.count, "application"), l.protocol(), day(l.from.ProtocolDate, l.from.PublishedAt)))
		fired = fired || l.count == 1
	}
	if !known {
		f.Because = append(f.Because, "the placing method is not stored: a competitive procedure is assumed")
	}
	return f.is(fired)
}

// lotApplications is the number of applications to one lot, from the
// protocol that names the most of them.
type lotApplications struct {
	lot   int
	count int
	from  *tenderbase.Protocol
}

func (l lotApplications) protocol() string {
	name := l.from.Number
	if name == "" {
		name = l.from.ID
	}
	if l.lot > 0 {
		return fmt.Sprintf("%s (%s, lot %d)", name, l.from.Type, l.lot)
	}
	return fmt.Sprintf("%s (%s)", name, l.from.Type)
}

// applicationsByLot returns, lot by lot in the order of their numbers, the most
// applications a protocol in force names. A protocol of the first parts
// names every application; a later one may name only those admitted, or
// the winner alone, so the largest count is the number that came.
func applicationsByLot(protocols []*tenderbase.Protocol) []lotApplications {
	var out []lotApplications
	at := map[int]int{}
	for _, p := range protocols {
		n := len(p.Participants)
		if n == 0 {
			continue
		}
		i, seen := at[p.LotNumber]
		if !seen {
			at[p.LotNumber] = len(out)
			out = append(out, lotApplications{lot: p.LotNumber, count: n, from: p})
			continue
		}
		if n > out[i].count {
			out[i].count, out[i].from = n, p
		}
	}
	slices.SortStableFunc(out, func(a, b lotApplications) int { return cmp.Compare(a.lot, b.lot) })
	return out
}

// priceCloseToInitial fires when the price of a competitive procedure (its
// contracts', or else its winner's offer) is at least 99% of the initial
// (maximum) price.
func priceCloseToInitial(e Evidence) Flag {
	f := Flag{Rule: "price_close_to_initial", Source: sourcePriceClose, Open: []string{"ru.detail " + e.PurchaseNumber}}
	t := e.Tender
	if t == nil {
		return f.cannotTell("no notice of the tender is stored: its initial price is unknown")
	}
	if yes, known, from := competitive(e); known && !yes {
		return f.notFired(fmt.Sprintf("a purchase from a single supplier (%s): the rule is for competitive procedures", from))
	}
	if len(t.Lots) > 1 {
		return f.cannotTell(fmt.Sprintf("the tender has %d lots and its contracts do not say their lot", len(t.Lots)))
	}
	if t.MaxPrice <= 0 || len(t.MaxPrices) > 1 {
		return f.cannotTell("the notice states no initial price in one currency")
	}
	price, from, open, ok := finalPrice(e, currencyOf(t.Currency))
	if !ok {
		return f.cannotTell("no contract of the tender, and no winner's offer in its protocols, states a price in the notice's currency")
	}
	share := price / t.MaxPrice
	f.Because = []string{fmt.Sprintf("%s %s is %s of the initial price %s %s", from, money(price), percent(share), money(t.MaxPrice), currencyOf(t.Currency))}
	f.Open = append(f.Open, open...)
	return f.is(share >= priceCloseShare)
}

// finalPrice returns the sum of the contracts' prices in currency cur, or
// else the winners' offers, with what it is and the records to open.
func finalPrice(e Evidence, cur string) (price float64, from string, open []string, ok bool) {
	var kopecks int64
	var regs []string
	for _, c := range e.Contracts {
		if c.Price > 0 && currencyOf(c.Currency) == cur {
			kopecks += tenderbase.Kopecks(c.Price)
			regs = append(regs, c.RegNumber)
			open = append(open, "contracts.detail "+c.RegNumber)
		}
	}
	if len(regs) > 0 {
		return tenderbase.Amount(kopecks), "the price of contract " + strings.Join(regs, ", "), open, true
	}
	for _, p := range tenderbase.NewestByLot(e.Protocols, func(p *tenderbase.Protocol) bool { return len(p.Winners()) > 0 }) {
		for _, w := range p.Winners() {
			if w.Price > 0 {
				kopecks += tenderbase.Kopecks(w.Price)
				regs = append(regs, fmt.Sprintf("%s in protocol %s", w.INN, orOf(p.Number, p.ID)))
			}
		}
	}
	if len(regs) == 0 {
		return 0, "", nil, false
	}
	return tenderbase.Amount(kopecks), "the winner's offer (" + strings.Join(regs, ", ") + ")", nil, true
}

// money writes an amount with two decimals and thin groups, as 1 234 567.89.
func money(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String() + "." + frac
}

// percent writes a share as a percentage with one decimal, rounded down so
// that 98.96% never reads as the 99.0% it falls short of.
func percent(share float64) string {
	return fmt.Sprintf("%.1f%%", math.Floor(share*1000+1e-9)/10)
}
