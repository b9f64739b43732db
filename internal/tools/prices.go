package tools

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Bounds of price monitoring: the newest records of each kind it reads,
// the fewest earlier prices of a unit that make a usual range, and the
// alerts it lists.
const (
	priceScanPages = 10 // of scanPageSize records: 10,000 of each kind
	minUsualPrices = 8
	// An answer lists the newest groups of months and the farthest alerts,
	// about a screen of each, and says how many there are in all.
	maxPriceAlerts   = 10
	maxMonthsListed  = 24
	priceMonthLayout = "2006-01"
)

// pricesArgs are the arguments of prices.monitor.
type pricesArgs struct {
	OKPD2   string `json:"okpd2,omitempty" jsonschema:"Code prefix: 26.20.11."`
	Query   string `json:"query,omitempty" jsonschema:"Words of the object's name."`
	Regions []int  `json:"regions,omitempty" jsonschema:"Region codes."`
}

func (a *pricesArgs) check() error {
	a.OKPD2 = tenderbase.CodePrefix(a.OKPD2)
	a.Query = strings.TrimSpace(a.Query)
	if a.OKPD2 == "" && a.Query == "" {
		return argErrorf("give okpd2, query or both: what product to watch")
	}
	return checkCodes("regions", a.Regions, minRegion, maxRegion)
}

// pricesResult is the output of prices.monitor.
type pricesResult struct {
	OKPD2   string      `json:"okpd2,omitempty" jsonschema:"The OKPD2 prefix watched."`
	Query   string      `json:"query,omitempty" jsonschema:"The words watched."`
	Scanned []scanned   `json:"scanned" jsonschema:"The records read, newest first, of each kind: notices of tenders and contracts."`
	Prices  int         `json:"prices" jsonschema:"The unit prices found in the purchase objects read."`
	Months  []monthStat `json:"months" jsonschema:"Unit prices by month (of the notice's or contract's date), region and unit of measure, newest first: the newest 24 groups."`
	// MonthsAll and AlertsAll say how many there are beyond those listed.
	MonthsAll int     `json:"months_all" jsonschema:"How many groups of month, region and unit there are in all."`
	Usual     []usual `json:"usual" jsonschema:"The usual range of each unit, from the prices before the newest month: from the first quartile less 1.5 interquartile ranges to the third plus 1.5."`
	Alerts    []alert `json:"alerts" jsonschema:"Prices of the newest month outside the usual range of their unit, the farthest 10 first."`
	AlertsAll int     `json:"alerts_all" jsonschema:"How many prices of the newest month lie outside the usual range, in all."`
	Note      string  `json:"note,omitempty" jsonschema:"What the figures leave out, when something is."`
}

type scanned struct {
	Kind  string `json:"kind" jsonschema:"tender or contract."`
	Read  int    `json:"read" jsonschema:"Records read."`
	Total int    `json:"total" jsonschema:"Records that match; more than read when the newest were read alone."`
}

