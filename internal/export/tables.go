package export

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/redflags"
	"github.com/tenderbase/tenderbase/internal/table"
)

// figureColumn is a column of the figures of a group (tenderbase.Figures)
// and its cell: nil where the group has no such figure.
type figureColumn struct {
	table.Column
	cell func(f tenderbase.Figures) any
}

// figureColumns are the columns of tenderbase.Figures after the count and
// the sums by currency, in the order the figures are declared: a figure
// the aggregates learn is one line here, in every format.
var figureColumns = []figureColumn{
	{table.Column{Name: "prices_count", Kind: table.Integer}, prices(func(q tenderbase.Quantiles) any { return q.Count })},
	{table.Column{Name: "price_p25_rub", Kind: table.Money}, prices(func(q tenderbase.Quantiles) any { return q.P25 })},
	{table.Column{Name: "price_median_rub", Kind: table.Money}, prices(func(q tenderbase.Quantiles) any { return q.Median })},
	{table.Column{Name: "price_p75_rub", Kind: table.Money}, prices(func(q tenderbase.Quantiles) any { return q.P75 })},
	{table.Column{Name: "drop_count", Kind: table.Integer}, drop(func(d tenderbase.Drop) any { return d.Count })},
	{table.Column{Name: "drop_mean_pct", Kind: table.Hundredths}, drop(func(d tenderbase.Drop) any { return d.MeanBasis })},
	{table.Column{Name: "drop_initial", Kind: table.Money}, drop(func(d tenderbase.Drop) any { return d.Initial })},
	{table.Column{Name: "drop_final", Kind: table.Money}, drop(func(d tenderbase.Drop) any { return d.Final })},
	{table.Column{Name: "procedures", Kind: table.Integer}, competition(func(c tenderbase.Competition) any { return c.Procedures })},
	{table.Column{Name: "participants", Kind: table.Integer}, competition(func(c tenderbase.Competition) any { return c.Participants })},
	{table.Column{Name: "mean_participants", Kind: table.Hundredths}, competition(func(c tenderbase.Competition) any { return share(c.Participants, c.Procedures, 100) })},
	{table.Column{Name: "single_bid", Kind: table.Integer}, competition(func(c tenderbase.Competition) any { return c.SingleBid })},
	{table.Column{Name: "single_bid_pct", Kind: table.Hundredths}, competition(func(c tenderbase.Competition) any { return share(c.SingleBid, c.Procedures, 10000) })},
	{table.Column{Name: "ended", Kind: table.Integer}, competition(func(c tenderbase.Competition) any { return c.Ended })},
	{table.Column{Name: "failed", Kind: table.Integer}, competition(func(c tenderbase.Competition) any { return c.Failed })},
	{table.Column{Name: "failed_pct", Kind: table.Hundredths}, competition(func(c tenderbase.Competition) any { return share(c.Failed, c.Ended, 10000) })},
	{table.Column{Name: "complaints", Kind: table.Integer}, complaints(func(c tenderbase.Complaints) any { return c.Count })},
	{table.Column{Name: "complaints_upheld", Kind: table.Integer}, complaints(func(c tenderbase.Complaints) any { return c.Upheld })},
	{table.Column{Name: "complaints_partly_upheld", Kind: table.Integer}, complaints(func(c tenderbase.Complaints) any { return c.Partly })},
	{table.Column{Name: "complaints_dismissed", Kind: table.Integer}, complaints(func(c tenderbase.Complaints) any { return c.Dismissed })},
	{table.Column{Name: "complaints_pending", Kind: table.Integer}, complaints(func(c tenderbase.Complaints) any { return c.Pending })},
}

func prices(cell func(tenderbase.Quantiles) any) func(tenderbase.Figures) any {
	return func(f tenderbase.Figures) any {
		if f.Prices == nil {
			return nil
		}
		return cell(*f.Prices)
	}
}

func drop(cell func(tenderbase.Drop) any) func(tenderbase.Figures) any {
	return func(f tenderbase.Figures) any {
		if f.Drop == nil {
			return nil
		}
		return cell(*f.Drop)
	}
}

func competition(cell func(tenderbase.Competition) any) func(tenderbase.Figures) any {
	return func(f tenderbase.Figures) any {
		if f.Competition == nil {
			return nil
		}
		return cell(*f.Competition)
	}
}

func complaints(cell func(tenderbase.Complaints) any) func(tenderbase.Figures) any {
	return func(f tenderbase.Figures) any {
		if f.Complaints == nil {
			return nil
		}
		return cell(*f.Complaints)
	}
}

