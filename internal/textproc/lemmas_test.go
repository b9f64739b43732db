package textproc

import (
	"regexp"
	"slices"
	"testing"
)

// TestLemmaKeys checks the forms that Snowball alone kept from the rest of
// their lemma: each now has its lemma's key.
func TestLemmaKeys(t *testing.T) {
	for _, family := range [][]string{
		{"охрана", "охраны", "охране", "охрану", "охраной"},
		{"участок", "участка", "участку", "участков"},
		{"заявка", "заявки", "заявок", "заявкам"},
		{"поставка", "поставки", "поставок"},
		{"закупка", "закупки", "закупок"},
		{"материал", "материалы", "материалов"},
		{"замена", "замену", "замены", "замене"},
		{"федеральный", "федеральной", "федеральных"},
		// Forms with a fleeting vowel that the dictionary lists as words
		// of their own.
		{"уголь", "угля", "углем", "углей"},
		{"окно", "окна", "окон"},
		{"масло", "масла", "масел"},
		{"кровля", "кровли", "кровель"},
		{"земля", "земли", "земель"},
		{"палец", "пальца", "пальцы"},
		// Words of one form the dictionary declines as they are keep the
		// key Snowball gives them with their lemma.
		{"тело", "тела", "тел"},
		{"потеря", "потери", "потерь"},
		// Genitive plurals of nouns the dictionary has in the singular
		// alone.
		{"топливо", "топлива", "топлив"},
		{"охрана", "охраны", "охран"},
		{"отмена", "отмены", "отмен"},
	} {
		want := Default.Key(family[0])
		for _, form := range family[1:] {
			if got := Default.Key(form); !SameLemma(got, want) {
				t.Errorf("Key(%q) = %q, does not meet Key(%q) = %q", form, got, family[0], want)
			}
		}
	}
	for _, apart := range [][2]string{
		{"охрана", "охра"}, {"изменена", "изменение"}, {"поставка", "поставщик"},
		// A verb whose forms' majority stem is another word's keeps its
		// own key.
		{"дать", "далее"}, {"дадут", "далее"}, {"денут", "делу"}, {"деть", "делом"}, {"ныть", "но"}, {"мыть", "моего"},
		// A word of one form is not taken for a form of a verb or another
		// word of its stem without the vowel.
		{"затем", "затмить"}, {"дел", "для"}, {"зорь", "зря"},
	} {
		if SameLemma(Default.Key(apart[0]), Default.Key(apart[1])) {
			t.Errorf("%q and %q meet, want them apart", apart[0], apart[1])
		}
	}
}

// TestHomographs checks that a form of two lemmas meets both, while the
// lemmas' other forms stay apart, and that a store holding one key per
// word looks either lemma up by the homograph's key too.
func TestHomographs(t *testing.T) {
	steel, become, either := Default.Key("сталь"), Default.Key("стать"), Default.Key("стали")
	if !SameLemma(either, steel) || !SameLemma(either, become) || SameLemma(steel, become) {
		t.Fatalf("keys сталь %q, стать %q, стали %q: want стали to meet both and them apart", steel, become, either)
	}
	if got := LemmaKeys(either); !slices.Equal(got, []string{steel, become}) && !slices.Equal(got, []string{become, steel}) {
		t.Errorf("LemmaKeys(%q) = %q, want %q and %q", either, got, steel, become)
	}
	for _, k := range []string{steel, become} {
		if !slices.Contains(MatchingKeys(k), either) {
			t.Errorf("MatchingKeys(%q) = %q, lacks the homograph's %q", k, MatchingKeys(k), either)
		}
	}
	if got := MatchingKeys("поставк"); !slices.Equal(got, []string{"поставк"}) {
		t.Errorf("MatchingKeys(поставк) = %q, want the key alone", got)
	}
}

// TestAnalysisVersion checks that the version names the revision and a
// digest of the table, which a store compares with its index's.
func TestAnalysisVersion(t *testing.T) {
	if v := AnalysisVersion(); !regexp.MustCompile(`^\d+-[0-9a-f]{12}$`).MatchString(v) {
		t.Errorf("AnalysisVersion() = %q, want revision-digest", v)
	}
}

// TestReadLemmaTableRejectsGarbage checks that a table that is not gzip is
// an error, not a table of nothing.
func TestReadLemmaTableRejectsGarbage(t *testing.T) {
	if _, err := readLemmaTable([]byte("not gzip")); err == nil {
		t.Error("a table that is not gzip was read")
	}
}

// BenchmarkLemmaTable times reading the table, which the first analysis of
// a process waits for.
func BenchmarkLemmaTable(b *testing.B) {
	for b.Loop() {
		if _, err := readLemmaTable(lemmaTableFile); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNoPluralsOfNames checks that the genitive plurals the table adds to
// nouns the dictionary has in the singular alone are not made up for
// names: Варшава and Балашиха have no «варшав» or «балаших».
func TestNoPluralsOfNames(t *testing.T) {
	for _, w := range []string{"варшав", "балаших", "гватемал"} {
		if k, ok := lemmas().keys[w]; ok {
			t.Errorf("the table keys the made-up plural %q as %q", w, k)
		}
	}
	if _, ok := lemmas().keys["топлив"]; !ok {
		t.Error("the table lacks the genitive plural топлив")
	}
}
