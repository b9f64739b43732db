package sqlite

import (
	"context"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// stem and exact make the terms of the queries below.
func stem(form, stem string) tenderbase.TermQuery {
	return tenderbase.TermQuery{Form: form, Stem: stem}
}

func exact(form string) tenderbase.TermQuery {
	return tenderbase.TermQuery{Form: form, Stem: form, Exact: true}
}

// TestEmitMatch writes queries as a free caller's, which match the columns
// of the text every plan sees; TestEmitMatchTariff as a paid caller's.
func TestEmitMatch(t *testing.T) {
	tests := []struct {
		name   string
		q      tenderbase.Query
		groups [][]string
		want   string
		approx bool
	}{
		{"term", stem("поставки", "поставк"), nil, `s : "поставк"`, false},
		{"exact term", exact("поставки"), nil, `e : "поставки"`, false},
		{"keyword AND", stem("and", "and"), nil, `s : "and"`, false},
		{"upper keyword", exact("NOT"), nil, `e : "NOT"`, false},
		{"quote", exact(`a"b`), nil, `e : "a""b"`, false},
		{"hyphen", exact("covid-19"), nil, `e : "covid-19"`, false},
		{"syntax chars", exact("*^(:)"), nil, `e : "*^(:)"`, false},
		{"stem phrase", tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{stem("медико", "медик"), stem("санитарной", "санитарн")}}, nil,
			`s : "медик санитарн"`, false},
		{"exact phrase", tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{exact("44"), exact("фз")}}, nil,
			`e : "44 фз"`, false},
		{"mixed phrase", tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{{Form: "поставки", Stem: "поставк", Exact: true}, stem("бумаги", "бумаг")}}, nil,
			`(s : "поставк бумаг") AND (e : "поставки")`, true},
		{"and not", tenderbase.AndQuery{Operands: []tenderbase.Query{stem("а", "а"), tenderbase.NotQuery{Operand: stem("б", "б")}, stem("в", "в")}}, nil,
			`((s : "а") AND (s : "в")) NOT (s : "б")`, false},
		{"or", tenderbase.OrQuery{Operands: []tenderbase.Query{stem("а", "а"), exact("б")}}, nil,
			`(s : "а") OR (e : "б")`, false},
		{"mixed phrase under not drops out", tenderbase.AndQuery{Operands: []tenderbase.Query{stem("а", "а"),
			tenderbase.NotQuery{Operand: tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{exact("х"), stem("у", "у")}}}}}, nil,
			`s : "а"`, true},
		{"or under not keeps exact branches", tenderbase.AndQuery{Operands: []tenderbase.Query{stem("а", "а"),
			tenderbase.NotQuery{Operand: tenderbase.OrQuery{Operands: []tenderbase.Query{stem("б", "б"),
				tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{exact("х"), stem("у", "у")}}}}}}}, nil,
			`(s : "а") NOT (s : "б")`, true},
		// A word of a lemma a homograph has is also looked up by the
		// homograph's key; a homograph's own key by each of its lemmas'.
		{"lemma of a homograph", stem("сталь", "стал"), nil,
			"(s : \"стал\") OR (s : \"стал\ue002стат\")", false},
		{"homograph phrase", tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{stem("листовой", "листов"), stem("стали", "стал\ue002стат")}}, nil,
			"(s : \"листов стал\") OR (s : \"листов стат\") OR (s : \"листов стал\ue002стат\") OR (s : \"листов стан\ue002стат\")", false},
		{"filters only", nil, [][]string{{"r77", "r50"}, {"fz44"}}, `((f : "r77" OR f : "r50")) AND (f : "fz44")`, false},
		{"query and filter", stem("а", "а"), [][]string{{"cr643"}}, `(s : "а") AND (f : "cr643")`, false},
		{"nothing", nil, nil, ``, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := emitMatch(tt.q, tt.groups, true)
			if err != nil {
				t.Fatal(err)
			}
			if m.expr != tt.want || m.approximate != tt.approx {
				t.Errorf("got %s (approximate %v)\nwant %s (approximate %v)", m.expr, m.approximate, tt.want, tt.approx)
			}
		})
	}
}