// share returns n of all in hundredths of a unit of scale (scale 10000:
// percent to a hundredth; 100: a ratio to a hundredth), rounded half
// up in integers, and nil of none.
func share(n, all int, scale int64) any {
	if all == 0 {
		return nil
	}
	return (2*int64(n)*scale + int64(all)) / (2 * int64(all))
}

// Row kinds of an aggregate's table, its first column.
const (
	rowGroup = "group"
	rowMore  = "more"
	rowTotal = "total"
)

// AggregateTable returns an aggregate of resource as a table: one row a
// group listed, a row stating how many more groups there are when there
// are more, and a row of the figures of every match. Every figure is a
// column of its own; a sum is two columns a currency (its amount and its
// records), roubles first and then every currency any group has.
func AggregateTable(resource string, a tenderbase.Aggregate) table.Table {
	currencies := currenciesOf(a)
	t := table.Table{Sheet: "aggregate", File: fmt.Sprintf("aggregate-%s-by-%s", resource, a.By)}
	t.Columns = []table.Column{{Name: "row", Kind: table.Text}, {Name: "key", Kind: table.Text}, {Name: "name", Kind: table.Text},
		{Name: "groups", Kind: table.Integer}, {Name: "count", Kind: table.Integer}}
	for _, c := range currencies {
		cur := strings.ToLower(c)
		t.Columns = append(t.Columns, table.Column{Name: "sum_" + cur, Kind: table.Money}, table.Column{Name: "sum_" + cur + "_count", Kind: table.Integer})
	}
	for _, c := range figureColumns {
		t.Columns = append(t.Columns, c.Column)
	}
	for _, g := range a.Groups {
		t.Add(figureRow(rowGroup, g.Key, g.Name, 1, g.Figures, currencies)...)
	}
	if a.More > 0 {
		more := make([]any, len(t.Columns))
		more[0], more[2], more[3] = rowMore, fmt.Sprintf("and %d more group%s", a.More, plural(a.More)), a.More
		t.Add(more...)
	}
	t.Add(figureRow(rowTotal, nil, "every match", len(a.Groups)+a.More, a.Total, currencies)...)
	return t
}

// figureRow returns the cells of a row of figures.
func figureRow(kind string, key any, name string, groups int, f tenderbase.Figures, currencies []string) []any {
	row := []any{kind, key, name, groups, f.Count}
	for _, c := range currencies {
		i := slices.IndexFunc(f.Sums, func(s tenderbase.Sum) bool { return s.Currency == c })
		if i < 0 {
			row = append(row, nil, nil)
			continue
		}
		row = append(row, f.Sums[i].Minor, f.Sums[i].Count)
	}
	for _, c := range figureColumns {
		row = append(row, c.cell(f))
	}
	return row
}

// currenciesOf returns the currencies of the sums of an aggregate: RUB
// first, always, then the others in the order of their letters.
func currenciesOf(a tenderbase.Aggregate) []string {
	seen := map[string]bool{}
	add := func(f tenderbase.Figures) {
		for _, s := range f.Sums {
			seen[s.Currency] = s.Currency != "RUB"
		}
	}
	add(a.Total)
	for _, g := range a.Groups {
		add(g.Figures)
	}
	out := []string{"RUB"}
	for _, c := range slices.Sorted(maps.Keys(seen)) {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// FlagsTable returns the red flags of a tender as a table: one row a
// rule, in the order of docs/flags.md, and a total row counting the rules
// fired. The tender's number, title, law and method are on every row, so
// that the sheets of several tenders stack.
func FlagsTable(number, title, law, method string, flags []redflags.Flag) table.Table {
	t := table.Table{Sheet: "flags", File: "flags-" + number}
	for _, name := range []string{"row", "purchase_number", "title", "law", "placing_method", "rule", "state"} {
		t.Columns = append(t.Columns, table.Column{Name: name, Kind: table.Text})
	}
	t.Columns = append(t.Columns, table.Column{Name: "fired", Kind: table.Integer})
	for _, name := range []string{"source", "because", "missing", "open"} {
		t.Columns = append(t.Columns, table.Column{Name: name, Kind: table.Text})
	}
	fired := 0
	for _, f := range flags {
		n := 0
		if f.State == redflags.Fired {
			n = 1
		}
		fired += n
		t.Add("flag", number, orNil(title), orNil(law), orNil(method), f.Rule, f.State, n, f.Source,
			orNil(strings.Join(f.Because, "\n")), orNil(f.Missing), orNil(strings.Join(f.Open, "\n")))
	}
	t.Add(rowTotal, number, orNil(title), orNil(law), orNil(method), nil, fmt.Sprintf("%d of %d rules fired", fired, len(flags)), fired,
		nil, nil, nil, nil)
	return t
}

// orNil returns s, or nil, an empty cell, for "".
func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}
