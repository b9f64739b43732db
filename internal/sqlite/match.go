package sqlite

import (
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// matchExpr is a query as an FTS5 MATCH expression.
type matchExpr struct {
	expr string
	// approximate is set when expr admits more records than the query (a
	// phrase mixing exact and stemmed words), so hits must be checked in Go.
	approximate bool
}

// emitMatch turns q and the filter groups into one MATCH expression. Either
// may be empty; both empty gives an empty expression. With openOnly the
// query matches only the columns of the text every plan sees.
func emitMatch(q tenderbase.Query, groups [][]string, openOnly bool) (matchExpr, error) {
	var m matchExpr
	var parts []string
	if q != nil {
		e := &emitter{stems: "{s ts}", forms: "{e te}"}
		if openOnly {
			e.stems, e.forms = "s", "e"
		}
		expr, err := query.Emit(q, e)
		if err != nil {
			return m, err
		}
		parts = append(parts, expr)
		m.approximate = e.approximate
	}
	for _, g := range groups {
		parts = append(parts, flagGroup(g))
	}
	m.expr = and(parts)
	return m, nil
}

// flagGroup matches a record that carries any of the flags.
func flagGroup(flags []string) string {
	terms := make([]string, len(flags))
	for i, f := range flags {
		terms[i] = "f : " + quote(f)
	}
	if len(terms) == 1 {
		return terms[0]
	}
	return "(" + strings.Join(terms, " OR ") + ")"
}

// emitter is the FTS5 dialect of the query language. Where the exact
// meaning cannot be written (a mixed phrase), it writes a superset of the
// query's matches, and notes that in approximate.
type emitter struct {
	// stems and forms are the column filters of stemmed and of exact words:
	// one column, or the set of the open and the tariff column, within which
	// a phrase still matches in one column only.
	stems, forms string
	approximate  bool
}

// maxPhraseVariants bounds the phrases a phrase of homographs is written
// as (one per choice of its words' keys); past it the phrase is the AND of
// its words, checked in Go.
const maxPhraseVariants = 16

// Term writes a word as a term of the stem column, by each key a record's
// word may have that it matches (textproc.MatchingKeys), or of the exact
// column for an exact word.
func (m *emitter) Term(t tenderbase.TermQuery) (string, error) {
	if t.Exact {
		if t.Form == "" {
			return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query")
		}
		return m.forms + " : " + quote(t.Form), nil
	}
	if t.Stem == "" {
		return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query")
	}
	return m.anyStem(textproc.MatchingKeys(t.Stem)), nil
}

// anyStem matches any of keys in the stem column.
func (m *emitter) anyStem(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = m.stems + " : " + quote(k)
	}
	return m.Or(parts)
}

// Phrase writes a phrase of one column when its words are all stemmed or
// all exact. A mixed phrase becomes the phrase of its stems and its exact
// words anywhere: a superset, checked later in Go. A phrase with a word of
// several keys is the OR of a phrase per choice of keys, or past
// maxPhraseVariants the AND of its words: a superset too.
func (m *emitter) Phrase(p tenderbase.PhraseQuery, positive bool) (string, error) {
	keys := make([][]string, len(p.Terms))
	forms := make([]string, len(p.Terms))
	var exact []string
	for i, t := range p.Terms {
		if t.Stem == "" || t.Form == "" {
			return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query phrase")
		}
		keys[i], forms[i] = textproc.MatchingKeys(t.Stem), t.Form
		if t.Exact {
			exact = append(exact, m.forms+" : "+quote(t.Form))
		}
	}
	if len(exact) == len(p.Terms) {
		return m.forms + " : " + quote(strings.Join(forms, " ")), nil
	}
	stems, ok := m.stemPhrase(keys)
	if len(exact) == 0 && ok {
		return stems, nil
	}
	m.approximate = true
	if !positive {
		return "", nil
	}
	return and(append([]string{stems}, exact...)), nil
}

// stemPhrase writes the phrase of the words' keys in the stem column: the
// OR of a phrase per choice of keys, or when there are more than
// maxPhraseVariants choices the AND of the words, and ok false.
func (m *emitter) stemPhrase(keys [][]string) (expr string, ok bool) {
	variants := [][]string{nil}
	for _, ks := range keys {
		if len(variants)*len(ks) > maxPhraseVariants {
			words := make([]string, len(keys))
			for i, ks := range keys {
				words[i] = m.anyStem(ks)
			}
			return and(words), false
		}
		var next [][]string
		for _, v := range variants {
			for _, k := range ks {
				next = append(next, append(v[:len(v):len(v)], k))
			}
		}
		variants = next
	}
	phrases := make([]string, len(variants))
	for i, v := range variants {
		phrases[i] = m.stems + " : " + quote(strings.Join(v, " "))
	}
	return m.Or(phrases), true
}

// And writes the positive operands joined by AND, then each exclusion as a
// binary NOT: FTS5 has no unary NOT.
func (m *emitter) And(positive, excluded []string) string {
	expr := and(positive)
	for _, n := range excluded {
		expr = "(" + expr + ") NOT (" + n + ")"
	}
	return expr
}

// Or joins the operands with OR.
func (m *emitter) Or(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ") OR (") + ")"
}

// and joins expressions with AND, each in parentheses.
func and(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return "(" + strings.Join(parts, ") AND (") + ")"
}

// quote makes s one FTS5 string, so that no word of a query (AND, NEAR,
// covid-19, a quote) is read as syntax.
func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
