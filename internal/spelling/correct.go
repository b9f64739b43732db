package spelling

import (
	"cmp"
	"context"
	"slices"
	"unicode"

	"golang.org/x/sync/errgroup"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Correction is a query word that no record holds and the word searched
// for in its place.
type Correction struct {
	Word    string `json:"word" jsonschema:"The word of the query that no record holds."`
	Instead string `json:"instead" jsonschema:"The known word searched for in its place, in any form."`
	// Layout is set when Instead is Word typed on the other keyboard
	// layout, rather than a word a letter or two away.
	Layout bool `json:"layout,omitempty" jsonschema:"Set when instead is the word typed on the other keyboard layout (gjcnfdrf: поставка)."`
}

// Counter returns how many records hold the word of q alone (a
// TermQuery), whatever else a search asks, and the generation of the store
// it counted in.
type Counter func(ctx context.Context, q tenderbase.TermQuery) (n int, gen int64, err error)

// maxCounted bounds the near words counted for one query word: a word of
// nine letters or more may have dozens within two edits, most of them
// forms of a few lemmas, which count once.
const maxCounted = 20

// Corrector finds the words a query meant.
type Corrector struct {
	Count Counter
	Vocab *Vocabulary
	Kind  tenderbase.Kind
	// Known are words beyond the store's that a word may be corrected
	// to, such as the thesaurus', whose search finds records although no
	// record may hold the word itself (лекарства); nil for none. They are
	// counted by Count as the store's words are.
	Known *Index
}

// Correct returns q with each of its words that no record holds replaced
// by the nearest word that records hold: the word on the other keyboard
// layout when that is known, else the known word fewest edits away that
// most records hold. A word of the exact form (=word), an excluded word,
// a number or a word with digits, and a word no known word is near stay
// as they are. Words of a phrase are
// corrected in their places. It returns q itself and no correction when
// every word is known or none has a known neighbour.
func (c Corrector) Correct(ctx context.Context, q tenderbase.Query) (tenderbase.Query, []Correction, error) {
	instead := map[string]tenderbase.TermQuery{}
	var words []tenderbase.TermQuery
	for _, t := range positiveWords(q) {
		if _, seen := instead[t.Form]; !seen && letters(t.Form) {
			instead[t.Form] = t
			words = append(words, t)
		}
	}
	counts, err := c.countAll(ctx, words)
	if err != nil {
		return nil, nil, err
	}
	var out []Correction
	for i, t := range words {
		if counts[i].n > 0 {
			continue
		}
		fix, ok, err := c.nearest(ctx, t, counts[i].gen)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			instead[t.Form] = fix.term
			out = append(out, Correction{Word: t.Form, Instead: fix.term.Form, Layout: fix.layout})
		}
	}
	if len(out) == 0 {
		return q, nil, nil
	}
	return replace(q, instead), out, nil
}

// counted is a word's count, and the generation it was counted in.
type counted struct {
	n   int
	gen int64
}

// countAll counts every word of words at once: each count is a search of
// its own, which the store serves side by side, and every word is counted
// before any is corrected.
func (c Corrector) countAll(ctx context.Context, words []tenderbase.TermQuery) ([]counted, error) {
	out := make([]counted, len(words))
	g, ctx := errgroup.WithContext(ctx)
	for i, t := range words {
		g.Go(func() (err error) {
			out[i].n, out[i].gen, err = c.Count(ctx, t)
			return err
		})
	}
	return out, g.Wait()
}

// candidate is a known word a query word may be meant as.
type candidate struct {
	term     tenderbase.TermQuery
	distance int
	records  int
	layout   bool
}