func TestEmitMatchTariff(t *testing.T) {
	tests := []struct {
		name string
		q    tenderbase.Query
		want string
	}{
		{"term", stem("поставки", "поставк"), `{s ts} : "поставк"`},
		{"exact term", exact("поставки"), `{e te} : "поставки"`},
		{"phrase", tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{stem("медико", "медик"), stem("санитарной", "санитарн")}},
			`{s ts} : "медик санитарн"`},
		{"mixed phrase", tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{{Form: "поставки", Stem: "поставк", Exact: true}, stem("бумаги", "бумаг")}},
			`({s ts} : "поставк бумаг") AND ({e te} : "поставки")`},
		{"and not", tenderbase.AndQuery{Operands: []tenderbase.Query{stem("а", "а"), tenderbase.NotQuery{Operand: exact("б")}}},
			`({s ts} : "а") NOT ({e te} : "б")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := emitMatch(tt.q, [][]string{{"r77"}}, false)
			if err != nil {
				t.Fatal(err)
			}
			if want := "(" + tt.want + `) AND (f : "r77")`; m.expr != want {
				t.Errorf("got %s\nwant %s", m.expr, want)
			}
		})
	}
}

// TestEmitMatchLanguages writes queries of world tenders, which say their
// language: a Latin word is looked up by its key in every language, a
// phrase once per language; a search of tenders, which do not, writes the
// query as it is.
func TestEmitMatchLanguages(t *testing.T) {
	word := stem("and", "and")
	phrase := tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{stem("cleaning", "clean"), {Form: "services", Stem: "servic", Exact: true}}}
	tests := []struct {
		name string
		kind tenderbase.Kind
		q    tenderbase.Query
		want string
	}{
		{"word", tenderbase.KindWorldTender, word, latinKeys("s", "and")},
		{"phrase", tenderbase.KindWorldTender, phrase, latinPhrase("cleaning", "services")},
		{"russian word", tenderbase.KindWorldTender, stem("поставки", "поставк"), `s : "поставк"`},
		{"word of a tender", tenderbase.KindTender, word, `s : "and"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := emitMatch(query.ForKind(tt.kind, tt.q), nil, true)
			if err != nil {
				t.Fatal(err)
			}
			if m.expr != tt.want {
				t.Errorf("got %s\nwant %s", m.expr, tt.want)
			}
		})
	}
}

// latinKeys is the expression of a Latin word in the stems column col: the
// OR of its key in every language.
func latinKeys(col, form string) string {
	var parts []string
	for _, k := range textproc.Keys(form) {
		parts = append(parts, col+" : "+quote(k))
	}
	return "(" + strings.Join(parts, ") OR (") + ")"
}

// latinPhrase is the expression of a phrase of a stemmed Latin word and an
// exact one: in each language, the phrase of their keys and the exact form.
func latinPhrase(stemmed, exact string) string {
	var parts []string
	a, b := textproc.Keys(stemmed), textproc.Keys(exact)
	for i := range a {
		parts = append(parts, "(s : "+quote(a[i]+" "+b[i])+") AND (e : "+quote(exact)+")")
	}
	return "(" + strings.Join(parts, ") OR (") + ")"
}

func TestEmitMatchInvalid(t *testing.T) {
	a := tenderbase.TermQuery{Form: "a", Stem: "a"}
	tests := []struct {
		name string
		q    tenderbase.Query
	}{
		{"lone not", tenderbase.NotQuery{Operand: a}},
		{"not in or", tenderbase.OrQuery{Operands: []tenderbase.Query{a, tenderbase.NotQuery{Operand: a}}}},
		{"and of nots", tenderbase.AndQuery{Operands: []tenderbase.Query{tenderbase.NotQuery{Operand: a}}}},
		{"empty and", tenderbase.AndQuery{}},
		{"empty phrase", tenderbase.PhraseQuery{}},
		{"empty term", tenderbase.TermQuery{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := emitMatch(tt.q, nil, false)
			if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
				t.Errorf("got %v, want an EINVALID error", err)
			}
		})
	}
}

// TestEmitMatchRuns checks that tricky queries are valid MATCH syntax for
// FTS5 itself, not only the strings the emitter is meant to write.
func TestEmitMatchRuns(t *testing.T) {
	s := openTest(t)
	put(t, s, tender("1", 1, "Вакцина covid-19 и AND OR NOT NEAR", 1))
	for _, text := range []string{
		// AND bare is an operator of the MCP syntax; quoted it is the word.
		`covid-19`, `"AND"`, `"OR NOT"`, `NEAR`, `=and | =or`, `вакцина !near`, `"=вакцина covid"`,
	} {
		q, err := query.Parse(text, query.MCP)
		if err != nil {
			t.Fatalf("parse %q: %v", text, err)
		}
		page, err := s.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindTender, Query: q})
		if err != nil {
			t.Errorf("search %q: %v", text, err)
			continue
		}
		want := 1
		if text == `вакцина !near` {
			want = 0
		}
		if page.Total != want {
			t.Errorf("search %q: total %d, want %d", text, page.Total, want)
		}
	}
}
