package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase/internal/benchcorpus"
)

// orderSeed seeds the order of the classes and stores within a round, the
// same from run to run.
const orderSeed = 7

// classResult is what the stores did with the queries of one class.
type classResult struct {
	Name    string         `json:"name"`
	About   string         `json:"about"`
	Stores  []storeFigures `json:"stores"`
	Queries []queryFigures `json:"queries"`
	times   map[string]*times
}

// times are the durations of one store's searches of one class.
type times struct{ cold, warm []time.Duration }

// storeFigures are the percentiles of one store's searches of one class,
// in milliseconds. Cold searches come right after the store forgot its
// cached totals, warm ones right after a cold one; the usual way caches
// nothing, and its searches are all cold.
type storeFigures struct {
	Store    string  `json:"store"`
	Searches int     `json:"searches"`
	Failed   int     `json:"failed"`
	ColdP50  float64 `json:"cold_p50_ms"`
	ColdP95  float64 `json:"cold_p95_ms"`
	ColdP99  float64 `json:"cold_p99_ms"`
	WarmP50  float64 `json:"warm_p50_ms,omitempty"`
	WarmP95  float64 `json:"warm_p95_ms,omitempty"`
	WarmP99  float64 `json:"warm_p99_ms,omitempty"`
	// UsualOverCold and UsualOverWarm are the usual way's p95 over this
	// store's cold and warm p95.
	UsualOverCold float64 `json:"usual_over_cold_p95,omitempty"`
	UsualOverWarm float64 `json:"usual_over_warm_p95,omitempty"`
}

// queryFigures is a query of a class and the totals each store gave it.
type queryFigures struct {
	benchcorpus.Query
	Totals map[string]int `json:"totals"`
}

// withCursors adds to the classes one that asks for the pages of the
// class "page" by the cursor of the page before each, as a caller turning
// pages does: a deep page by keyset against the same page by number.
func withCursors(classes []benchcorpus.Class) []benchcorpus.Class {
	out := slices.Clone(classes)
	for _, cl := range classes {
		if cl.Name != "page" {
			continue
		}
		byCursor := benchcorpus.Class{Name: "cursor", About: cl.About + ", by the cursor of the page before"}
		for _, q := range cl.Queries {
			if q.Page > 0 {
				q.ByCursor = true
				byCursor.Queries = append(byCursor.Queries, q)
			}
		}
		out = append(out, byCursor)
	}
	return out
}

// measure asks the queries of the classes in interleaved rounds: in each,
// every class in a shuffled order asks its next query of every store in a
// shuffled order, so that no store or class always comes first, after a
// cache another warmed.
func (b *bench) measure(ctx context.Context, targets []*target, classes []benchcorpus.Class, r *result) []classResult {
	out := make([]classResult, len(classes))
	for i, cl := range classes {
		out[i] = classResult{Name: cl.Name, About: cl.About, times: map[string]*times{}}
		for _, q := range cl.Queries {
			out[i].Queries = append(out[i].Queries, queryFigures{Query: q, Totals: map[string]int{}})
		}
		for _, t := range targets {
			out[i].times[t.name] = &times{}
		}
	}
	order := rand.New(rand.NewPCG(orderSeed, orderSeed))
	for round := range b.cfg.Rounds {
		for _, ci := range order.Perm(len(out)) {
			c := &out[ci]
			if len(c.Queries) == 0 {
				continue
			}
			q := &c.Queries[round%len(c.Queries)]
			for _, ti := range order.Perm(len(targets)) {
				if ctx.Err() != nil {
					return out
				}
				b.ask(ctx, targets[ti], c, q, r)
			}
		}
		b.logger.Info("round done", "round", round+1, "of", b.cfg.Rounds)
	}
	for i := range out {
		out[i].Stores = figures(&out[i], targets)
		checkTotals(&out[i], r)
		checkOrders(ctx, &out[i], targets, r)
	}
	return out
}

// checkOrders warns of each query of an order of its own (relevance) whose
// first page the project's stores give in different orders.
func checkOrders(ctx context.Context, c *classResult, targets []*target, r *result) {
	for _, q := range c.Queries {
		if q.Sort == "" {
			continue
		}
		var first []string
		firstStore := ""
		for _, t := range targets {
			if t.keys == nil {
				continue
			}
			keys, err := t.keys(ctx, q.Query)
			if err != nil {
				r.warn("%s: %s failed on %s: %v", c.Name, q.Text, t.name, err)
				continue
			}
			if firstStore == "" {
				first, firstStore = keys, t.name
			} else if !slices.Equal(first, keys) {
				r.warn("%s: %s gives the page %v on %s and %v on %s", c.Name, q.Text, first, firstStore, keys, t.name)
			}
		}
	}
}