// nearest returns the word t is corrected to, if any.
func (c Corrector) nearest(ctx context.Context, t tenderbase.TermQuery, gen int64) (candidate, bool, error) {
	if other, ok := OtherLayout(t.Form); ok {
		if tq, ok := asTerm(other); ok {
			n, _, err := c.Count(ctx, tq)
			if err != nil || n > 0 {
				return candidate{term: tq, records: n, layout: true}, err == nil, err
			}
		}
	}
	idx, err := c.Vocab.Index(ctx, c.Kind, gen)
	if err != nil {
		return candidate{}, false, err
	}
	near, err := idx.Near(t.Form)
	if err != nil {
		return candidate{}, false, err
	}
	if c.Known != nil {
		known, err := c.Known.Near(t.Form)
		if err != nil {
			return candidate{}, false, err
		}
		near = append(near, known...)
		sortNear(near)
	}
	var best candidate
	counted := map[string]bool{} // by key: the forms of one lemma count once
	for _, w := range near {
		if best.records > 0 && w.Distance > best.distance || len(counted) == maxCounted {
			break
		}
		tq, ok := asTerm(w.Word)
		if !ok || !letters(tq.Form) || counted[tq.Stem] || tq.Stem == t.Stem {
			continue
		}
		counted[tq.Stem] = true
		n, _, err := c.Count(ctx, tq)
		if err != nil {
			return candidate{}, false, err
		}
		if n > best.records {
			best = candidate{term: tq, distance: w.Distance, records: n}
		}
	}
	return best, best.records > 0, nil
}

// letters reports whether word is of letters alone: a number or a code
// (a purchase number, an INN, окпд2) matches as a whole and is never
// corrected, nor offered, since a number a digit away is another record.
func letters(word string) bool {
	for _, r := range word {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return word != ""
}

// asTerm returns word as a query word, as the query language reads it.
func asTerm(word string) (tenderbase.TermQuery, bool) {
	q, err := query.Parse(word, query.MCP)
	t, ok := q.(tenderbase.TermQuery)
	return t, err == nil && ok && !t.Exact
}

// positiveWords returns the words of q a correction may replace: those
// not of the exact form and not excluded, alone or in a phrase, in order.
func positiveWords(q tenderbase.Query) []tenderbase.TermQuery {
	var out []tenderbase.TermQuery
	var walk func(tenderbase.Query)
	walk = func(q tenderbase.Query) {
		switch q := q.(type) {
		case tenderbase.TermQuery:
			if !q.Exact {
				out = append(out, q)
			}
		case tenderbase.PhraseQuery:
			for _, t := range q.Terms {
				walk(t)
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
	}
	walk(q)
	return out
}

// replace returns q with each word not of the exact form, outside an
// exclusion, replaced by instead[its form].
func replace(q tenderbase.Query, instead map[string]tenderbase.TermQuery) tenderbase.Query {
	word := func(t tenderbase.TermQuery) tenderbase.TermQuery {
		if r, ok := instead[t.Form]; ok && !t.Exact {
			return r
		}
		return t
	}
	switch q := q.(type) {
	case tenderbase.TermQuery:
		return word(q)
	case tenderbase.PhraseQuery:
		terms := make([]tenderbase.TermQuery, len(q.Terms))
		for i, t := range q.Terms {
			terms[i] = word(t)
		}
		return tenderbase.PhraseQuery{Terms: terms}
	case tenderbase.AndQuery:
		return tenderbase.AndQuery{Operands: replaceAll(q.Operands, instead)}
	case tenderbase.OrQuery:
		return tenderbase.OrQuery{Operands: replaceAll(q.Operands, instead)}
	}
	return q // an exclusion keeps its words
}

func replaceAll(qs []tenderbase.Query, instead map[string]tenderbase.TermQuery) []tenderbase.Query {
	out := make([]tenderbase.Query, len(qs))
	for i, o := range qs {
		out[i] = replace(o, instead)
	}
	return out
}

// sortNear orders near words nearest first, then in byte order.
func sortNear(ns []Near) {
	slices.SortFunc(ns, func(a, b Near) int {
		return cmp.Or(a.Distance-b.Distance, cmp.Compare(a.Word, b.Word))
	})
}
