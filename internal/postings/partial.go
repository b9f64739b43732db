package postings

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/tenderbase/tenderbase"
)

// Partial matches from the index. The docs that hold some of an AND's
// positive operands but not all fall into at most 2^n sets of the
// operands they hold (n operands: a mask), which the operands' bitmaps
// split the union of their docs into, as Rank splits matches by levels.
// A mask weighs the rarity of the operands it holds (Rank's word weight,
// BM25's idf from the bitmaps' counts); the masks that hold more than half
// of the whole query's weight come heaviest first, and those that hold
// exactly half only when no heavier one holds a doc, as an answer of half
// the words is better than none but worse than one with most of them.
// Within a mask the docs come newest first, or by relevance when ranked:
// Rank's score of the words held. A page of partial matches thus costs a
// read of the operands' bitmaps and a page newest first per set, however
// many docs hold some of the words, with no dropped-word search.

// MaxPartialOperands bounds the positive operands of a query whose partial
// matches the index finds: the masks of more would be too many sets.
const MaxPartialOperands = 8

// PartialDocs are partial matches, best first.
type PartialDocs struct {
	Operands int // the positive operands of the query
	RIDs     []int64
	// Held are, for each of RIDs, the positive operands of the query it
	// holds: bit i for the query's i-th.
	Held []uint
	// Weights are, for each of RIDs, the weight of the operands it holds,
	// in the tenths of Rank's weights.
	Weights []int
	// Counts are the docs of each operand, whatever the flags and
	// exclusions.
	Counts []int
}

// Partial returns up to want of the docs that match some but not all of
// the positive operands of m's query, an AND of 2 to MaxPartialOperands
// of them beside any exclusions, and every exclusion and flag group of m;
// m must be Exact. ranked orders the docs of one mask by relevance instead
// of newest first. recs reads the kind's records.
func Partial(ctx context.Context, load Loader, recs Records, m Match, want int, ranked bool) (PartialDocs, error) {
	and, ok := m.Query.(tenderbase.AndQuery)
	if !ok || want <= 0 {
		return PartialDocs{}, nil
	}
	ops, excluded := and.Split()
	if len(ops) < 2 || len(ops) > MaxPartialOperands {
		return PartialDocs{}, nil
	}
	e := evaluator{openOnly: m.OpenOnly, need: map[string]bool{All: true}}
	e.collect(m)
	words := make([][][]string, len(ops)) // of each operand
	for i, o := range ops {
		words[i] = e.scoredWords(o)
		if ranked {
			// Only a ranking reads the levels: newest first, a mask's
			// docs are one set.
			e.needLevels(words[i])
		}
	}
	if err := e.load(ctx, load); err != nil {
		return PartialDocs{}, err
	}
	all := e.bitmap(All).GetCardinality()
	// The docs the exclusions and the flags admit.
	var exclusions tenderbase.Query // nil admits every doc
	if len(excluded) > 0 {
		exclusions = tenderbase.AndQuery{Operands: excluded}
	}
	admitted := e.docs(Match{Query: exclusions, Groups: m.Groups, OpenOnly: m.OpenOnly})
	docs := make([]*Bitmap, len(ops))
	weights, counts := make([]int, len(ops)), make([]int, len(ops))
	for i, o := range ops {
		docs[i] = e.eval(o)
		counts[i] = int(docs[i].GetCardinality())
		// An operand no doc holds weighs as the rarest one held: lacking
		// it is sure, but a doc with only common words beside it is not
		// what the query asks.
		weights[i] = idfTenths(max(docs[i].GetCardinality(), 1), all)
	}
	masks := splitByMask(roaring.And(roaring.FastOr(docs...), admitted), docs)
	// The full mask is the strict set, shown before partial matches.
	delete(masks, 1<<len(ops)-1)
	sets := chooseMasks(masks, weights)
	out := PartialDocs{Operands: len(ops), Counts: counts}
	for _, s := range sets {
		if len(out.RIDs) >= want {
			break
		}
		within := []scoreSet{{0, s.docs}}
		if ranked {
			var held [][]string
			for i := range ops {
				if s.mask&(1<<i) != 0 {
					held = append(held, words[i]...)
				}
			}
			within = e.scoreSets(s.docs, held, all)
		}
		for _, w := range within {
			if len(out.RIDs) >= want {
				break
			}
			rids, err := NewestFirst(ctx, recs, w.docs, all, math.MaxInt64, want-len(out.RIDs))
			if err != nil {
				return PartialDocs{}, err
			}
			for _, rid := range rids {
				out.RIDs, out.Held, out.Weights = append(out.RIDs, rid), append(out.Held, s.mask), append(out.Weights, s.weight)
			}
		}
	}
	return out, nil
}

