// Package partial finds the records that match most of a query's weight
// when the query's strict set is short: the records that lack one or more
// of its words, ranked by the weight of the words they have, each saying
// which words it lacks. A word weighs by its rarity (IDF from the exact
// total of its search, which both stores count from their postings
// bitmaps), so that a record lacking «поставка» ranks above one lacking a
// rare word.
//
// A store that finds them from its index (tenderbase.PartialSearcher: both
// of the project's stores, through postings.Partial) answers in one read,
// splitting the docs that hold some of the words by which words they hold.
// For a search the index does not answer (a lookup, a range, an order by
// price, a phrase of three words), or another store, they are found by
// strict searches of the query with words dropped, the lightest drop
// first, ranked as they come: a bounded number of searches that every
// store answers alike through tenderbase.Store.Search alone.
package partial

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Bounds of the search for partial matches. A query of more than maxWords
// positive operands has too many subsets to try; maxSearches bounds the
// dropped-word searches, so that partial matches cost about one strict
// search more (each weight is an exact total read from the postings).
const (
	minWords    = 2
	maxWords    = 6
	maxSearches = 8
)

// Searcher is the part of a store partial matches are found with.
type Searcher interface {
	Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error)
}

// Match is a record that lacks some words of the query.
type Match struct {
	Record tenderbase.Record
	// Lacks are the words of the query the record does not match, as the
	// query language writes them.
	Lacks []string
	// Weight is the sum of the weights of the words it matches.
	Weight float64
}

// operand is one positive operand of the query: a word, a phrase or an OR
// group, dropped or kept whole.
type operand struct {
	q      tenderbase.Query
	label  string
	weight float64
	df     int // the records it matches alone
	held   bool
}

// Find returns up to want records that match s's query but for some of its
// positive words, best first, none of them in strict (the whole strict
// set, by key). Only an AND of minWords to maxWords positive
// operands has partial matches; its exclusions are kept in every search.
// The page, cursor and page size of s are ignored.
func Find(ctx context.Context, st Searcher, s tenderbase.Search, strict []tenderbase.Record, want int) ([]Match, error) {
	and, ok := s.Query.(tenderbase.AndQuery)
	if !ok || want <= 0 {
		return nil, nil
	}
	ops, excluded := split(and)
	if len(ops) < minWords || len(ops) > maxWords {
		return nil, nil
	}
	seen := map[string]bool{}
	for _, r := range strict {
		seen[r.Key()] = true
	}
	if ix, ok := st.(tenderbase.PartialSearcher); ok {
		found, err := ix.SearchPartial(ctx, s, min(want+len(seen), tenderbase.MaxPageSize))
		switch {
		case err == nil:
			return fromIndex(found.Matches, ops, seen, want), nil
		case !errors.Is(err, errors.ErrUnsupported):
			return nil, fmt.Errorf("partial matches: %w", err)
		}
	}
	if err := weigh(ctx, st, s, ops); err != nil {
		return nil, err
	}
	var found []Match
	more, half := plans(ops)
	for i, keep := range append(more, half...) {
		if i >= len(more) && len(found) > 0 {
			break // a set of half the weight is tried only on an empty answer
		}
		if within(ops, keep, len(strict)) {
			continue
		}
		run := s
		run.Query, run.Page, run.Cursor = rebuild(ops, keep, excluded), 0, ""
		run.PageSize = min(want+len(seen), tenderbase.MaxPageSize)
		page, err := st.Search(ctx, run)
		if err != nil {
			return nil, fmt.Errorf("partial matches: %w", err)
		}
		for _, r := range page.Items {
			if !seen[r.Key()] {
				seen[r.Key()] = true
				found = append(found, judge(r, ops, s.OpenTextOnly))
			}
		}
		if len(found) >= want {
			break
		}
	}
	// Stable: records of equal weight keep the order of the search.
	slices.SortStableFunc(found, func(a, b Match) int { return -cmpFloat(a.Weight, b.Weight) })
	return found[:min(len(found), want)], nil
}

// fromIndex returns up to want of the partial matches a store found from
// its index, those not seen, each lacking the operands of ops it does not
// hold.
func fromIndex(found []tenderbase.PartialMatch, ops []operand, seen map[string]bool, want int) []Match {
	var out []Match
	for _, f := range found {
		if len(out) == want || len(f.Held) != len(ops) {
			break
		}
		if seen[f.Record.Key()] {
			continue
		}
		m := Match{Record: f.Record, Lacks: []string{}, Weight: f.Weight}
		for i, held := range f.Held {
			if !held {
				m.Lacks = append(m.Lacks, ops[i].label)
			}
		}
		out = append(out, m)
	}
	return out
}

// split returns the positive operands of and and its exclusions.
func split(and tenderbase.AndQuery) ([]operand, []tenderbase.Query) {
	positive, excluded := and.Split()
	ops := make([]operand, len(positive))
	for i, o := range positive {
		ops[i] = operand{q: o, label: Label(o)}
	}
	return ops, excluded
}

// Count is the search that counts the records of kind that q matches
// alone, in the text openOnly says (tenderbase.Search.OpenTextOnly),
// whatever else a search asks: a page of one record, whose total is the
// count. The weights, the corrections' look-ups and the counts a store's
// partial matches return are all kept as the totals of such searches, one
// a word and call.
func Count(kind tenderbase.Kind, q tenderbase.Query, openOnly bool) tenderbase.Search {
	return tenderbase.Search{Kind: kind, Query: q, OpenTextOnly: openOnly, PageSize: 1}
}

