package tenderbase

import (
	"math"
	"strings"
	"time"
)

// Measure names a value of a record that a search can bound and sort by.
type Measure string

// The measures. Published is the record's Date, which orders every search
// newest first; price, deadline and ends are the record's Measures.
const (
	MeasurePublished Measure = "published" // unix seconds
	MeasurePrice     Measure = "price"     // roubles
	MeasureDeadline  Measure = "deadline"  // unix seconds
	MeasureEnds      Measure = "ends"      // unix seconds
)

// Range admits the records whose measure lies from Min to Max, both
// included. An open end is an infinity (Unbounded). A record without the
// measure (no price in roubles, no deadline) lies in no range.
type Range struct {
	Measure  Measure
	Min, Max float64
}

// Unbounded returns a range of m open at both ends, to be narrowed.
func Unbounded(m Measure) Range { return Range{Measure: m, Min: math.Inf(-1), Max: math.Inf(1)} }

// Empty reports whether the range admits nothing.
func (r Range) Empty() bool { return r.Min > r.Max }

// Measures are the values, besides its date, that a search bounds and sorts
// a record by. A zero field means the record has no such value.
type Measures struct {
	// Price is the price in roubles: a tender's maximum price, a contract's
	// price, a lot's starting price. A price in another currency is left
	// out rather than converted at a rate nobody published with it.
	Price float64
	// Deadline is when applications close: for a tender, once its date
	// changes are applied (TenderDates), as the stores keep it.
	Deadline time.Time
	// Ends is when a contract's term ends, as its registry entry gives
	// it: the day a supplier's customer is next to buy the same again.
	Ends time.Time
}

// Measured is implemented by the records that have Measures.
type Measured interface {
	Measures() Measures
}

// MeasuresOf returns the measures of r, zero for a record without any.
func MeasuresOf(r Record) Measures {
	if m, ok := r.(Measured); ok {
		return m.Measures()
	}
	return Measures{}
}

// roubles returns amount when currency is the rouble (or not given, which
// the sources mean as roubles), else 0.
func roubles(amount float64, currency string) float64 {
	switch currency {
	case "", "RUB", "RUR", "643":
		return amount
	}
	return 0
}

// Measures returns the maximum price in roubles and the applications
// deadline of the notice.
func (t *Tender) Measures() Measures {
	return Measures{Price: roubles(t.MaxPrice, t.Currency), Deadline: t.ApplicationsDeadline}
}

// Measures returns the price in roubles and the end of the term.
func (c *Contract) Measures() Measures {
	return Measures{Price: roubles(c.Price, c.Currency), Ends: c.EndsAt}
}

// Measures returns the starting price in roubles and the end of the
// applications.
func (l *Lot) Measures() Measures {
	return Measures{Price: roubles(l.StartPrice, l.Currency), Deadline: l.BiddingEnd}
}

// Measures returns the deadline; a world tender's value is in its own
// currency, which is no price in roubles.
func (w *WorldTender) Measures() Measures {
	return Measures{Deadline: w.Deadline}
}

// CodePrefixes returns every prefix of a dotted classifier code (OKPD2:
// 41.20.40.000) that ends in a digit, shortest first: "4", "41", "41.2",
// "41.20"... up to the code itself. Stored as lookups, they make any code
// prefix an exact key.
func CodePrefixes(code string) []string {
	code = strings.TrimSpace(code)
	var out []string
	for i := 1; i <= len(code); i++ {
		if c := code[i-1]; c >= '0' && c <= '9' {
			out = append(out, code[:i])
		}
	}
	return out
}

// CodePrefix returns the stored form of a code prefix a user gives: spaces
// and trailing dots cut ("41.20." is "41.20").
func CodePrefix(prefix string) string {
	return strings.TrimRight(strings.TrimSpace(prefix), ".")
}

// CPVPrefixes returns every prefix of the significant digits of a CPV code
// (45213000-6: "4", "45", "452", "4521", "45213"). The digits after the
// hyphen only check the others, and trailing zeros only pad a code to
// eight digits: 45000000 is the whole division 45.
func CPVPrefixes(code string) []string {
	digits := CPVPrefix(code)
	var out []string
	for i := 1; i <= len(digits); i++ {
		out = append(out, digits[:i])
	}
	return out
}

// OKDPPrefixes returns every prefix of an OKDP code (OK 004-93, seven
// digits: 2423350 gives "2", "24"... "2423350"), so that any class is an
// exact key.
func OKDPPrefixes(code string) []string {
	code = strings.TrimSpace(code)
	if strings.Trim(code, "0123456789") != "" {
		return nil
	}
	var out []string
	for i := 1; i <= len(code); i++ {
		out = append(out, code[:i])
	}
	return out
}

// OKDPPrefix returns the prefix that stands for an OKDP class: its code
// without the trailing zeros that pad it to seven digits. 2423000
// «Фармацевтические препараты...» is every code that starts 2423, and
// 4540120 «Кровельные работы» every one that starts 454012. A class whose
// name lists its members by a range of codes ("[2423110] - [2423383]") is
// no prefix of them; the thesaurus names none.
func OKDPPrefix(code string) string {
	return strings.TrimRight(strings.TrimSpace(code), "0")
}

// CPVPrefix returns the significant digits of a CPV code or prefix a user
// gives: "45000000-7" and "45" are both "45".
func CPVPrefix(code string) string {
	digits, _, _ := strings.Cut(strings.TrimSpace(code), "-")
	return strings.TrimRight(digits, "0")
}
