package postgres

import (
	"strings"

	"github.com/tenderbase/tenderbase"
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

// emitTSQuery writes q as tsquery literals.
func emitTSQuery(q tenderbase.Query) (tsQuery, error) {
	var t tsQuery
	var err error
	if t.exact, err = (emitter{}).emit(q, true); err != nil {
		return t, err
	}
	if hasPhrase(q) {
		t.loose, err = (emitter{loose: true}).emit(q, true)
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

// errLoneExclusion is the error of an exclusion with nothing to exclude from.
var errLoneExclusion = tenderbase.Errorf(tenderbase.EINVALID, "an exclusion needs a word to find beside it (as in \"поставка !ремонт\")")

// emitter writes tsquery expressions. A loose emitter writes each phrase as
// the AND of its words, a superset of its matches.
type emitter struct {
	loose bool
}

// emit returns the expression of q. When positive is false, q stands under
// a NOT, and a loose expression must match a subset of q's matches instead,
// so that the NOT of it is still a superset; "" then means "matches
// nothing", and the NOT is left out.
func (m emitter) emit(q tenderbase.Query, positive bool) (string, error) {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		return lexeme(q)
	case tenderbase.PhraseQuery:
		return m.phrase(q, positive)
	case tenderbase.AndQuery:
		return m.and(q, positive)
	case tenderbase.OrQuery:
		return m.or(q, positive)
	case tenderbase.NotQuery:
		return "", errLoneExclusion
	}
	return "", tenderbase.Errorf(tenderbase.EINVALID, "unsupported query node %T", q)
}

// lexeme writes a term as the lexeme the tsvector holds for it: its stem,
// or '=' and its form for an exact term.
func lexeme(t tenderbase.TermQuery) (string, error) {
	switch {
	case t.Exact && t.Form != "":
		return quoteLexeme(exactPrefix + t.Form), nil
	case !t.Exact && t.Stem != "":
		return quoteLexeme(t.Stem), nil
	}
	return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query")
}

// phrase writes the lexemes of a phrase at consecutive positions. Exact and
// stemmed words mix freely, since both lexemes of a word share its position.
func (m emitter) phrase(p tenderbase.PhraseQuery, positive bool) (string, error) {
	if len(p.Terms) == 0 {
		return "", tenderbase.Errorf(tenderbase.EINVALID, "empty phrase in query")
	}
	if len(p.Terms) == 1 {
		return lexeme(p.Terms[0])
	}
	if m.loose && !positive {
		return "", nil
	}
	parts := make([]string, len(p.Terms))
	for i, t := range p.Terms {
		var err error
		if parts[i], err = lexeme(t); err != nil {
			return "", err
		}
	}
	if m.loose {
		return "(" + strings.Join(parts, " & ") + ")", nil
	}
	return "(" + strings.Join(parts, " <-> ") + ")", nil
}

// and writes its positive operands and its exclusions joined by &. An AND
// needs a positive operand, as in the SQLite store, whose FTS5 has no unary
// NOT.
func (m emitter) and(q tenderbase.AndQuery, positive bool) (string, error) {
	var parts []string
	hasPositive := false
	for _, o := range q.Operands {
		if n, ok := o.(tenderbase.NotQuery); ok {
			e, err := m.emit(n.Operand, !positive)
			if err != nil {
				return "", err
			}
			if e != "" {
				parts = append(parts, "!"+e)
			}
			continue
		}
		e, err := m.emit(o, positive)
		if err != nil {
			return "", err
		}
		if e == "" {
			return "", nil // an operand that matches nothing, so the AND does not either
		}
		hasPositive = true
		parts = append(parts, e)
	}
	if !hasPositive {
		if len(q.Operands) == 0 {
			return "", tenderbase.Errorf(tenderbase.EINVALID, "empty query")
		}
		return "", errLoneExclusion
	}
	return "(" + strings.Join(parts, " & ") + ")", nil
}

// or writes its operands joined by |; under a NOT, operands that match
// nothing drop out.
func (m emitter) or(q tenderbase.OrQuery, positive bool) (string, error) {
	if len(q.Operands) == 0 {
		return "", tenderbase.Errorf(tenderbase.EINVALID, "empty query")
	}
	var parts []string
	for _, o := range q.Operands {
		e, err := m.emit(o, positive)
		if err != nil {
			return "", err
		}
		if e != "" {
			parts = append(parts, e)
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	return "(" + strings.Join(parts, " | ") + ")", nil
}
