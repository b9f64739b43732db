package postgres

import (
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// tsQuery is a query as tsquery literals, written in Go and passed as
// $n::tsquery: to_tsquery would analyze the words again, with PostgreSQL's
// rules instead of textproc's.
type tsQuery struct {
	// exact matches the records the query matches, in a tsvector that kept
	// every position.
	exact string
	// loose, set when the query has a phrase, matches at least those records
	// without reading positions: a phrase becomes the AND of its words. It
	// finds the candidates in tsvectors that lost positions (document.lossy),
	// which are then checked in Go.
	loose string
}

// emitTSQuery writes q as tsquery literals. With openOnly its lexemes
// match only the positions of the text every plan sees.
func emitTSQuery(q tenderbase.Query, openOnly bool) (tsQuery, error) {
	var t tsQuery
	var err error
	if t.exact, err = query.Emit(q, emitter{openOnly: openOnly}); err != nil {
		return t, err
	}
	if hasPhrase(q) {
		t.loose, err = query.Emit(q, emitter{loose: true, openOnly: openOnly})
	}
	return t, err
}

// hasPhrase reports whether q has a phrase of two words or more.
func hasPhrase(q tenderbase.Query) bool {
	switch q := q.(type) {
	case tenderbase.PhraseQuery:
		return len(q.Terms) > 1
	case tenderbase.NotQuery:
		return hasPhrase(q.Operand)
	case tenderbase.AndQuery:
		for _, o := range q.Operands {
			if hasPhrase(o) {
				return true
			}
		}
	case tenderbase.OrQuery:
		for _, o := range q.Operands {
			if hasPhrase(o) {
				return true
			}
		}
	}
	return false
}

// emitter is the tsquery dialect of the query language. A loose emitter
// writes each phrase as the AND of its words, a superset of its matches.
// An openOnly one restricts every lexeme to the weight D, that of the
// positions of the text every plan sees.
type emitter struct {
	loose, openOnly bool
}

// Term writes a word as its lexeme.
func (m emitter) Term(t tenderbase.TermQuery) (string, error) { return m.lexeme(t) }

// lexeme writes a term as the lexemes the tsvector holds for it: '=' and
// its form for an exact term, else each key of its lemmas
// (textproc.LemmaKeys), any of which matches.
func (m emitter) lexeme(t tenderbase.TermQuery) (string, error) {
	var ls []string
	switch {
	case t.Exact && t.Form != "":
		ls = []string{exactPrefix + t.Form}
	case !t.Exact && t.Stem != "":
		ls = textproc.LemmaKeys(t.Stem)
	default:
		return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query")
	}
	for i, l := range ls {
		ls[i] = quoteLexeme(l)
		if m.openOnly {
			ls[i] += ":D"
		}
	}
	if len(ls) == 1 {
		return ls[0], nil
	}
	return "(" + strings.Join(ls, " | ") + ")", nil
}

// Phrase writes the lexemes of a phrase at consecutive positions. Exact and
// stemmed words mix freely, since both lexemes of a word share its
// position. A loose phrase under a NOT matches nothing, so that the NOT of
// it stays a superset.
func (m emitter) Phrase(p tenderbase.PhraseQuery, positive bool) (string, error) {
	if m.loose && !positive {
		return "", nil
	}
	parts := make([]string, len(p.Terms))
	for i, t := range p.Terms {
		var err error
		if parts[i], err = m.lexeme(t); err != nil {
			return "", err
		}
	}
	if m.loose {
		return "(" + strings.Join(parts, " & ") + ")", nil
	}
	return "(" + strings.Join(parts, " <-> ") + ")", nil
}

// And joins the positive operands and the exclusions with &.
func (m emitter) And(positive, excluded []string) string {
	parts := slices.Clone(positive)
	for _, n := range excluded {
		parts = append(parts, "!"+n)
	}
	return "(" + strings.Join(parts, " & ") + ")"
}

// Or joins the operands with |.
func (m emitter) Or(parts []string) string {
	return "(" + strings.Join(parts, " | ") + ")"
}
