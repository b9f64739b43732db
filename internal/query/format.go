package query

import (
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Format returns a canonical S-expression of a query tree, such as
// (and (term поставк) (not (phrase (exact поставки) (term товар)))).
// A term shows its key (a homograph's keys joined by "|"), an exact term
// its form. Format of nil is "".
func Format(q tenderbase.Query) string {
	var b strings.Builder
	format(&b, q)
	return b.String()
}

func format(b *strings.Builder, q tenderbase.Query) {
	switch q := q.(type) {
	case nil:
	case tenderbase.AndQuery:
		list(b, "and", q.Operands)
	case tenderbase.OrQuery:
		list(b, "or", q.Operands)
	case tenderbase.NotQuery:
		b.WriteString("(not ")
		format(b, q.Operand)
		b.WriteString(")")
	case tenderbase.TermQuery:
		if q.Exact {
			fmt.Fprintf(b, "(exact %s)", q.Form)
		} else {
			fmt.Fprintf(b, "(term %s)", strings.Join(textproc.LemmaKeys(q.Stem), "|"))
		}
	case tenderbase.PhraseQuery:
		b.WriteString("(phrase")
		for _, t := range q.Terms {
			b.WriteString(" ")
			format(b, t)
		}
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "(unknown %T)", q)
	}
}

func list(b *strings.Builder, op string, qs []tenderbase.Query) {
	b.WriteString("(" + op)
	for _, q := range qs {
		b.WriteString(" ")
		format(b, q)
	}
	b.WriteString(")")
}