// checkTotals warns of each query whose totals the project's stores
// disagree on, with each other or with the reference matcher. The usual
// way's differ: it stems otherwise and searches fewer fields.
func checkTotals(c *classResult, r *result) {
	for _, q := range c.Queries {
		lite, okLite := q.Totals[storeSQLite]
		pg, okPG := q.Totals[storePostgres]
		if okLite && okPG && lite != pg {
			r.warn("%s: %s has the total %d on sqlite and %d on postgres", c.Name, q.Text, lite, pg)
		}
		for _, store := range []string{storeSQLite, storePostgres} {
			if n, ok := q.Totals[store]; ok && q.Hits >= 0 && n != q.Hits {
				r.warn("%s: %s has the total %d on %s, and the reference matcher finds %d", c.Name, q.Text, n, store, q.Hits)
			}
		}
	}
}

// ask asks a query of a store: cold and then warm of the project's
// stores, once of the usual way.
func (b *bench) ask(ctx context.Context, t *target, c *classResult, q *queryFigures, r *result) {
	tm := c.times[t.name]
	query := q.Query
	if query.ByCursor {
		var err error
		if query.Cursor, err = t.cursorOf(ctx, query); err != nil {
			tm.cold = append(tm.cold, -1)
			r.warn("%s: %s failed on %s: %v", c.Name, q.Text, t.name, err)
			return
		}
	}
	if t.forget != nil {
		t.forget()
	}
	d, total, err := timed(ctx, t, query)
	if err != nil {
		tm.cold = append(tm.cold, -1)
		r.warn("%s: %s failed on %s: %v", c.Name, q.Text, t.name, err)
		return
	}
	tm.cold = append(tm.cold, d)
	b.total(c, q, t.name, total, r)
	if t.forget == nil {
		return
	}
	d, total, err = timed(ctx, t, query)
	if err != nil {
		tm.warm = append(tm.warm, -1)
		r.warn("%s: %s failed warm on %s: %v", c.Name, q.Text, t.name, err)
		return
	}
	tm.warm = append(tm.warm, d)
	b.total(c, q, t.name, total, r)
}

// timed runs one search and returns how long it took.
func timed(ctx context.Context, t *target, q benchcorpus.Query) (time.Duration, int, error) {
	start := time.Now()
	total, err := t.search(ctx, q)
	return time.Since(start), total, err
}

// total records the total a store gave a query, and warns when it differs
// from the one it gave before.
func (b *bench) total(c *classResult, q *queryFigures, store string, total int, r *result) {
	if before, ok := q.Totals[store]; ok && before != total {
		r.warn("%s: %s has the total %d on %s, after %d", c.Name, q.Text, total, store, before)
	}
	q.Totals[store] = total
}

func (r *result) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// figures returns the percentiles of each store's searches of a class and
// the usual way's p95 over each of the others'.
func figures(c *classResult, targets []*target) []storeFigures {
	var out []storeFigures
	usualP95 := 0.0
	for _, t := range targets {
		tm := c.times[t.name]
		cold, failedCold := succeeded(tm.cold)
		warm, failedWarm := succeeded(tm.warm)
		f := storeFigures{Store: t.name, Searches: len(tm.cold) + len(tm.warm), Failed: failedCold + failedWarm,
			ColdP50: ms(percentile(cold, 50)), ColdP95: ms(percentile(cold, 95)), ColdP99: ms(percentile(cold, 99)),
			WarmP50: ms(percentile(warm, 50)), WarmP95: ms(percentile(warm, 95)), WarmP99: ms(percentile(warm, 99))}
		if t.name == storeUsual {
			usualP95 = f.ColdP95
		}
		out = append(out, f)
	}
	for i := range out {
		if f := &out[i]; usualP95 > 0 && f.Store != storeUsual {
			f.UsualOverCold = ratio(usualP95, f.ColdP95)
			f.UsualOverWarm = ratio(usualP95, f.WarmP95)
		}
	}
	return out
}

// succeeded returns the durations of the searches that did not fail
// (those of -1), sorted, and how many failed.
func succeeded(ds []time.Duration) ([]time.Duration, int) {
	ok := slices.DeleteFunc(slices.Clone(ds), func(d time.Duration) bool { return d < 0 })
	slices.Sort(ok)
	return ok, len(ds) - len(ok)
}

// percentile returns the p-th percentile of sorted durations by the
// nearest rank, 0 of none.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(float64(len(sorted))*p/100)) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