// weigh sets the weight of each operand: ln(1 + N/df), N being the records
// of the kind the search admits by plan and df those its operand matches
// alone. The filters are left out: the weight is the word's rarity in the
// kind, and a count without them is a bitmap's cardinality. The counts
// run at once: each is a search of one record, whose page, not its total,
// is most of its cost (about 10 ms on PostgreSQL for a word of half of
// 10,000 tenders), and a store serves them side by side.
func weigh(ctx context.Context, st Searcher, s tenderbase.Search, ops []operand) error {
	counts := make([]int, len(ops)+1)
	errs := make([]error, len(ops)+1)
	var wg sync.WaitGroup
	for i := range counts {
		var q tenderbase.Query // the last count is of the kind: N
		if i < len(ops) {
			q = ops[i].q
		}
		wg.Go(func() {
			p, err := st.Search(ctx, Count(s.Kind, q, s.OpenTextOnly))
			counts[i], errs[i] = p.Total, err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("partial matches: weigh: %w", err)
	}
	n := counts[len(ops)]
	for i := range ops {
		df := counts[i]
		ops[i].df, ops[i].held = df, df > 0
		// A word no record holds weighs as the rarest one held: lacking it
		// is sure, but a record with only common words beside it is not
		// what the query asks.
		ops[i].weight = math.Log(1 + float64(n)/float64(max(df, 1)))
	}
	return nil
}

// plans returns the sets of operands to keep, one a search, by the weight
// they keep, heaviest first (the lightest drop first). An operand no
// record holds is dropped from every set, but its weight counts in the
// whole; a set keeps more than half the weight of the query, so that what
// is shown matches most of it, and drops something, or it would be the
// strict search. The sets that keep exactly half (two words of one
// rarity, as in a store too small to tell «ремонт» from «кровля») come
// apart, in half, the later words kept first: they are searched only
// while the others and those before found nothing, since an answer of
// records with half the words is better than none but worse than one
// with most of them.
func plans(ops []operand) (more, half [][]bool) {
	var held []int
	var total float64
	for i, o := range ops {
		total += o.weight
		if o.held {
			held = append(held, i)
		}
	}
	type plan struct {
		keep []bool
		kept float64
	}
	var all []plan
	for mask := 1; mask < 1<<len(held); mask++ {
		p := plan{keep: make([]bool, len(ops))}
		for j, i := range held {
			if mask&(1<<j) != 0 {
				p.keep[i], p.kept = true, p.kept+ops[i].weight
			}
		}
		if p.kept >= total/2-tie && slices.Contains(p.keep, false) {
			all = append(all, p)
		}
	}
	slices.SortStableFunc(all, func(a, b plan) int { return -cmpFloat(a.kept, b.kept) })
	more = make([][]bool, 0, maxSearches)
	for _, p := range all[:min(len(all), maxSearches)] {
		if p.kept > total/2+tie {
			more = append(more, p.keep)
		} else {
			half = append(half, p.keep)
		}
	}
	// Of sets of half the weight, the one that keeps the later words comes
	// first: a Russian noun phrase names its head first and what it is of
	// after it (ремонт кровли, поставка кофе), and the latter tells more.
	slices.SortStableFunc(half, func(a, b []bool) int {
		for i := len(a) - 1; i >= 0; i-- {
			if a[i] != b[i] {
				if a[i] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	return more, half
}

// tie is how near two weights are equal: the weights of two words held by
// as many records are equal, but their sums may differ in the last bits.
const tie = 1e-9

// within reports whether a set of kept operands can find only records of
// the strict set, of strict records: it keeps an operand that matches no
// more records than the strict set holds, all of which hold it. A query
// of one rare word beside common ones then costs no dropped-word search.
func within(ops []operand, keep []bool, strict int) bool {
	for i, o := range ops {
		if keep[i] && o.df <= strict {
			return true
		}
	}
	return false
}

// rebuild returns the AND of the kept operands and every exclusion.
func rebuild(ops []operand, keep []bool, excluded []tenderbase.Query) tenderbase.Query {
	var and tenderbase.AndQuery
	for i, o := range ops {
		if keep[i] {
			and.Operands = append(and.Operands, o.q)
		}
	}
	if len(and.Operands) == 1 && len(excluded) == 0 {
		return and.Operands[0]
	}
	and.Operands = append(and.Operands, excluded...)
	return and
}

// judge returns r as a partial match: the operands it lacks, by the
// reference meaning of the query, and the weight of those it has.
func judge(r tenderbase.Record, ops []operand, openOnly bool) Match {
	m := Match{Record: r, Lacks: []string{}}
	for _, o := range ops {
		if query.MatchRecord(o.q, r, openOnly) {
			m.Weight += o.weight
		} else {
			m.Lacks = append(m.Lacks, o.label)
		}
	}
	return m
}

// Label writes an operand as the query language reads it: a word (=word
// for an exact one), a phrase in quotes, an OR group's operands joined by
// " | ".
func Label(q tenderbase.Query) string {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		if q.Exact {
			return "=" + q.Form
		}
		return q.Form
	case tenderbase.PhraseQuery:
		words := make([]string, len(q.Terms))
		for i, t := range q.Terms {
			words[i] = Label(t)
		}
		return `"` + strings.Join(words, " ") + `"`
	case tenderbase.OrQuery:
		parts := make([]string, len(q.Operands))
		for i, o := range q.Operands {
			parts[i] = Label(o)
		}
		return strings.Join(parts, " | ")
	case tenderbase.AndQuery:
		parts := make([]string, len(q.Operands))
		for i, o := range q.Operands {
			parts[i] = Label(o)
		}
		return "(" + strings.Join(parts, " ") + ")"
	case tenderbase.NotQuery:
		return "!" + Label(q.Operand)
	}
	return ""
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
