package query

import (
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Match reports whether a record whose analyzed fields are fields (one token
// list per text a search may match, tenderbase.MatchedText) matches q. It is the reference meaning
// of a query: a term matches a token with the same stem, an exact term one
// with the same form, and a phrase matches consecutive tokens of one field.
// A nil query matches everything.
func Match(q tenderbase.Query, fields [][]textproc.Token) bool {
	switch q := q.(type) {
	case nil:
		return true
	case tenderbase.AndQuery:
		for _, o := range q.Operands {
			if !Match(o, fields) {
				return false
			}
		}
		return true
	case tenderbase.OrQuery:
		for _, o := range q.Operands {
			if Match(o, fields) {
				return true
			}
		}
		return false
	case tenderbase.NotQuery:
		return !Match(q.Operand, fields)
	case tenderbase.TermQuery:
		return matchPhrase([]tenderbase.TermQuery{q}, fields)
	case tenderbase.PhraseQuery:
		return matchPhrase(q.Terms, fields)
	}
	return false
}

// MatchRecord reports whether record r matches q as a search sees r: with
// openOnly (tenderbase.Search.OpenTextOnly) only the texts of the fields
// every plan sees, else those of its tariff fields too
// (tenderbase.MatchedText). It is the reference meaning of a query over a
// record, which every store must give.
func MatchRecord(q tenderbase.Query, r tenderbase.Record, openOnly bool) bool {
	return Match(q, Fields(tenderbase.MatchedText(r, openOnly)))
}

// Fields analyzes the search texts of a record for Match.
func Fields(texts []string) [][]textproc.Token {
	fields := make([][]textproc.Token, len(texts))
	for i, t := range texts {
		fields[i] = textproc.Analyze(t)
	}
	return fields
}

func matchPhrase(terms []tenderbase.TermQuery, fields [][]textproc.Token) bool {
	if len(terms) == 0 {
		return false
	}
	for _, f := range fields {
		for start := 0; start+len(terms) <= len(f); start++ {
			if matchAt(terms, f[start:]) {
				return true
			}
		}
	}
	return false
}

func matchAt(terms []tenderbase.TermQuery, tokens []textproc.Token) bool {
	for i, t := range terms {
		if !matchTerm(t, tokens[i]) {
			return false
		}
	}
	return true
}

func matchTerm(t tenderbase.TermQuery, tok textproc.Token) bool {
	if t.Exact {
		return tok.Form == t.Form
	}
	return tok.Stem == t.Stem
}
