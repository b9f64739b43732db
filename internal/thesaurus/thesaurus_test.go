package thesaurus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// The shipped thesaurus loads, every group has a source, and every class
// it names is the classifier's with its name.
func TestLoad(t *testing.T) {
	th, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(th.Groups) < 20 {
		t.Errorf("%d groups; the shipped thesaurus has more", len(th.Groups))
	}
	for _, g := range th.Groups {
		if strings.TrimSpace(g.Source) == "" {
			t.Errorf("%v has no source", g.Words)
		}
		for _, c := range g.Classes {
			classes := th.Classes
			if c.Field == tenderbase.LookupOKDP {
				classes = th.OKDP
				// The source says which OKDP class, by the classifier's
				// code and name.
				if cited := c.Code + " «" + c.Name + "»"; !strings.Contains(g.Source, cited) {
					t.Errorf("%v: the source does not cite OKDP %s", g.Words, cited)
				}
			}
			if c.Name == "" || classes[c.Code] != c.Name {
				t.Errorf("%v: class %s is named %q, the classifier says %q", g.Words, c.Code, c.Name, classes[c.Code])
			}
		}
	}
	for code, name := range map[string]string{
		"21.20": "Препараты лекарственные и материалы, применяемые в медицинских целях",
		"19.20": "Нефтепродукты",
		"10":    "Продукты пищевые",
		"61":    "Услуги телекоммуникационные",
	} {
		if th.Classes[code] != name {
			t.Errorf("OKPD2 %s is %q, want %q", code, th.Classes[code], name)
		}
	}
	if n := len(th.Classes); n < 900 {
		t.Errorf("%d OKPD2 classes; the classifier has some 980 to four digits", n)
	}
	for code, name := range map[string]string{
		"2423000": "Фармацевтические препараты, медицинские химические вещества и лекарственные растительные продукты",
		"2320000": "Продукты нефтепереработки, газ нефтепереработки и пиролиза, продукты газоперерабатывающих заводов",
		"4540120": "Кровельные работы",
	} {
		if th.OKDP[code] != name {
			t.Errorf("OKDP %s is %q, want %q", code, th.OKDP[code], name)
		}
	}
	if n := len(th.OKDP); n < 640 {
		t.Errorf("%d OKDP classes; the classifier has 647 of four significant digits", n)
	}
}

