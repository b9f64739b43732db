package families

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// The words of one root and meaning that procurement text uses across
// parts of speech meet, in any of their forms, from either side.
func TestPairsMeet(t *testing.T) {
	f := Default()
	for _, c := range []struct{ a, b string }{
		{"кровли", "кровельные"},
		{"кровля", "кровельных"},
		{"дорог", "дорожные"},
		{"компьютеры", "компьютерной"},
		{"лекарства", "лекарственные"},
		{"охраны", "охранных"},
		{"тепла", "тепловой"},
		{"онкологии", "онкологического"},
		{"проект", "проектные"},
		{"строительство", "строительных"},
		{"ковров", "ковровых"},
		{"ковёр", "ковровое"},
		{"трубопроводов", "трубопроводной"},
		{"опухоли", "противоопухолевые"},
		{"опухолевых", "противоопухолевый"},
		{"администрация", "административного"},
		{"закупки", "закупочной"},
	} {
		a, b := key(c.a), key(c.b)
		for _, p := range [][2]string{{a, b}, {b, a}} {
			if !meet(f, p[0], p[1]) {
				t.Errorf("%s (%s): family %v lacks %s", c.a, p[0], f.Family(p[0]), p[1])
			}
		}
	}
	// Words of other meanings that look alike stay apart: the rules of
	// the source derive them, the check of their stems drops them.
	for _, c := range []struct{ a, b string }{
		{"какой", "качество"},
		{"средний", "средство"},
		{"лицо", "личный"},
		{"общий", "общество"},
		{"и", "иной"},
		{"ремонт", "кровельный"},
	} {
		if a, b := key(c.a), key(c.b); meet(f, a, b) {
			t.Errorf("%s and %s are of one family", c.a, c.b)
		}
	}
}

func key(word string) string { return textproc.Stem(textproc.Fold(word)) }

// meet reports whether a query word of key a finds a record word of key
// b, as one lemma (a homograph: ковров is the city and of ковёр) or
// through a's family.
func meet(f *Families, a, b string) bool {
	return textproc.SameLemma(a, b) || slices.ContainsFunc(f.Family(a), func(k string) bool { return textproc.SameLemma(k, b) })
}

// A query word is ORed with its family's other words; an exact form, a
// phrase, an excluded word and a word the user did not write stay.
func TestExpand(t *testing.T) {
	f := Default()
	for _, c := range []struct {
		in, written, want string
		words             []string
	}{
		{in: "ремонт кровли", want: "(ремонт | ремонтный) (кровли | кровельный)", words: []string{"ремонт", "кровли"}},
		{in: "противоопухолевые препараты", want: "(противоопухолевые | опухолевый) (препараты | препаративный | препаратный)",
			words: []string{"противоопухолевые", "препараты"}},
		{in: "кровля | крыша", want: "кровля | кровельный | крыша", words: []string{"кровля"}},
		{in: "=кровли", want: "=кровли"},
		{in: `"ремонт кровли"`, want: `"ремонт кровли"`},
		{in: "услуги !кровли", want: "услуги !кровли"},
		{in: "услуги !(кровли | дорог)", want: "услуги !(кровли | дорог)"},
		// Only the words as written: a synonym the thesaurus gave stays.
		{in: "услуги | кровли", written: "услуги", want: "услуги | кровли"},
	} {
		t.Run(c.in, func(t *testing.T) {
			q, err := query.Parse(c.in, query.MCP)
			if err != nil {
				t.Fatal(err)
			}
			written := q
			if c.written != "" {
				if written, err = query.Parse(c.written, query.MCP); err != nil {
					t.Fatal(err)
				}
			}
			want, err := query.Parse(c.want, query.MCP)
			if err != nil {
				t.Fatal(err)
			}
			got, exps := f.Expand(q, written)
			if diff := cmp.Diff(query.Format(want), query.Format(got)); diff != "" {
				t.Errorf("expanded (-want +got):\n%s", diff)
			}
			var words []string
			for _, e := range exps {
				words = append(words, e.Words)
				if e.Source != Source || len(e.Also) == 0 {
					t.Errorf("expansion %+v lacks its source or words", e)
				}
			}
			if diff := cmp.Diff(c.words, words); diff != "" {
				t.Errorf("words (-want +got):\n%s", diff)
			}
		})
	}
}
