package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// aggregateResources are the search tools whose matches aggregate, by
// resource name.
var aggregateResources = []tenderbase.Resource{"ru", "contracts"}

// aggregateResult is the output of analytics.aggregate.
type aggregateResult struct {
	Resource string     `json:"resource"`
	By       string     `json:"by"`
	Level    int        `json:"level,omitempty" jsonschema:"The OKPD2 digits of the groups."`
	Total    aggFigures `json:"total" jsonschema:"Every match of the search."`
	Groups   []aggGroup `json:"groups" jsonschema:"The largest groups (the latest for month and quarter)."`
	More     int        `json:"more" jsonschema:"Groups beyond those listed."`
	Next     string     `json:"next"`
	Hints    []string   `json:"hints,omitempty" jsonschema:"How the query was read, when it needed reading."`
}

// aggGroup is one group: its key, what it stands for, the filter that
// lists its records, and its figures.
type aggGroup struct {
	Key     string         `json:"key" jsonschema:"The group's value; empty: the matches that do not say it."`
	Name    string         `json:"name,omitempty"`
	Filter  map[string]any `json:"filter,omitempty" jsonschema:"Add to the search's arguments to list the group's records."`
	Figures aggFigures     `json:"figures"`
}

// aggFigures are a group's figures as a reader takes them in: money in
// roubles (to the kopeck), shares in percent.
type aggFigures struct {
	Count  int         `json:"count"`
	Sums   []aggSum    `json:"sums,omitempty" jsonschema:"By currency, roubles first: maximum prices of notices, prices of contracts."`
	Prices *aggPrices  `json:"prices,omitempty" jsonschema:"Quartiles of the prices in roubles, by the nearest rank."`
	Drop   *aggDrop    `json:"drop,omitempty" jsonschema:"From the notice's initial price to the contract's, where both are known."`
	Bids   *aggBidding `json:"bidding,omitempty" jsonschema:"Participants named by the protocols; outcomes of the procedures."`
	// Complaints is the complaints against the group's purchases.
	Complaints *tenderbase.Complaints `json:"complaints,omitempty" jsonschema:"Complaints against the purchases, each once, by what the newest check in force decided; pending: no check decides it."`
}

type aggSum struct {
	Currency string  `json:"currency"`
	Amount   float64 `json:"amount"`
	Count    int     `json:"count"`
}

type aggPrices struct {
	Count  int     `json:"count"`
	P25    float64 `json:"p25"`
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
}

type aggDrop struct {
	Count   int     `json:"count"`
	MeanPct float64 `json:"mean_pct" jsonschema:"The mean of the records' drops, in percent."`
}

type aggBidding struct {
	Procedures   int     `json:"procedures" jsonschema:"With a participant known."`
	MeanBidders  float64 `json:"mean_participants"`
	SingleBidPct float64 `json:"single_bid_pct"`
	Ended        int     `json:"ended" jsonschema:"Procedures completed or failed."`
	FailedPct    float64 `json:"failed_pct" jsonschema:"Of those ended."`
}

// AggregateArgs are the arguments of analytics.aggregate, which the
// export takes as query parameters too.
type AggregateArgs struct {
	Resource string         `json:"resource" jsonschema:"ru: tenders; contracts."`
	Search   map[string]any `json:"search,omitempty" jsonschema:"Its search tool's arguments, no paging or sort."`
	By       string         `json:"by" jsonschema:"Group by."`
	Level    int            `json:"level,omitempty" jsonschema:"OKPD2 digits; 2 by default."`
	Top      int            `json:"top,omitempty" jsonschema:"Groups listed; 10 by default."`
}

func (s *Set) analyticsAggregate() (*Tool, error) {
	return build(definition[AggregateArgs]{
		name:  "analytics.aggregate",
		title: "Aggregates of a search",
		description: "Every match of a ru or contracts search, in groups: counts, sums, price quartiles and drop, participants, " +
			"single-bid and failed shares; top groups, how many more, the filter listing each. Paid plans." + " " +
			`Example: {"resource": "ru", "search": {"query": "ремонт дорог", "regions": [50]}, "by": "customer"}.`,
		output: outputOf[aggregateResult](""),
		rules: map[string]func(*jsonschema.Schema){
			"resource": func(p *jsonschema.Schema) { p.Enum = anyOf(resourceNames(aggregateResources)) },
			"by":       func(p *jsonschema.Schema) { p.Enum = anyOf(dimensionNames()) },
			"level":    func(p *jsonschema.Schema) { bound(p, 1, 9) },
			"top":      func(p *jsonschema.Schema) { bound(p, 1, tenderbase.MaxTop) },
		},
		run: s.aggregate,
	})
}