type monthStat struct {
	Month  string  `json:"month" jsonschema:"YYYY-MM."`
	Region int     `json:"region,omitempty" jsonschema:"Region code; absent when the record names none."`
	Unit   string  `json:"unit" jsonschema:"Unit of measure as published, e.g. шт, упак, усл ед; empty when none is given."`
	Count  int     `json:"count"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

type usual struct {
	Unit   string  `json:"unit"`
	Prices int     `json:"prices" jsonschema:"The earlier prices the range is made of."`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
}

type alert struct {
	Kind   string    `json:"kind" jsonschema:"tender or contract: read it with ru.detail or contracts.detail by key."`
	Key    string    `json:"key"`
	Object string    `json:"object" jsonschema:"The purchase object's name."`
	Price  float64   `json:"price"`
	Unit   string    `json:"unit"`
	Date   time.Time `json:"date"`
	Region int       `json:"region,omitempty"`
	Why    string    `json:"why" jsonschema:"Below or above the usual range, and the range."`
	// far is how far outside the range the price is, in widths of the
	// range (of a rouble at least), to put the farthest first.
	far float64
}

// unitPrice is one price of a purchase object. Its price is in kopecks,
// so that medians and ranges come out to the kopeck (tenderbase.Kopecks).
type unitPrice struct {
	kind, key, object, unit string
	price                   int64
	date                    time.Time
	region                  int
}

func (s *Set) pricesMonitor() (*Tool, error) {
	return build(definition[pricesArgs]{
		name:  "prices.monitor",
		title: "Product price monitoring",
		description: "Unit prices of a product in tenders and contracts (the newest 10,000 of each), by okpd2, query or both: " +
			"count, min, median, max by month, region and unit; each unit's usual range; alerts for newest-month prices " +
			"outside it, with the record to open by key. Standard, guru and corporate plans." + " " + `Example: {"okpd2": "26.20.11", "regions": [77]}.`,
		output: outputOf[pricesResult](""),
		run:    s.monitorPrices,
	})
}

func (s *Set) monitorPrices(ctx context.Context, args pricesArgs) (Output, error) {
	c := callerOf(ctx)
	if !c.limits.PriceMonitoring {
		return Output{}, tenderbase.Errorf(tenderbase.EFORBIDDEN,
			"price monitoring is part of the standard, guru and corporate plans; the %s plan searches notices with ru.search", c.plan)
	}
	var q tenderbase.Query
	if args.Query != "" {
		var err error
		if q, err = query.Parse(args.Query, query.MCP); err != nil {
			return Output{}, err
		}
	}
	res := pricesResult{OKPD2: args.OKPD2, Query: args.Query}
	var prices []unitPrice
	for _, k := range []tenderbase.Kind{tenderbase.KindTender, tenderbase.KindContract} {
		srch := tenderbase.Search{Kind: k, Query: q, Filters: tenderbase.Filters{Regions: args.Regions}}
		if args.OKPD2 != "" {
			srch.Where = []tenderbase.Lookup{{Field: tenderbase.LookupOKPD2, Value: args.OKPD2}}
		}
		srch, err := c.plan.Restrict(srch, nil)
		if err != nil {
			return Output{}, err
		}
		total, read, _, err := s.scanUpTo(ctx, srch, priceScanPages, func(r tenderbase.Record) {
			prices = append(prices, objectPrices(r, args.OKPD2, q)...)
		})
		if err != nil {
			return Output{}, fmt.Errorf("prices of %s: %w", k, err)
		}
		res.Scanned = append(res.Scanned, scanned{Kind: string(k), Read: read, Total: total})
	}
	res.Prices = len(prices)
	res.Months = monthStats(prices)
	res.Usual, res.Alerts = priceAlerts(prices)
	res.MonthsAll, res.AlertsAll = len(res.Months), len(res.Alerts)
	res.Months = res.Months[:min(len(res.Months), maxMonthsListed)]
	res.Alerts = res.Alerts[:min(len(res.Alerts), maxPriceAlerts)]
	// Lists are lists, empty or not, as the output schema says.
	if res.Usual == nil {
		res.Usual = []usual{}
	}
	if res.Alerts == nil {
		res.Alerts = []alert{}
	}
	switch {
	case len(prices) == 0:
		res.Note = "No purchase object of the records read gives a unit price for this product."
	case len(res.Usual) == 0:
		res.Note = fmt.Sprintf("No unit has %d prices before the newest month, which a usual range needs: no alerts.", minUsualPrices)
	}
	return output(res, restricted{})
}

// objectPrices returns the unit prices of r's purchase objects that are of
// the product: whose OKPD2 code starts with okpd2 and whose name matches q.
func objectPrices(r tenderbase.Record, okpd2 string, q tenderbase.Query) []unitPrice {
	var objects []tenderbase.PurchaseObject
	region := 0
	switch r := r.(type) {
	case *tenderbase.Tender:
		for _, l := range r.Lots {
			objects = append(objects, l.Objects...)
		}
		region = r.Region
	case *tenderbase.Contract:
		objects, region = r.Objects, r.Region
	}
	var out []unitPrice
	for _, o := range objects {
		if o.Price <= 0 || !strings.HasPrefix(o.OKPD2Code, okpd2) {
			continue
		}
		if q != nil && !query.Match(q, query.Fields([]string{o.Name, o.OKPD2Name})) {
			continue
		}
		out = append(out, unitPrice{kind: string(r.Kind()), key: r.Key(), object: o.Name, unit: strings.TrimSpace(o.Unit),
			price: tenderbase.Kopecks(o.Price), date: r.Date(), region: region})
	}
	return out
}

// monthStats groups prices by month, region and unit, newest first.
func monthStats(prices []unitPrice) []monthStat {
	type group struct {
		month  string
		region int
		unit   string
	}
	by := map[group][]int64{}
	for _, p := range prices {
		g := group{p.date.UTC().Format(priceMonthLayout), p.region, p.unit}
		by[g] = append(by[g], p.price)
	}
	out := make([]monthStat, 0, len(by))
	for g, ps := range by {
		slices.Sort(ps)
		out = append(out, monthStat{Month: g.month, Region: g.region, Unit: g.unit, Count: len(ps),
			Min: tenderbase.Amount(ps[0]), Median: tenderbase.Amount(nearest(quantile(ps, 0.5))), Max: tenderbase.Amount(ps[len(ps)-1])})
	}
	slices.SortFunc(out, func(a, b monthStat) int {
		return cmp.Or(strings.Compare(b.Month, a.Month), cmp.Compare(a.Region, b.Region), strings.Compare(a.Unit, b.Unit))
	})
	return out
}

// priceAlerts returns the usual range of each unit, from the prices before
// the newest month of all, and the prices of that month outside it, the
// farthest first.
func priceAlerts(prices []unitPrice) ([]usual, []alert) {
	if len(prices) == 0 {
		return nil, nil
	}
	newest := slices.MaxFunc(prices, func(a, b unitPrice) int { return a.date.Compare(b.date) }).date.UTC().Format(priceMonthLayout)
	earlier := map[string][]int64{}
	for _, p := range prices {
		if p.date.UTC().Format(priceMonthLayout) < newest {
			earlier[p.unit] = append(earlier[p.unit], p.price)
		}
	}
	// The ranges in kopecks, each [low, high].
	ranges := map[string][2]int64{}
	var usuals []usual
	for unit, ps := range earlier {
		if len(ps) < minUsualPrices {
			continue
		}
		slices.Sort(ps)
		q1, q3 := quantile(ps, 0.25), quantile(ps, 0.75)
		r := [2]int64{max(0, nearest(q1-1.5*(q3-q1))), nearest(q3 + 1.5*(q3-q1))}
		ranges[unit] = r
		usuals = append(usuals, usual{Unit: unit, Prices: len(ps), Low: tenderbase.Amount(r[0]), High: tenderbase.Amount(r[1])})
	}
	slices.SortFunc(usuals, func(a, b usual) int { return strings.Compare(a.Unit, b.Unit) })
	var alerts []alert
	for _, p := range prices {
		r, ok := ranges[p.unit]
		if !ok || p.date.UTC().Format(priceMonthLayout) != newest || (p.price >= r[0] && p.price <= r[1]) {
			continue
		}
		a := alert{Kind: p.kind, Key: p.key, Object: p.object, Price: tenderbase.Amount(p.price), Unit: p.unit, Date: p.date, Region: p.region,
			far: float64(max(r[0]-p.price, p.price-r[1])) / float64(max(r[1]-r[0], 100))}
		side := "above"
		if p.price < r[0] {
			side = "below"
		}
		a.Why = fmt.Sprintf("%s the usual range %.2f-%.2f of %s", side, tenderbase.Amount(r[0]), tenderbase.Amount(r[1]), unitName(p.unit))
		alerts = append(alerts, a)
	}
	slices.SortStableFunc(alerts, func(a, b alert) int { return cmp.Compare(b.far, a.far) })
	return usuals, alerts
}

func unitName(u string) string {
	if u == "" {
		return "prices without a unit"
	}
	return "prices per " + u
}

// quantile returns the q-quantile of sorted kopecks, linearly interpolated.
// For the quartiles it is a whole number of quarter kopecks, which a
// float64 holds exactly below 2^50 kopecks, and so is 1.5 times the
// distance of two: the figures are rounded once, at the end (nearest).
func quantile(sorted []int64, q float64) float64 {
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return float64(sorted[len(sorted)-1])
	}
	return float64(sorted[i]) + (pos-float64(i))*float64(sorted[i+1]-sorted[i])
}

// nearest returns kopecks rounded to a whole kopeck, half away from zero:
// the median of 612.50 and 669.07 is 640.79.
func nearest(kopecks float64) int64 { return int64(math.Round(kopecks)) }
