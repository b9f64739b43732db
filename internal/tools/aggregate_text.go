package tools

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// text writes the aggregates for a model to read: the total, then a line
// a group, each with the figures it has, and the call that lists a
// group. The structured content holds the same figures as numbers.
func (r aggregateResult) text(t searchTool) string {
	noun := hitKinds[t.kind]
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s match the search: %s.\n", r.Total.Count, noun.noun(r.Total.Count), r.Total.words())
	for _, h := range r.Hints {
		fmt.Fprintf(&b, "%s\n", h)
	}
	if len(r.Groups) == 0 {
		b.WriteString("No groups: nothing matches. Try other words or fewer filters.\n")
		return b.String()
	}
	by := r.By
	if r.Level > 0 {
		by = fmt.Sprintf("%s at %d digits", by, r.Level)
	}
	order := "largest"
	if r.By == "month" || r.By == "quarter" {
		order = "latest"
	}
	fmt.Fprintf(&b, "By %s, the %d %s of %d groups:\n", by, len(r.Groups), order, len(r.Groups)+r.More)
	for i, g := range r.Groups {
		key := g.Key
		if key == "" {
			key = "(not said)"
		}
		if g.Name != "" {
			key += " " + cut(g.Name, titleRunes)
		}
		fmt.Fprintf(&b, "%d. %s: %d %s; %s.\n", i+1, key, g.Figures.Count, noun.noun(g.Figures.Count), g.Figures.words())
	}
	if r.More > 0 {
		fmt.Fprintf(&b, "And %d more groups: a larger top, or a narrower search.\n", r.More)
	}
	b.WriteString("Next: " + r.Next)
	if f := r.Groups[0].Filter; len(f) > 0 {
		if example, err := marshal(f); err == nil {
			fmt.Fprintf(&b, " The first group's filter: %s.", example)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// words says the figures in a line: sums, prices, drop, competition.
func (f aggFigures) words() string {
	var parts []string
	if len(f.Sums) > 0 {
		sums := make([]string, len(f.Sums))
		for i, s := range f.Sums {
			sums[i] = money(s.Amount, s.Currency, nil)
		}
		parts = append(parts, "in all "+strings.Join(sums, " + "))
	}
	if p := f.Prices; p != nil {
		parts = append(parts, fmt.Sprintf("median price %s RUB (quartiles %s-%s)", number(p.Median), number(p.P25), number(p.P75)))
	}
	if d := f.Drop; d != nil {
		parts = append(parts, fmt.Sprintf("price drop %s%% on average over %d", number(d.MeanPct), d.Count))
	}
	if c := f.Bids; c != nil {
		if c.Procedures > 0 {
			parts = append(parts, fmt.Sprintf("%s participants a procedure over %d, single bid %s%%", number(c.MeanBidders), c.Procedures, number(c.SingleBidPct)))
		}
		if c.Ended > 0 {
			parts = append(parts, fmt.Sprintf("failed %s%% of %d ended", number(c.FailedPct), c.Ended))
		}
	}
	if c := f.Complaints; c != nil {
		parts = append(parts, complaintWords(*c))
	}
	if len(parts) == 0 {
		return "no figures"
	}
	return strings.Join(parts, "; ")
}

// number writes a figure as short as it is exact.
func number(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// complaintWords says the complaints and their outcomes, those of none
// left out: "3 complaints: 1 upheld, 1 partly upheld, 1 pending".
func complaintWords(c tenderbase.Complaints) string {
	var outcomes []string
	for _, o := range []struct {
		n    int
		word string
	}{{c.Upheld, "upheld"}, {c.Partly, "partly upheld"}, {c.Dismissed, "dismissed"}, {c.Pending, "pending"}} {
		if o.n > 0 {
			outcomes = append(outcomes, fmt.Sprintf("%d %s", o.n, o.word))
		}
	}
	noun := "complaints"
	if c.Count == 1 {
		noun = "complaint"
	}
	return fmt.Sprintf("%d %s: %s", c.Count, noun, strings.Join(outcomes, ", "))
}
