package query

import (
	"slices"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// A query does not know the language of the records it finds, while a
// record's Latin words are keyed in its own language (textproc.Language).
// So a word of Latin letters is looked up by its key in every language,
// and a phrase by the keys of its words in one language at a time: the
// words of one record are all keyed in its language, and a phrase of n
// words stays one phrase per language rather than every mix of keys.
// Exact words (their forms) and words of other scripts have one key in
// every language; a query without Latin words is left as it is.

// RecordLanguage returns the analysis of r's texts: that of its language
// (tenderbase.TextLanguage), the Default one when r says none.
func RecordLanguage(r tenderbase.Record) textproc.Language {
	return textproc.LanguageOf(tenderbase.TextLanguage(r))
}

// ForKind returns q as a store writes it for a search of records of kind
// k: with each Latin word in every language (inLanguages) when k's records
// say their language (tenderbase.Languaged), else as it is, since a record
// without a language has every word keyed in the Default language. So a
// search of Russian records costs what it did.
func ForKind(k tenderbase.Kind, q tenderbase.Query) tenderbase.Query {
	if r, err := tenderbase.NewRecord(k); err == nil {
		if _, ok := r.(tenderbase.Languaged); ok {
			return inLanguages(q)
		}
	}
	return q
}

// inLanguages returns q with every term and phrase that has a Latin word
// replaced by the OR of the phrase as each language keys it.
func inLanguages(q tenderbase.Query) tenderbase.Query {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		return alternatives([]tenderbase.TermQuery{q}, q)
	case tenderbase.PhraseQuery:
		return alternatives(q.Terms, q)
	case tenderbase.AndQuery:
		return tenderbase.AndQuery{Operands: allInLanguages(q.Operands)}
	case tenderbase.OrQuery:
		return tenderbase.OrQuery{Operands: allInLanguages(q.Operands)}
	case tenderbase.NotQuery:
		return tenderbase.NotQuery{Operand: inLanguages(q.Operand)}
	}
	return q
}

func allInLanguages(qs []tenderbase.Query) []tenderbase.Query {
	out := make([]tenderbase.Query, len(qs))
	for i, q := range qs {
		out[i] = inLanguages(q)
	}
	return out
}

// alternatives returns the OR of the terms as a phrase keyed in each
// language, the Default one first (the terms as given), or q itself when
// no word's key differs by language or every word is exact. An exact word
// is keyed too: a store may find a phrase's candidates by the keys of all
// its words.
func alternatives(terms []tenderbase.TermQuery, q tenderbase.Query) tenderbase.Query {
	if !slices.ContainsFunc(terms, func(t tenderbase.TermQuery) bool { return !t.Exact }) {
		return q
	}
	keys := make([][]string, len(terms))
	n := 1
	for i, t := range terms {
		keys[i] = textproc.Keys(t.Form)
		n = max(n, len(keys[i]))
	}
	if n == 1 {
		return q
	}
	or := tenderbase.OrQuery{Operands: []tenderbase.Query{tenderbase.PhraseQuery{Terms: terms}}}
	for l := 1; l < n; l++ {
		v := slices.Clone(terms)
		for i := range v {
			if len(keys[i]) == n {
				v[i].Stem = keys[i][l]
			}
		}
		or.Operands = append(or.Operands, tenderbase.PhraseQuery{Terms: v})
	}
	return or
}

// IndexedFields returns what a store indexes of r: its open and its tariff
// texts (tenderbase.OpenText, TariffText) analyzed apart in r's language,
// cut as textproc.Stemmer.FieldsApart cuts them.
func IndexedFields(st textproc.Stemmer, r tenderbase.Record) (open, tariff [][]textproc.Token) {
	return st.FieldsApart(RecordLanguage(r), tenderbase.OpenText(r), tenderbase.TariffText(r))
}

// MatchedFields returns the analyzed texts of r that a search checks in Go
// (tenderbase.MatchedText), in r's language, as a store indexed them.
func MatchedFields(st textproc.Stemmer, r tenderbase.Record, openOnly bool) [][]textproc.Token {
	return st.Fields(RecordLanguage(r), tenderbase.MatchedText(r, openOnly))
}