func (s *Set) aggregate(ctx context.Context, args AggregateArgs) (Output, error) {
	got, err := s.aggregation(ctx, args)
	if err != nil {
		return Output{}, err
	}
	t, a := got.tool, got.asked
	res := aggregateResult{Resource: args.Resource, By: args.By, Level: got.Level, Total: figuresOf(got.Total),
		Groups: []aggGroup{}, More: got.More, Hints: got.hints,
		Next: t.name + " with this search and a group's filter lists its records; " + strings.Replace(t.name, ".search", ".detail", 1) + " reads one."}
	for _, g := range got.Groups {
		res.Groups = append(res.Groups, aggGroup{Key: g.Key, Name: g.Name, Filter: t.groupFilter(a.By, g.Key), Figures: figuresOf(g.Figures)})
	}
	out, err := output(res, restricted{})
	out.Text = res.text(t)
	return out, err
}

// Aggregate answers the aggregation args ask for, for the caller of ctx,
// under the rules of analytics.aggregate: the plan decides whether it is
// answered (EFORBIDDEN for the free plan) and how many groups it lists.
// A wrong argument is an *ArgumentError or EINVALID.
func (s *Set) Aggregate(ctx context.Context, args AggregateArgs) (tenderbase.Aggregate, error) {
	got, err := s.aggregation(ctx, args)
	return got.Aggregate, err
}

// aggregated is an aggregate with the search tool it was asked of, the
// aggregation and how its query was read.
type aggregated struct {
	tenderbase.Aggregate
	tool  searchTool
	asked tenderbase.Aggregation
	hints []string
}

// aggregation checks the caller's plan and the arguments, and asks the
// store for the aggregate.
func (s *Set) aggregation(ctx context.Context, args AggregateArgs) (aggregated, error) {
	c := callerOf(ctx)
	if c.limits.AggregateTop == 0 {
		return aggregated{}, tenderbase.Errorf(tenderbase.EFORBIDDEN,
			"aggregates are part of the standard, guru and corporate plans; the %s plan searches records with ru.search", c.plan)
	}
	if args.Top > c.limits.AggregateTop {
		return aggregated{}, argErrorf("the %s plan lists at most %d groups; ask for top %d or fewer", c.plan, c.limits.AggregateTop, c.limits.AggregateTop)
	}
	t, err := s.aggregateTool(args.Resource)
	if err != nil {
		return aggregated{}, err
	}
	raw, err := json.Marshal(orEmpty(args.Search))
	if err != nil {
		return aggregated{}, err
	}
	srch, sargs, err := s.searchOf(t, raw, time.Now(), false, "exact")
	if err != nil {
		return aggregated{}, err
	}
	got := aggregated{tool: t}
	if sargs.Query != "" {
		_, got.hints, _ = query.ParseWithHints(sargs.Query, query.MCP)
	}
	if !sargs.Exact {
		srch.Query, _ = expandQuery(srch.Query)
	}
	if srch, err = c.plan.Restrict(srch, lookupParams); err != nil {
		return aggregated{}, err
	}
	ag, ok := tenderbase.StoreAs[tenderbase.Aggregator](s.store)
	if !ok {
		return aggregated{}, fmt.Errorf("the store %T computes no aggregates", s.store)
	}
	got.asked = tenderbase.Aggregation{Search: srch, By: tenderbase.Dimension(args.By), Level: args.Level, Top: args.Top}
	got.Aggregate, err = ag.Aggregate(ctx, got.asked)
	return got, err
}

func resourceNames(rs []tenderbase.Resource) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}