// A class's lookup is its code in OKPD2 and its code without the padding
// zeros in OKDP, so that the lookup of 2423000 finds 2423350.
func TestClassLookup(t *testing.T) {
	th := Default()
	got := map[string]tenderbase.Lookup{}
	for _, g := range th.Groups {
		for _, c := range g.Classes {
			got[c.Code] = c.Lookup()
		}
	}
	for code, want := range map[string]tenderbase.Lookup{
		"21.20":   {Field: tenderbase.LookupOKPD2, Value: "21.20"},
		"2423000": {Field: tenderbase.LookupOKDP, Value: "2423"},
		"4540120": {Field: tenderbase.LookupOKDP, Value: "454012"},
		"2320221": {Field: tenderbase.LookupOKDP, Value: "2320221"},
	} {
		if got[code] != want {
			t.Errorf("class %s looks up %+v, want %+v", code, got[code], want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	okpd2 := "21.20\tПрепараты лекарственные\n"
	okdp := "2423000\tФармацевтические препараты\n2423010\tПрепараты химико - фармацевтические [2423110] - [2423383]\n"
	for _, c := range []struct{ name, terms, want string }{
		{"no source", "лекарства | медикаменты\t21.20\t \n", "no source"},
		{"two fields", "лекарства | медикаменты\t21.20\n", "want 3 fields"},
		{"unknown class", "лекарства | медикаменты\t21.21\tсм.\n", "okpd2.tsv lacks"},
		{"one word", "лекарства\t-\tсм.\n", "one word"},
		{"unknown OKDP class", "лекарства | медикаменты\t2423001\tсм.\n", "okdp.tsv lacks"},
		{"OKDP range", "лекарства | медикаменты\t2423010\tсм.\n", "range of codes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.terms, okpd2, okdp)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
}

func TestExpand(t *testing.T) {
	th := Default()
	for _, c := range []struct {
		in, want string // queries; want is how the expansion reads
		words    []string
		classes  []string
		rest     string
	}{
		{in: "ГСМ", want: "ГСМ | горюче-смазочные материалы | нефтепродукты | топливо",
			words: []string{"ГСМ"}, classes: []string{"19.20", "2320000"}},
		{in: "медикаментов", want: "медикаментов | лекарства | (лекарственные препараты) | (лекарственные средства)",
			words: []string{"медикаменты"}, classes: []string{"21.20", "2423000"}},
		// A run of words names a group; the rest of the query goes with
		// its class.
		{in: "поставка лекарственных препаратов", want: "поставка ((лекарственных препаратов) | лекарства | медикаменты | (лекарственные средства))",
			words: []string{"лекарственные препараты"}, classes: []string{"21.20", "2423000"}, rest: "поставка"},
		{in: "продукты питания", want: "(продукты питания) | (пищевые продукты) | продовольствие",
			words: []string{"продукты питания"}, classes: []string{"10", "1500000"}},
		// Below the top of the query, no class: it could not be searched
		// beside the words.
		{in: "кофе | канцтовары", want: "кофе | (канцтовары | (канцелярские товары) | (канцелярские принадлежности) | (шариковые ручки) | карандаши | штемпели | (штемпельные подушки))",
			words: []string{"канцтовары"}},
		{in: "ТЗ", want: "ТЗ | (техническое задание) | (тех задание) | (описание объекта закупки)", words: []string{"ТЗ"}},
		// A word with a hyphen, which the query language reads as a
		// phrase of its parts, names a group as a plain word does.
		{in: "пропан-бутан", want: "пропан-бутан | (сжиженный углеводородный газ) | СУГ | (газы углеводородные сжиженные)",
			words: []string{"пропан-бутан"}, classes: []string{"19.20.31"}},
		{in: "строительно-монтажные работы", want: "(строительно-монтажные работы) | СМР",
			words: []string{"строительно-монтажные работы"}},
		// An exclusion excludes the word only, and the exact form, a
		// phrase and an unknown word stay as written.
		{in: "поставка !ГСМ", want: "поставка !ГСМ"},
		{in: "=ГСМ", want: "=ГСМ"},
		{in: `"продукты питания"`, want: `"продукты питания"`},
		{in: "бензин", want: "бензин"},
		// A narrower word is found by its broader one, and finds no more.
		{in: "трубопровод", want: "трубопровод | водовод | газопровод | нефтепровод | продуктопровод", words: []string{"трубопровод"}},
		{in: "водовод", want: "водовод"},
		{in: "ремонт !кровля", want: "ремонт !кровля"},
	} {
		t.Run(c.in, func(t *testing.T) {
			q, err := query.Parse(c.in, query.MCP)
			if err != nil {
				t.Fatal(err)
			}
			want, err := query.Parse(c.want, query.MCP)
			if err != nil {
				t.Fatal(err)
			}
			got, exps := th.Expand(q)
			if diff := cmp.Diff(query.Format(want), query.Format(got)); diff != "" {
				t.Errorf("expanded (-want +got):\n%s", diff)
			}
			var words, classes []string
			rest := ""
			for _, e := range exps {
				words = append(words, e.Words)
				for _, cl := range e.Classes {
					classes = append(classes, cl.Code)
				}
				if e.Rest != nil {
					r, _ := query.Parse(c.rest, query.MCP)
					if query.Format(e.Rest) == query.Format(r) {
						rest = c.rest
					} else {
						rest = query.Format(e.Rest)
					}
				}
			}
			if diff := cmp.Diff(c.words, words); diff != "" {
				t.Errorf("words (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.classes, classes); diff != "" {
				t.Errorf("classes (-want +got):\n%s", diff)
			}
			if rest != c.rest {
				t.Errorf("rest = %q, want %q", rest, c.rest)
			}
		})
	}
}
