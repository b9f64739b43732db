package query

import (
	"testing"

	"github.com/tenderbase/tenderbase"
)

func FuzzParse(f *testing.F) {
	for _, c := range parseCases {
		_, text, _ := cutCase(c)
		f.Add(text, false)
		f.Add(text, true)
	}
	for _, c := range limitCases {
		f.Add(c.text, false)
	}
	for _, s := range []string{"((((((a))))))", "!!!!!!!a b", "\"=\"", "a|||b", "=\"a\"", "a&&&!b", "(!a)|(b)", "\xff\xfe", "а\u00a0б", "!(!(!(a b) c) d) e"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, kwords bool) {
		syntax := MCP
		if kwords {
			syntax = Kwords
		}
		q, err := Parse(text, syntax)
		if err != nil {
			if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
				t.Fatalf("Parse(%q): error %v is not EINVALID", text, err)
			}
			return
		}
		checkTree(t, q, true, false)
		if a, b := Format(q), Format(q); a != b || a == "" {
			t.Fatalf("Format is not deterministic or empty: %q, %q", a, b)
		}
		Match(q, Fields([]string{text, "поставка товаров"}))
		q2, err := Parse(text, syntax)
		if err != nil || Format(q2) != Format(q) {
			t.Fatalf("Parse(%q) is not deterministic: %v", text, err)
		}
	})
}

func cutCase(c string) (string, string, bool) {
	for i := 0; i+1 < len(c); i++ {
		if c[i] == ':' && c[i+1] == ' ' {
			return c[:i], c[i+2:], true
		}
	}
	return c, "", false
}

// checkTree fails unless q keeps the invariants Parse promises: no empty
// AND, OR or phrase, no single-operand AND or OR, no AND directly in an AND
// nor OR in an OR, and every NotQuery an operand of an AndQuery that has a
// positive operand.
func checkTree(t *testing.T, q tenderbase.Query, top, inAnd bool) {
	t.Helper()
	switch q := q.(type) {
	case tenderbase.AndQuery:
		if len(q.Operands) < 2 || inAnd {
			t.Fatalf("bad AND in %s", Format(q))
		}
		positive := false
		for _, o := range q.Operands {
			if _, ok := o.(tenderbase.NotQuery); !ok {
				positive = true
			}
			if n, ok := o.(tenderbase.NotQuery); ok {
				checkTree(t, n.Operand, false, false)
				continue
			}
			checkTree(t, o, false, true)
		}
		if !positive {
			t.Fatalf("AND of only exclusions: %s", Format(q))
		}
	case tenderbase.OrQuery:
		if len(q.Operands) < 2 {
			t.Fatalf("bad OR: %s", Format(q))
		}
		for _, o := range q.Operands {
			if _, ok := o.(tenderbase.OrQuery); ok {
				t.Fatalf("OR in OR: %s", Format(q))
			}
			checkTree(t, o, false, false)
		}
	case tenderbase.NotQuery:
		t.Fatalf("NotQuery outside an AND: %s", Format(q))
	case tenderbase.PhraseQuery:
		if len(q.Terms) < 2 {
			t.Fatalf("phrase of %d terms: %s", len(q.Terms), Format(q))
		}
		for _, term := range q.Terms {
			checkTerm(t, term)
		}
	case tenderbase.TermQuery:
		checkTerm(t, q)
	default:
		t.Fatalf("unexpected node %T", q)
	}
}

func checkTerm(t *testing.T, term tenderbase.TermQuery) {
	t.Helper()
	if term.Form == "" || term.Stem == "" {
		t.Fatalf("empty term %+v", term)
	}
}
