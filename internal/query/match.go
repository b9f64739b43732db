package query

import (
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Match reports whether a record whose analyzed fields are fields (one token
// list per text a search may match, tenderbase.MatchedText) matches q. It is the reference meaning
// of a query: a term matches a token whose key shares a lemma with its own
// (textproc.SameLemma), an exact term one with the same form, and a phrase matches consecutive tokens of one field.
// A Latin word matches by its key in any language (inLanguages). A nil
// query matches everything.
func Match(q tenderbase.Query, fields [][]textproc.Token) bool {
	return match(inLanguages(q), fields)
}

// Matcher is a query made ready to be matched against many records of one
// kind: the keys of its Latin words in every language are worked out once.
type Matcher struct{ q tenderbase.Query }

// NewMatcher returns the Matcher of q for records of kind k, which matches
// them as Match does.
func NewMatcher(k tenderbase.Kind, q tenderbase.Query) Matcher { return Matcher{ForKind(k, q)} }

// Match reports whether a record whose analyzed fields are fields matches
// the query, as the package function Match says.
func (m Matcher) Match(fields [][]textproc.Token) bool { return match(m.q, fields) }

func match(q tenderbase.Query, fields [][]textproc.Token) bool {
	switch q := q.(type) {
	case nil:
		return true
	case tenderbase.AndQuery:
		for _, o := range q.Operands {
			if !match(o, fields) {
				return false
			}
		}
		return true
	case tenderbase.OrQuery:
		for _, o := range q.Operands {
			if match(o, fields) {
				return true
			}
		}
		return false
	case tenderbase.NotQuery:
		return !match(q.Operand, fields)
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
	return Match(q, FieldsIn(RecordLanguage(r), tenderbase.MatchedText(r, openOnly)))
}

// Fields analyzes the search texts of a record without a language for
// Match.
func Fields(texts []string) [][]textproc.Token { return FieldsIn(textproc.Default, texts) }

// FieldsIn analyzes the search texts of a record in language lang for
// Match.
func FieldsIn(lang textproc.Language, texts []string) [][]textproc.Token {
	fields := make([][]textproc.Token, len(texts))
	for i, t := range texts {
		fields[i] = lang.Analyze(t)
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
	return textproc.SameLemma(tok.Stem, t.Stem)
}
