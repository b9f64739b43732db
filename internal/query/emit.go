package query

import (
	"github.com/tenderbase/tenderbase"
)

// Dialect writes the pieces of one store's match expression. Emit walks the
// query tree and keeps the rules every store shares; a dialect only spells
// them.
type Dialect interface {
	// Term writes one word.
	Term(t tenderbase.TermQuery) (string, error)
	// Phrase writes a phrase of two words or more. When positive is false
	// the phrase stands under a NOT: a dialect that cannot write it exactly
	// must then write a subset of its matches, "" meaning "matches nothing".
	Phrase(p tenderbase.PhraseQuery, positive bool) (string, error)
	// And joins the expressions of an AND: at least one positive operand,
	// and the exclusions.
	And(positive, excluded []string) string
	// Or joins the expressions of an OR, at least one.
	Or(parts []string) string
}

// ErrLoneExclusion is the error of an exclusion with nothing to exclude it
// from: neither store can find "everything but".
var ErrLoneExclusion = tenderbase.Errorf(tenderbase.EINVALID, "an exclusion needs a word to find beside it (as in \"поставка !ремонт\")")

// Emit writes q in dialect d. An expression "" matches nothing: an AND with
// such an operand matches nothing, an OR or an exclusion leaves it out. A
// store writes ForKind(kind, q), so that a Latin word finds records of a
// kind that says its language in any language.
func Emit(q tenderbase.Query, d Dialect) (string, error) {
	return emit(q, d, true)
}

func emit(q tenderbase.Query, d Dialect, positive bool) (string, error) {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		return d.Term(q)
	case tenderbase.PhraseQuery:
		switch len(q.Terms) {
		case 0:
			return "", tenderbase.Errorf(tenderbase.EINVALID, "empty phrase in query")
		case 1:
			return d.Term(q.Terms[0])
		}
		return d.Phrase(q, positive)
	case tenderbase.AndQuery:
		return emitAnd(q, d, positive)
	case tenderbase.OrQuery:
		return emitOr(q, d, positive)
	case tenderbase.NotQuery:
		return "", ErrLoneExclusion
	}
	return "", tenderbase.Errorf(tenderbase.EINVALID, "unsupported query node %T", q)
}

// emitAnd writes an AND, which needs a positive operand beside its
// exclusions. An exclusion's operand is written with positive flipped.
func emitAnd(q tenderbase.AndQuery, d Dialect, positive bool) (string, error) {
	var pos, neg []string
	for _, o := range q.Operands {
		if n, ok := o.(tenderbase.NotQuery); ok {
			e, err := emit(n.Operand, d, !positive)
			if err != nil {
				return "", err
			}
			if e != "" {
				neg = append(neg, e)
			}
			continue
		}
		e, err := emit(o, d, positive)
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
		return "", ErrLoneExclusion
	}
	return d.And(pos, neg), nil
}

// emitOr writes an OR; operands that match nothing drop out.
func emitOr(q tenderbase.OrQuery, d Dialect, positive bool) (string, error) {
	if len(q.Operands) == 0 {
		return "", tenderbase.Errorf(tenderbase.EINVALID, "empty query")
	}
	var parts []string
	for _, o := range q.Operands {
		e, err := emit(o, d, positive)
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
	return d.Or(parts), nil
}