// aggregateTool returns the search tool of a resource that aggregates.
func (s *Set) aggregateTool(resource string) (searchTool, error) {
	if !slices.Contains(aggregateResources, tenderbase.Resource(resource)) {
		return searchTool{}, argErrorf("argument \"resource\" must be one of %s, got %s",
			strings.Join(resourceNames(aggregateResources), ", "), tenderbase.Quote(resource))
	}
	k, err := tenderbase.ResourceKind(resource)
	if err != nil {
		return searchTool{}, err
	}
	return s.searches[k], nil
}

func dimensionNames() []string {
	names := make([]string, len(tenderbase.Dimensions))
	for i, d := range tenderbase.Dimensions {
		names[i] = string(d)
	}
	return names
}

// groupFilter returns the arguments of t that list the records of the
// group with key, or nil where t has no filter of the dimension.
func (t searchTool) groupFilter(by tenderbase.Dimension, key string) map[string]any {
	if key == "" {
		return nil
	}
	var f map[string]any
	switch by {
	case tenderbase.ByRegion, tenderbase.ByLaw:
		name := "regions"
		if by == tenderbase.ByLaw {
			name = "laws"
		}
		if n, err := strconv.Atoi(key); err == nil {
			f = map[string]any{name: []int{n}}
		}
	case tenderbase.ByCustomer:
		f = map[string]any{"customer_inn": key}
	case tenderbase.ByOrganizer:
		f = map[string]any{"organizer_inn": key}
	case tenderbase.BySupplier:
		f = map[string]any{"supplier_inn": key}
	case tenderbase.ByOKPD2:
		f = map[string]any{"okpd2": key}
	case tenderbase.ByMethod:
		f = map[string]any{"placing_method": key}
	case tenderbase.ByMonth, tenderbase.ByQuarter:
		f = periodFilter(key)
	}
	for name := range f {
		if !slices.Contains(t.filters, name) {
			return nil
		}
	}
	return f
}

// periodFilter returns the published_from and published_to of a month
// (2024-03) or a quarter (2024-Q1).
func periodFilter(key string) map[string]any {
	var from time.Time
	months := 1
	if y, q, ok := strings.Cut(key, "-Q"); ok {
		year, err1 := strconv.Atoi(y)
		n, err2 := strconv.Atoi(q)
		if err1 != nil || err2 != nil {
			return nil
		}
		from, months = time.Date(year, time.Month(3*n-2), 1, 0, 0, 0, 0, moscow), 3
	} else {
		var err error
		if from, err = time.ParseInLocation("2006-01", key, moscow); err != nil {
			return nil
		}
	}
	to := from.AddDate(0, months, -1)
	return map[string]any{"published_from": from.Format(time.DateOnly), "published_to": to.Format(time.DateOnly)}
}

// figuresOf writes figures for a reader: money in roubles, shares in
// percent to a hundredth.
func figuresOf(f tenderbase.Figures) aggFigures {
	out := aggFigures{Count: f.Count}
	for _, s := range f.Sums {
		out.Sums = append(out.Sums, aggSum{Currency: s.Currency, Amount: tenderbase.Amount(s.Minor), Count: s.Count})
	}
	if p := f.Prices; p != nil {
		out.Prices = &aggPrices{Count: p.Count, P25: tenderbase.Amount(p.P25), Median: tenderbase.Amount(p.Median), P75: tenderbase.Amount(p.P75)}
	}
	if d := f.Drop; d != nil {
		out.Drop = &aggDrop{Count: d.Count, MeanPct: float64(d.MeanBasis) / 100}
	}
	if c := f.Competition; c != nil {
		out.Bids = &aggBidding{Procedures: c.Procedures, MeanBidders: hundredths(c.MeanParticipants()),
			SingleBidPct: percent(c.SingleBid, c.Procedures), Ended: c.Ended, FailedPct: percent(c.Failed, c.Ended)}
	}
	out.Complaints = f.Complaints
	return out
}

// percent returns n of all in percent, to a hundredth; 0 of none.
func percent(n, all int) float64 {
	if all == 0 {
		return 0
	}
	return hundredths(100 * float64(n) / float64(all))
}

func hundredths(v float64) float64 {
	return float64(tenderbase.Kopecks(v)) / 100
}
