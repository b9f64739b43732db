package postings

import (
	"slices"
	"strconv"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Impacts. Beside the bitmap of a word's key, a record's doc is in the
// bitmap of the key's impact level in it when that level is above the
// lowest (Levels): how much the word says of the record, by BM25's weight
// of a term in a document, from the word's count in the record (a title
// counts titleWeight times), and the record's length, quantised. Relevance
// is the sum over a query's words of each word's level times its rarity
// (rank.go), so that ranking reads bitmaps as counting does: the same
// chunks, written by the same Changes, on every store.
//
// The weight is BM25's without the corpus: the length it is measured
// against is a constant (referenceLength) instead of the kind's average,
// so that a record's levels never change when other records come or go,
// and the levels a store holds are those any other store computes for the
// same record.
const (
	// Levels is the number of impact levels; a doc holds a word at level 1
	// when it is in none of the word's level bitmaps.
	Levels = 8
	// titleWeight is how many times a word of a title counts.
	titleWeight = 3
	// bm25K1 and bm25B are BM25's usual constants: how fast a word's
	// count saturates, and how much a record's length weighs.
	bm25K1 = 1.2
	bm25B  = 0.75
	// referenceLength is the length, in words, of the typical record the
	// weight is measured against: a tender's title, customer and object.
	referenceLength = 40
)

// levelFloors are the least weights of levels 2 to Levels. A word that
// occurs once outside the title of a record of the reference length or
// longer weighs under 1 and is at level 1, held by no level bitmap, which
// most docs of a common word are; the weight never reaches bm25K1+1.
var levelFloors = [Levels - 1]float64{1.05, 1.2, 1.35, 1.5, 1.65, 1.8, 1.95}

// titleFields are the fields whose words count titleWeight times: what a
// record of each kind is called.
var titleFields = []string{"title", "tender_title", "subject", "name"}

// Titles returns, for each open text of r (tenderbase.OpenText, which
// query.IndexedFields analyzes in order), whether it is a title.
func Titles(r tenderbase.Record) []bool {
	var out []bool
	for _, t := range r.SearchText() {
		if slices.Contains(tenderbase.TariffFields[r.Kind()], t.Field) {
			continue
		}
		out = append(out, slices.Contains(titleFields, t.Field))
	}
	return out
}

// level returns the impact level of a word counted count times (titles
// weighed) in a record of length words.
func level(count float64, length int) int {
	norm := bm25K1 * (1 - bm25B + bm25B*float64(length)/referenceLength)
	w := count * (bm25K1 + 1) / (count + norm)
	l := 1
	for _, f := range levelFloors {
		if w >= f {
			l++
		}
	}
	return l
}

// levelTerm returns the term of the docs that hold term at level l.
func levelTerm(l int, term string) string {
	return impact + strconv.Itoa(l) + " " + term
}

// impactTerms appends to terms the level terms of the word keys of a
// record's open and tariff texts, those above level 1.
func impactTerms(terms []string, open, tariff [][]textproc.Token, titles []bool) []string {
	length := 0
	for _, toks := range open {
		length += len(toks)
	}
	for _, toks := range tariff {
		length += len(toks)
	}
	counts := map[string]float64{}
	count := func(fields [][]textproc.Token, column string, titles []bool) {
		for i, toks := range fields {
			weight := 1.0
			if i < len(titles) && titles[i] {
				weight = titleWeight
			}
			for _, t := range toks {
				counts[column+t.Stem] += weight
			}
		}
	}
	count(open, stem, titles)
	count(tariff, tariffStem, nil)
	for term, n := range counts {
		if l := level(n, length); l > 1 {
			terms = append(terms, levelTerm(l, term))
		}
	}
	return terms
}
