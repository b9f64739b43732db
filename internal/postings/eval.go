package postings

import (
	"context"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Loader reads the bitmaps of terms of one kind, in a store's snapshot. A
// term no record holds may be missing from the map.
type Loader func(ctx context.Context, terms []string) (map[string]*Bitmap, error)

// Match is a search's text and flags as postings answer them.
type Match struct {
	Query    tenderbase.Query // as query.ForKind writes it; nil matches every record
	Groups   [][]string       // flag groups (tenderbase.Filters.Groups)
	OpenOnly bool             // words match the text every plan sees only
}

// Exact reports whether postings answer m exactly. They hold words and
// pairs of words side by side, not positions: a phrase of two words is
// theirs to answer when both are matched in any form, but not one of
// three words or more, nor one with an exact form.
func (m Match) Exact() bool { return m.Query == nil || exact(m.Query) }

func exact(q tenderbase.Query) bool {
	switch q := q.(type) {
	case tenderbase.PhraseQuery:
		return len(q.Terms) == 1 || len(q.Terms) == 2 && !q.Terms[0].Exact && !q.Terms[1].Exact
	case tenderbase.AndQuery:
		for _, o := range q.Operands {
			if !exact(o) {
				return false
			}
		}
	case tenderbase.OrQuery:
		for _, o := range q.Operands {
			if !exact(o) {
				return false
			}
		}
	case tenderbase.NotQuery:
		return exact(q.Operand)
	}
	return true
}

// Docs returns the docs that match m, which must be Exact.
func Docs(ctx context.Context, load Loader, m Match) (*Bitmap, error) {
	e := evaluator{openOnly: m.OpenOnly, need: map[string]bool{}}
	e.collect(m)
	if err := e.load(ctx, load); err != nil {
		return nil, err
	}
	return e.docs(m), nil
}

// load reads the bitmaps of the terms e needs.
func (e *evaluator) load(ctx context.Context, load Loader) error {
	terms := make([]string, 0, len(e.need))
	for t := range e.need {
		terms = append(terms, t)
	}
	var err error
	e.bitmaps, err = load(ctx, terms)
	return err
}

// docs returns the docs that match m, whose terms e has loaded.
func (e *evaluator) docs(m Match) *Bitmap {
	var docs *Bitmap
	if m.Query != nil {
		docs = e.eval(m.Query)
	} else {
		docs = e.bitmap(All).Clone()
	}
	for _, g := range m.Groups {
		docs.And(e.any(flagTerms(g)))
	}
	return docs
}

// Count returns the number of docs that match m, which must be Exact.
func Count(ctx context.Context, load Loader, m Match) (int, error) {
	docs, err := Docs(ctx, load, m)
	if err != nil {
		return 0, err
	}
	return int(docs.GetCardinality()), nil
}

// evaluator computes a query over the bitmaps of its terms.
type evaluator struct {
	openOnly bool
	need     map[string]bool
	bitmaps  map[string]*Bitmap
}

// collect notes every term the match reads.
func (e *evaluator) collect(m Match) {
	if m.Query == nil {
		e.need[All] = true
	} else {
		e.collectQuery(m.Query)
	}
	for _, g := range m.Groups {
		for _, t := range flagTerms(g) {
			e.need[t] = true
		}
	}
}

func (e *evaluator) collectQuery(q tenderbase.Query) {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		for _, t := range e.termTerms(q) {
			e.need[t] = true
		}
	case tenderbase.PhraseQuery:
		for _, t := range e.phraseTerms(q) {
			e.need[t] = true
		}
	case tenderbase.AndQuery:
		positive := false
		for _, o := range q.Operands {
			_, negative := o.(tenderbase.NotQuery)
			positive = positive || !negative
			e.collectQuery(o)
		}
		if !positive {
			e.need[All] = true
		}
	case tenderbase.OrQuery:
		for _, o := range q.Operands {
			e.collectQuery(o)
		}
	case tenderbase.NotQuery:
		e.need[All] = true
		e.collectQuery(q.Operand)
	}
}

// termTerms returns the terms any of which a word matches: its form, or
// every key a record's word may have that it matches
// (textproc.MatchingKeys), in the open text and, unless openOnly, in the
// tariff text.
func (e *evaluator) termTerms(t tenderbase.TermQuery) []string {
	var terms []string
	if t.Exact {
		terms = append(terms, form+t.Form)
		if !e.openOnly {
			terms = append(terms, tariffForm+t.Form)
		}
		return terms
	}
	for _, k := range textproc.MatchingKeys(t.Stem) {
		terms = append(terms, stem+k)
		if !e.openOnly {
			terms = append(terms, tariffStem+k)
		}
	}
	return terms
}

// phraseTerms returns the terms any of which an Exact phrase matches: a
// word's, or the pairs of keys of two words that a record's words side by
// side may have.
func (e *evaluator) phraseTerms(p tenderbase.PhraseQuery) []string {
	if len(p.Terms) == 1 {
		return e.termTerms(p.Terms[0])
	}
	var terms []string
	for _, a := range textproc.MatchingKeys(p.Terms[0].Stem) {
		for _, b := range textproc.MatchingKeys(p.Terms[1].Stem) {
			terms = append(terms, pair+a+" "+b)
			if !e.openOnly {
				terms = append(terms, tariffPair+a+" "+b)
			}
		}
	}
	return terms
}

// eval returns the docs q matches, as a bitmap of its own.
func (e *evaluator) eval(q tenderbase.Query) *Bitmap {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		return e.any(e.termTerms(q))
	case tenderbase.PhraseQuery:
		return e.any(e.phraseTerms(q))
	case tenderbase.AndQuery:
		var positive []*Bitmap
		var negative []tenderbase.Query
		for _, o := range q.Operands {
			if n, ok := o.(tenderbase.NotQuery); ok {
				negative = append(negative, n.Operand)
				continue
			}
			positive = append(positive, e.eval(o))
		}
		var docs *Bitmap
		if len(positive) == 0 {
			docs = e.bitmap(All).Clone()
		} else {
			docs = roaring.FastAnd(positive...)
		}
		for _, n := range negative {
			docs.AndNot(e.eval(n))
		}
		return docs
	case tenderbase.OrQuery:
		operands := make([]*Bitmap, len(q.Operands))
		for i, o := range q.Operands {
			operands[i] = e.eval(o)
		}
		return roaring.FastOr(operands...)
	case tenderbase.NotQuery:
		docs := e.bitmap(All).Clone()
		docs.AndNot(e.eval(q.Operand))
		return docs
	}
	return roaring.New()
}

// any returns the union of the bitmaps of terms.
func (e *evaluator) any(terms []string) *Bitmap {
	bms := make([]*Bitmap, 0, len(terms))
	for _, t := range terms {
		bms = append(bms, e.bitmap(t))
	}
	return roaring.FastOr(bms...)
}

// bitmap returns the bitmap of a term, empty when no record holds it.
func (e *evaluator) bitmap(term string) *Bitmap {
	if bm := e.bitmaps[term]; bm != nil {
		return bm
	}
	return roaring.New()
}

func flagTerms(group []string) []string {
	terms := make([]string, len(group))
	for i, f := range group {
		terms[i] = flag + f
	}
	return terms
}
