package tools

import (
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// text writes the profile for a model to read: a line a figure or a row
// of a list, and the calls that go further. The structured content holds
// the same figures as numbers.
func (r profileResult) text() string {
	var b strings.Builder
	who := r.INN
	if r.Name != "" {
		who += " " + cut(r.Name, titleRunes)
	}
	fmt.Fprintf(&b, "Profile of %s as %s.\n", who, r.Role)
	if r.Role == string(tenderbase.RoleCustomer) {
		r.customerText(&b)
	} else {
		r.supplierText(&b)
	}
	b.WriteString("Next: " + r.Next + "\n")
	return b.String()
}

func (r profileResult) customerText(b *strings.Builder) {
	fmt.Fprintf(b, "Contracts: %d; %s.\n", r.Contracts.Count, r.Contracts.words())
	groupLines(b, "Suppliers by contracts", r.Suppliers, r.MoreSuppliers, "contract")
	if len(r.Spend) > 0 {
		spans := make([]string, len(r.Spend))
		for i, s := range r.Spend {
			spans[i] = fmt.Sprintf("%s %d (%s)", s.Period, s.Count, sumWords(s.Sums))
		}
		fmt.Fprintf(b, "Spend by period, latest first: %s.\n", strings.Join(spans, "; "))
	}
	fmt.Fprintf(b, "Notices: %d; %s.\n", r.Notices.Count, r.Notices.words())
	groupLines(b, "Placing methods", r.Methods, r.MoreMethods, "notice")
	fmt.Fprintf(b, "Complaints against it: %d.\n", *r.Complaints)
}

func (r profileResult) supplierText(b *strings.Builder) {
	p := r.Procedures
	fmt.Fprintf(b, "Protocols: took part in %d procedures (lots), won %d, lost %d to another, win rate %s%%.\n",
		p.Count, p.Won, p.Lost, number(p.WinRatePct))
	rivalLines(b, "Rivals met most", r.Rivals, r.MoreRivals)
	rivalLines(b, "Who won where it did not", r.Winners, r.MoreWinners)
	discount := "no price drop known"
	if d := r.Contracts.Drop; d != nil {
		discount = fmt.Sprintf("discount %s%% on average over %d", number(d.MeanPct), d.Count)
	}
	fmt.Fprintf(b, "Contracts as supplier: %d; %s; %s.\n", r.Contracts.Count, sumWords(r.Contracts.Sums), discount)
	if len(r.Statuses) > 0 {
		st := make([]string, len(r.Statuses))
		for i, s := range r.Statuses {
			st[i] = fmt.Sprintf("%s %d", s.Status, s.Count)
		}
		fmt.Fprintf(b, "By status: %s.\n", strings.Join(st, ", "))
	}
	groupLines(b, "Customers by contracts", r.Customers, r.MoreCustomers, "contract")
	fmt.Fprintf(b, "Entries in the unfair-supplier register: %d.\n", *r.Unfair)
}

// groupLines writes a list of groups, a line each, and how many more.
func groupLines(b *strings.Builder, title string, groups []aggGroup, more int, noun string) {
	if len(groups) == 0 {
		return
	}
	fmt.Fprintf(b, "%s, the %d largest of %d:\n", title, len(groups), len(groups)+more)
	for i, g := range groups {
		fmt.Fprintf(b, "%d. %s: %d %s; %s.\n", i+1, keyName(g.Key, g.Name), g.Figures.Count, plural(noun, g.Figures.Count), g.Figures.brief())
	}
	if more > 0 {
		fmt.Fprintf(b, "And %d more: a larger top lists them.\n", more)
	}
}

// rivalLines writes a list of rivals, a line each, and how many more.
func rivalLines(b *strings.Builder, title string, rivals []tenderbase.Rival, more int) {
	if len(rivals) == 0 {
		return
	}
	fmt.Fprintf(b, "%s, %d of %d:\n", title, len(rivals), len(rivals)+more)
	for i, v := range rivals {
		fmt.Fprintf(b, "%d. %s: met in %d, won %d of them, %d where it did not.\n", i+1, keyName(v.INN, v.Name), v.Met, v.Won, v.WonOver)
	}
	if more > 0 {
		fmt.Fprintf(b, "And %d more: a larger top lists them.\n", more)
	}
}

func keyName(key, name string) string {
	if key == "" {
		key = "(not said)"
	}
	if name != "" {
		key += " " + cut(name, titleRunes)
	}
	return key
}

func sumWords(sums []aggSum) string {
	if len(sums) == 0 {
		return "no sum"
	}
	out := make([]string, len(sums))
	for i, s := range sums {
		out[i] = money(s.Amount, s.Currency, nil)
	}
	return strings.Join(out, " + ")
}

func plural(noun string, n int) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// brief says a row's figures in a few words: its sums, its price drop
// and its single-bid share.
func (f aggFigures) brief() string {
	parts := []string{sumWords(f.Sums)}
	if d := f.Drop; d != nil {
		parts = append(parts, fmt.Sprintf("drop %s%% over %d", number(d.MeanPct), d.Count))
	}
	if c := f.Bids; c != nil && c.Procedures > 0 {
		parts = append(parts, fmt.Sprintf("single bid %s%% of %d", number(c.SingleBidPct), c.Procedures))
	}
	return strings.Join(parts, "; ")
}