// chooseMasks returns the sets of masks whose docs are partial matches, in
// their order, for operands of weights: those that hold more than half of
// the weight, or, when none does, those that hold half; the heaviest
// first, and of two of one weight the one that holds the later operand.
func chooseMasks(masks map[uint]*Bitmap, weights []int) []maskSet {
	total := 0
	for _, w := range weights {
		total += w
	}
	var more, half []maskSet
	for mask, set := range masks {
		kept := 0
		for i, w := range weights {
			if mask&(1<<i) != 0 {
				kept += w
			}
		}
		switch {
		case 2*kept > total:
			more = append(more, maskSet{mask, kept, set})
		case 2*kept == total:
			half = append(half, maskSet{mask, kept, set})
		}
	}
	sets := more
	if len(sets) == 0 {
		sets = half
	}
	slices.SortFunc(sets, func(a, b maskSet) int {
		if c := cmp.Compare(b.weight, a.weight); c != 0 {
			return c
		}
		return laterFirst(a.mask, b.mask, len(weights))
	})
	return sets
}

// maskSet is the docs that hold the operands of one mask, and their
// weight.
type maskSet struct {
	mask   uint
	weight int
	docs   *Bitmap
}

// splitByMask splits union by which of docs hold each of its docs: bit i
// of a set's mask for docs[i]. Empty sets are left out.
func splitByMask(union *Bitmap, docs []*Bitmap) map[uint]*Bitmap {
	sets := map[uint]*Bitmap{0: union}
	for i, d := range docs {
		next := make(map[uint]*Bitmap, 2*len(sets))
		for mask, set := range sets {
			if in := roaring.And(set, d); !in.IsEmpty() {
				next[mask|1<<i] = in
			}
			if out := roaring.AndNot(set, d); !out.IsEmpty() {
				next[mask] = out
			}
		}
		sets = next
	}
	return sets
}

// laterFirst orders two masks of one weight: the one that holds the later
// operand first. A Russian noun phrase names its head first and what it is
// of after it (ремонт кровли, поставка кофе), and the latter tells more.
func laterFirst(a, b uint, n int) int {
	for i := n - 1; i >= 0; i-- {
		ai, bi := a&(1<<i) != 0, b&(1<<i) != 0
		if ai != bi {
			if ai {
				return -1
			}
			return 1
		}
	}
	return 0
}

// idfTenths is the weight of a word n of all docs hold: its BM25 idf in
// tenths, at least 1 (Rank's word weight).
func idfTenths(n, all uint64) int {
	idf := math.Log(1 + (float64(all)-float64(n)+0.5)/(float64(n)+0.5))
	return max(1, int(math.Round(idf*10)))
}

// PartialMatch returns the match of s's partial matches, q being its
// query as the store writes it (query.ForKind), and whether they are
// ranked by relevance; or an error wrapping errors.ErrUnsupported when
// the index does not answer them: s has a lookup or a range, an order
// other than newest first or by relevance, or a phrase the postings do
// not match exactly.
func PartialMatch(s tenderbase.Search, q tenderbase.Query) (m Match, ranked bool, err error) {
	m = Match{Query: q, Groups: s.Groups(), OpenOnly: s.OpenTextOnly}
	order := s.Order()
	if len(s.Keys()) > 0 || len(s.Ranges) > 0 || !m.Exact() || order != tenderbase.SortNewest && order != tenderbase.SortRelevance {
		return Match{}, false, fmt.Errorf("partial matches of a search with a lookup, a range, an order by a measure or a long phrase, from the index: %w", errors.ErrUnsupported)
	}
	return m, order == tenderbase.SortRelevance, nil
}

// Bodies reads the current records at rids, in their order.
type Bodies func(ctx context.Context, rids []int64) ([]tenderbase.Record, error)

// PartialMatches returns up to want partial matches of m (Partial), their
// records read by bodies, and the counts of m's operands.
func PartialMatches(ctx context.Context, load Loader, recs Records, bodies Bodies, m Match, want int, ranked bool) (tenderbase.PartialPage, error) {
	p, err := Partial(ctx, load, recs, m, want, ranked)
	if err != nil {
		return tenderbase.PartialPage{}, err
	}
	records, err := bodies(ctx, p.RIDs)
	if err != nil {
		return tenderbase.PartialPage{}, err
	}
	out := tenderbase.PartialPage{Matches: make([]tenderbase.PartialMatch, len(records)), Counts: p.Counts}
	for i, r := range records {
		held := make([]bool, p.Operands)
		for j := range held {
			held[j] = p.Held[i]&(1<<j) != 0
		}
		out.Matches[i] = tenderbase.PartialMatch{Record: r, Held: held, Weight: float64(p.Weights[i]) / 10}
	}
	return out, nil
}
