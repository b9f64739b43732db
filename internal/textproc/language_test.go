package textproc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFold checks that Latin letters lose their diacritics, letters that
// do not decompose are spelled in plain Latin, and Cyrillic stays as it is.
func TestFold(t *testing.T) {
	tests := []struct{ word, want string }{
		{"Škoda", "skoda"},
		{"STRAẞE", "strasse"},
		{"Straße", "strasse"},
		{"Łódź", "lodz"},
		{"Café", "cafe"},
		{"cafe\u0301", "cafe"}, // e and a combining acute
		{"Øresund", "oresund"},
		{"Ǿ", "o"}, // ø and an acute
		{"Đakovo", "dakovo"},
		{"Ærøskøbing", "aeroskobing"},
		{"œuvre", "oeuvre"},
		{"Þingvellir", "thingvellir"},
		{"İstanbul", "istanbul"},
		{"Müller", "muller"},
		{"señal", "senal"},
		{"Čeština", "cestina"},
		{"Ёлка", "елка"},
		{"Йошкар", "йошкар"},
		{"и\u0306од", "йод"},     // и and a combining breve is й, not и
		{"за\u0301мок", "замок"}, // a stress mark is dropped
		{"Ελλάδα", "ελλαδα"},     // Greek drops its accents
		{"ΑΘΗΝΑΣ", "αθηνασ"},
		{"καθαρισμός", "καθαρισμοσ"}, // and its final sigma is σ
		{"Προϊόντα", "προιοντα"},
	}
	for _, tt := range tests {
		if got := Fold(tt.word); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestWordsKeepCombiningMarks checks that a mark written apart from its
// letter does not split the word.
func TestWordsKeepCombiningMarks(t *testing.T) {
	var got []string
	for w := range Words("S\u030Ckoda Octavia, и\u0306од") {
		got = append(got, w)
	}
	if diff := cmp.Diff([]string{"skoda", "octavia", "йод"}, got); diff != "" {
		t.Errorf("Words (-want +got):\n%s", diff)
	}
}

// TestLanguageKeys checks the key of a word in the analysis of each kind
// of notice: English stemmed, German stemmed in its own namespace, Polish
// stemmed lightly in its own, Czech folded only, Russian words
// Russian-stemmed and Greek words Greek-stemmed whatever the language.
func TestLanguageKeys(t *testing.T) {
	de, pl, fr, es, cs := LanguageOf("de"), LanguageOf("pl"), LanguageOf("fr"), LanguageOf("es"), LanguageOf("cs")
	tests := []struct {
		name string
		lang Language
		text string
		want []Token
	}{
		{"english services", LanguageOf("en"), "Services", []Token{{"services", "servic"}}},
		{"english service", LanguageOf("en"), "service", []Token{{"service", "servic"}}},
		{"no language is English", Default, "supplies", []Token{{"supplies", "suppli"}}},
		{"german not English-stemmed", de, "Bauarbeiten", []Token{{"bauarbeiten", "de" + keySep + "bauarbeit"}}},
		{"german umlaut folded", de, "Straßenbrücke", []Token{{"strassenbrucke", "de" + keySep + "strassenbruck"}}},
		{"french", fr, "Travaux d'entretien", []Token{
			{"travaux", "fr" + keySep + "traval"}, {"d", "fr" + keySep + "d"}, {"entretien", "fr" + keySep + "entretien"},
		}},
		{"spanish", es, "obras públicas", []Token{{"obras", "es" + keySep + "obras"}, {"publicas", "es" + keySep + "public"}}},
		{"polish", pl, "Łódź roboty", []Token{{"lodz", "pl" + keySep + "lodz"}, {"roboty", "pl" + keySep + "robot"}}},
		{"czech folded only", cs, "Centrální zdroj", []Token{{"centralni", keySep + "centralni"}, {"zdroj", keySep + "zdroj"}}},
		{"greek in a greek notice", LanguageOf("el"), "Υπηρεσίες φύλαξης", []Token{{"υπηρεσιεσ", "υπηρεσι"}, {"φυλαξησ", "φυλαξ"}}},
		{"greek in a german notice", de, "Υπηρεσίες", []Token{{"υπηρεσιεσ", "υπηρεσι"}}},
		{"russian in a german notice", de, "Поставки", []Token{{"поставки", "поставк"}}},
		{"russian unchanged", Default, "ЁЛКА поставки", []Token{{"елка", "елк"}, {"поставки", "поставк"}}},
		{"codes are the same everywhere", pl, "45000000-7 x5 mp3", []Token{{"45000000", "45000000"}, {"7", "7"}, {"х5", "х5"}, {"mp3", "mp3"}}},
		{"й kept", Default, "Йошкар-Ола", []Token{{"йошкар", "йошкар"}, {"ола", "ол"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.lang.Analyze(tt.text)); diff != "" {
				t.Errorf("Analyze(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// TestWithAndWithoutDiacritics checks that a word typed without its
// diacritics has the key of the word written with them, in every language.
func TestWithAndWithoutDiacritics(t *testing.T) {
	pairs := [][2]string{{"Škoda", "skoda"}, {"Straße", "strasse"}, {"Łódź", "lodz"}, {"élèves", "eleves"}, {"públicas", "publicas"}}
	for _, l := range Languages() {
		for _, p := range pairs {
			if a, b := l.Key(Fold(p[0])), l.Key(Fold(p[1])); a != b {
				t.Errorf("%s: key of %q is %q, of %q is %q", l, p[0], a, p[1], b)
			}
		}
	}
}

func TestLanguageOf(t *testing.T) {
	tests := map[string]Language{
		"": Default, "en": Default, "ru": Default, "EN": Default, "en-GB": Default,
		"de": LanguageOf("de"), "pt_BR": LanguageOf("pt"), "nb": LanguageOf("no"),
		"pl": LanguageOf("pl"), "lt": LanguageOf("lt"), "cs": FoldedOnly, "el": FoldedOnly, "xx": FoldedOnly,
	}
	for code, want := range tests {
		if got := LanguageOf(code); got != want {
			t.Errorf("LanguageOf(%q) = %s, want %s", code, got, want)
		}
	}
	for _, code := range []string{"de", "pl", "lt"} {
		if l := LanguageOf(code); l == FoldedOnly || l == Default {
			t.Errorf("%s has no analysis of its own", code)
		}
	}
}

// TestKeysOfAWord checks that only Latin words have a key per language.
func TestKeysOfAWord(t *testing.T) {
	if got := len(Keys("поставки")); got != 1 {
		t.Errorf("a Russian word has %d keys, want 1", got)
	}
	if got := len(Keys("45000000")); got != 1 {
		t.Errorf("a number has %d keys, want 1", got)
	}
	keys := Keys("bauarbeiten")
	if len(keys) != len(Languages()) || keys[Default] != "bauarbeiten" || keys[LanguageOf("de")] != "de"+keySep+"bauarbeit" {
		t.Errorf("keys of bauarbeiten: %q", keys)
	}
}

// FuzzFold checks that folding a folded word changes nothing, so that a
// query word, folded once more by the parser, keeps the key of the word it
// came from.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"Škoda", "Straße", "Łódź", "cafe\u0301", "и\u0306од", "İstanbul", "ǅ", "ﬁ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, word string) {
		for w := range Words(word) {
			if again := Fold(w); again != w {
				t.Errorf("Fold(%q) = %q, a word Words yields folded again", w, again)
			}
		}
	})
}
