package postings

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/tenderbase/tenderbase"
)

// Relevance from the index. A record's score for a query is the sum, over
// the query's words that are not excluded (a phrase's each), of the
// word's impact level in the record (impact.go; 0 where the record lacks
// the word, in a match of an OR) times the word's weight: its rarity,
// BM25's idf from the bitmaps' counts, rounded to a tenth. The score is
// an integer, so that its order and its ties are the same wherever it is
// computed, and the results are in the order of the score, highest first,
// and of the rid, newest first.
//
// Rank never scores a record alone. The docs of one word at one level are
// a bitmap (of the levels' terms), so the matches fall into a few sets of
// one score each: for each word in turn, each set so far is split by the
// word's levels, and the sets of equal sums are joined again. A page is
// then taken from the sets highest first: a set wholly before the page is
// skipped by its count, and the page's records within a set are its newest
// (NewestFirst), so that a page costs what a page newest first costs,
// whatever the number of matches. Score-at-a-time evaluation over impacts
// (Anh and Moffat) with the impacts as bitmaps: the best k are found
// without a score computed for any one match.

// Place is a record's place in a ranking: its score and its rid. The page
// after a place begins with the record that comes next in the order.
type Place struct {
	Score float64
	RID   int64
}

// Ranked is a page of matches by relevance.
type Ranked struct {
	RIDs   []int64
	Scores []float64 // of each of RIDs
	More   bool      // another page follows
	Total  int       // the number of matches
}

// Rank returns the page of m's matches by relevance that begins offset
// matches after the place after (at the first match when nil) and holds
// at most limit of them; m must be Exact. recs reads the kind's records.
func Rank(ctx context.Context, load Loader, recs Records, m Match, offset, limit int, after *Place) (Ranked, error) {
	e := evaluator{openOnly: m.OpenOnly, need: map[string]bool{All: true}}
	e.collect(m)
	words := e.scoredWords(m.Query)
	e.needLevels(words)
	if err := e.load(ctx, load); err != nil {
		return Ranked{}, err
	}
	docs := e.docs(m)
	all := e.bitmap(All).GetCardinality()
	out := Ranked{Total: int(docs.GetCardinality())}
	want := limit + 1 // one more, to know whether a page follows
	skip := offset
	var scores []float64
	for _, set := range e.scoreSets(docs, words, all) {
		if len(out.RIDs) >= want {
			break
		}
		score := float64(set.score)
		before := int64(math.MaxInt64)
		if after != nil {
			if score > after.Score {
				continue
			}
			if score == after.Score {
				before = after.RID
			}
		}
		if n := set.docs.GetCardinality(); before == math.MaxInt64 && uint64(skip) >= n {
			skip -= int(n)
			continue
		}
		rids, err := NewestFirst(ctx, recs, set.docs, all, before, skip+want-len(out.RIDs))
		if err != nil {
			return Ranked{}, err
		}
		drop := min(skip, len(rids))
		skip -= drop
		for _, rid := range rids[drop:] {
			out.RIDs = append(out.RIDs, rid)
			scores = append(scores, score)
		}
	}
	if out.More = len(out.RIDs) > limit; out.More {
		out.RIDs, scores = out.RIDs[:limit], scores[:limit]
	}
	out.Scores = scores
	return out, nil
}

// scoredWords returns the words of q that weigh in its score, each as the
// terms of its keys (a word's form matches within its key's docs), in the
// order of the query.
func (e *evaluator) scoredWords(q tenderbase.Query) [][]string {
	var words [][]string
	var walk func(q tenderbase.Query)
	walk = func(q tenderbase.Query) {
		switch q := q.(type) {
		case tenderbase.TermQuery:
			q.Exact = false
			words = append(words, e.termTerms(q))
		case tenderbase.PhraseQuery:
			for _, t := range q.Terms {
				t.Exact = false
				words = append(words, e.termTerms(t))
			}
		case tenderbase.AndQuery:
			for _, o := range q.Operands {
				walk(o)
			}
		case tenderbase.OrQuery:
			for _, o := range q.Operands {
				walk(o)
			}
		}
		// An excluded word weighs nothing: no match holds it.
	}
	if q != nil {
		walk(q)
	}
	return words
}

// needLevels notes the terms of words, and those of their impact levels.
func (e *evaluator) needLevels(words [][]string) {
	for _, w := range words {
		for _, t := range w {
			e.need[t] = true
			for l := 2; l <= Levels; l++ {
				e.need[levelTerm(l, t)] = true
			}
		}
	}
}

// scoreSet is the docs of one score.
type scoreSet struct {
	score int
	docs  *Bitmap
}

// scoreSets splits docs by their score for words among all records,
// highest first.
func (e *evaluator) scoreSets(docs *Bitmap, words [][]string, all uint64) []scoreSet {
	sets := map[int]*Bitmap{0: docs}
	for i, w := range words {
		weight := e.weight(w, all)
		levels := e.levels(docs, w)
		next := map[int]*Bitmap{}
		for score, set := range sets {
			for l, at := range levels {
				// The levels split docs, the one set before the first
				// word: they are its parts.
				part := at
				if i > 0 {
					part = roaring.And(set, at)
				}
				if part.IsEmpty() {
					continue
				}
				s := score + weight*l
				if joined := next[s]; joined != nil {
					joined.Or(part)
				} else {
					next[s] = part
				}
			}
		}
		sets = next
	}
	out := make([]scoreSet, 0, len(sets))
	for s, bm := range sets {
		out = append(out, scoreSet{s, bm})
	}
	slices.SortFunc(out, func(a, b scoreSet) int { return cmp.Compare(b.score, a.score) })
	return out
}

// weight returns the weight of a word of terms: its idf in tenths, at
// least 1.
func (e *evaluator) weight(terms []string, all uint64) int {
	return idfTenths(e.any(terms).GetCardinality(), all)
}

// levels splits docs by the level of the word of terms in each, the
// highest of its terms': levels[l] holds the docs of level l, 0 for those
// that lack the word. Empty levels are left out.
func (e *evaluator) levels(docs *Bitmap, terms []string) map[int]*Bitmap {
	out := map[int]*Bitmap{}
	left := docs.Clone()
	for l := Levels; l >= 2 && !left.IsEmpty(); l-- {
		at := e.anyWithin(left, levelTermsOf(l, terms))
		if !at.IsEmpty() {
			left.AndNot(at)
			out[l] = at
		}
	}
	if held := e.anyWithin(left, terms); !held.IsEmpty() {
		left.AndNot(held)
		out[1] = held
	}
	if !left.IsEmpty() {
		out[0] = left
	}
	return out
}

// anyWithin returns the docs of within that hold any of terms.
func (e *evaluator) anyWithin(within *Bitmap, terms []string) *Bitmap {
	bms := make([]*Bitmap, 0, len(terms))
	for _, t := range terms {
		if bm := e.bitmaps[t]; bm != nil {
			bms = append(bms, bm)
		}
	}
	if len(bms) == 0 {
		return New()
	}
	return roaring.And(within, roaring.FastOr(bms...))
}

func levelTermsOf(l int, terms []string) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = levelTerm(l, t)
	}
	return out
}
