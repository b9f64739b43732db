package query

import (
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// TestMatchInLanguages checks that a word typed without knowing a notice's
// language finds it by the notice's own analysis: stemmed in English,
// German and French, stemmed lightly in Polish, with or without diacritics,
// and that a German word is not stemmed as an English one.
func TestMatchInLanguages(t *testing.T) {
	notices := map[string]*tenderbase.WorldTender{
		"en": {Language: "en", Title: "Cleaning services for public buildings"},
		"de": {Language: "de", Title: "Straßenbauarbeiten in der Gemeinde Großröhrsdorf"},
		"fr": {Language: "fr", Title: "Travaux d'entretien des bâtiments scolaires"},
		"pl": {Language: "pl", Title: "Dostawa samochodów Škoda dla Urzędu Miasta Łodzi"},
	}
	tests := []struct {
		query string
		want  []string // the languages of the notices found
	}{
		{"service", []string{"en"}},
		{"building", []string{"en"}},
		{"strassenbauarbeiten", []string{"de"}},
		{"Straßenbauarbeit", []string{"de"}},
		{"grossrohrsdorf", []string{"de"}},
		{"batiment", []string{"fr"}},
		{"bâtiments", []string{"fr"}},
		{"scolaire", []string{"fr"}},
		{"skoda", []string{"pl"}},
		{"=skoda", []string{"pl"}},
		{"=Škoda", []string{"pl"}},
		{"lodzi", []string{"pl"}},
		{"=łodzi", []string{"pl"}},
		{"lodz", []string{"pl"}}, // Łodzi, Łódź: Polish is stemmed
		{"samochod", []string{"pl"}},
		{"=lodz", nil}, // the exact form is not stemmed
		{`"samochodow skoda"`, []string{"pl"}},
		{`"=samochodów skoda"`, []string{"pl"}},
		{`"public buildings"`, []string{"en"}},
		{`"publics building"`, []string{"en"}},
		{`"entretien batiments"`, nil},
		{`"entretien des batiment"`, []string{"fr"}},
		{"service | travaux", []string{"en", "fr"}},
		{"gemeinde !service", []string{"de"}},
		{`public !"cleaning service"`, nil},
	}
	for _, tt := range tests {
		q, err := Parse(tt.query, MCP)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.query, err)
		}
		var got []string
		for _, lang := range []string{"en", "de", "fr", "pl"} {
			if MatchRecord(q, notices[lang], false) {
				got = append(got, lang)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s found the notices in %v, want %v", tt.query, got, tt.want)
		}
	}
}

// TestGermanNotEnglishStemmed checks that a German notice is keyed by the
// German stemmer: the English stem of a German word finds nothing that
// the German stem does not.
func TestGermanNotEnglishStemmed(t *testing.T) {
	de := &tenderbase.WorldTender{Language: "de", Title: "Bauarbeiten"}
	fields := FieldsIn(RecordLanguage(de), tenderbase.MatchedText(de, false))
	if got := fields[0][0].Stem; got == textproc.Stem("bauarbeiten") {
		t.Errorf("a German word has its English stem %q", got)
	}
	for _, word := range []string{"Bauarbeiten", "bauarbeit", "BAUARBEITEN"} {
		if !MatchRecord(mustParse(t, word), de, false) {
			t.Errorf("%s does not find Bauarbeiten", word)
		}
	}
}

// TestRussianQueryUnchanged checks that a query without Latin words is
// emitted and matched as it was: one key per word.
func TestRussianQueryUnchanged(t *testing.T) {
	for _, s := range []string{`поставка "медико-санитарной продукции" !=ремонт`, "44-ФЗ | 21.20.10"} {
		q := mustParse(t, s)
		if got := Format(inLanguages(q)); got != Format(q) {
			t.Errorf("%s became %s", Format(q), got)
		}
	}
}

func mustParse(t *testing.T, s string) tenderbase.Query {
	t.Helper()
	q, err := Parse(s, MCP)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return q
}
