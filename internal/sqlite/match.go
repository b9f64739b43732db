package sqlite

import (
	"strings"

	"github.com/tenderbase/tenderbase"
)

// matchExpr is a query as an FTS5 MATCH expression.
type matchExpr struct {
	expr string
	// approximate is set when expr admits more records than the query (a
	// phrase mixing exact and stemmed words), so hits must be checked in Go.
	approximate bool
}

// emitMatch turns q and the filter groups into one MATCH expression. Either
// may be empty; both empty gives an empty expression.
func emitMatch(q tenderbase.Query, groups [][]string) (matchExpr, error) {
	var m matchExpr
	var parts []string
	if q != nil {
		e := emitter{}
		expr, err := e.emit(q, true)
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

// emitter writes FTS5 expressions. Where the exact meaning cannot be written
// (a mixed phrase), it writes a superset of the query's matches, and notes
// that in approximate.
type emitter struct {
	approximate bool
}

// emit returns the expression of q. When positive is false, q stands under
// a NOT, and the expression must match a subset of q's matches instead, so
// that NOT of it is still a superset; "" then means "matches nothing", and
// the NOT is left out.
func (m *emitter) emit(q tenderbase.Query, positive bool) (string, error) {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		return term(q)
	case tenderbase.PhraseQuery:
		return m.phrase(q, positive)
	case tenderbase.AndQuery:
		return m.and(q, positive)
	case tenderbase.OrQuery:
		return m.or(q, positive)
	case tenderbase.NotQuery:
		return "", tenderbase.Errorf(tenderbase.EINVALID, "an exclusion needs a word to find beside it (as in \"поставка !ремонт\")")
	}
	return "", tenderbase.Errorf(tenderbase.EINVALID, "unsupported query node %T", q)
}

func term(t tenderbase.TermQuery) (string, error) {
	if t.Exact {
		if t.Form == "" {
			return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query")
		}
		return "e : " + quote(t.Form), nil
	}
	if t.Stem == "" {
		return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query")
	}
	return "s : " + quote(t.Stem), nil
}

// phrase writes a phrase of one column when its words are all stemmed or all
// exact. A mixed phrase becomes the phrase of its stems and its exact words
// anywhere: a superset, checked later in Go.
func (m *emitter) phrase(p tenderbase.PhraseQuery, positive bool) (string, error) {
	switch len(p.Terms) {
	case 0:
		return "", tenderbase.Errorf(tenderbase.EINVALID, "empty phrase in query")
	case 1:
		return term(p.Terms[0])
	}
	stems := make([]string, len(p.Terms))
	forms := make([]string, len(p.Terms))
	var exact []string
	for i, t := range p.Terms {
		if t.Stem == "" || t.Form == "" {
			return "", tenderbase.Errorf(tenderbase.EINVALID, "empty word in query phrase")
		}
		stems[i], forms[i] = t.Stem, t.Form
		if t.Exact {
			exact = append(exact, "e : "+quote(t.Form))
		}
	}
	switch len(exact) {
	case 0:
		return "s : " + quote(strings.Join(stems, " ")), nil
	case len(p.Terms):
		return "e : " + quote(strings.Join(forms, " ")), nil
	}
	m.approximate = true
	if !positive {
		return "", nil
	}
	return and(append([]string{"s : " + quote(strings.Join(stems, " "))}, exact...)), nil
}

// and writes its positive operands joined by AND, then each exclusion as
// a binary NOT. FTS5 has no unary NOT, hence the rule that an AND with an
// exclusion needs a positive operand.
func (m *emitter) and(q tenderbase.AndQuery, positive bool) (string, error) {
	var pos, neg []string
	for _, o := range q.Operands {
		if n, ok := o.(tenderbase.NotQuery); ok {
			e, err := m.emit(n.Operand, !positive)
			if err != nil {
				return "", err
			}
			if e != "" {
				neg = append(neg, e)
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
		pos = append(pos, e)
	}
	if len(pos) == 0 {
		if len(q.Operands) == 0 {
			return "", tenderbase.Errorf(tenderbase.EINVALID, "empty query")
		}
		return "", tenderbase.Errorf(tenderbase.EINVALID, "an exclusion needs a word to find beside it (as in \"поставка !ремонт\")")
	}
	expr := and(pos)
	for _, n := range neg {
		expr = "(" + expr + ") NOT (" + n + ")"
	}
	return expr, nil
}

// or writes its operands joined by OR; under a NOT, operands that match
// nothing drop out.
func (m *emitter) or(q tenderbase.OrQuery, positive bool) (string, error) {
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
	if len(parts) == 1 {
		return parts[0], nil
	}
	return "(" + strings.Join(parts, ") OR (") + ")", nil
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
