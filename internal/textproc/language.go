package textproc

import (
	"strings"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/irish"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/turkish"
)

// Language is the analysis of the words of a text in one language. It
// decides only the key of a word of Latin letters: a Cyrillic word has its
// Russian key (lemmas.go), a Greek word its Greek stem (lightstem.go) and a
// number or code its form in every language, so that a Russian or Greek
// word or a CPV code is found in a notice of any language.
//
// The keys of a Latin word differ by language, and a query does not know the
// language of the notices it finds: it looks a Latin word up by its key in
// every language (Keys). So that a key of one language never meets a word
// of another, every language but Default marks its keys with its code and
// keySep ("de\ue001bauarbeit"), and FoldedOnly with keySep alone.
type Language uint8

const (
	// Default is the analysis of texts in Russian, in English and in no
	// known language: Latin words have their English Snowball stem.
	Default Language = iota
	// FoldedOnly is the analysis of a language without a stemmer (Czech,
	// Latvian, Greek, whose Latin words are names and codes...): a Latin
	// word is its folded form.
	FoldedOnly
)

// keySep joins a language's code to the key of a word in that language. It
// is a private-use character, which textproc never yields within a word and
// which FTS5's unicode61 tokenizer keeps inside a token.
const keySep = "\ue001"

// analysis is how a language keys a Latin word: the stemmer of the
// language, none for FoldedOnly; and the mark of its keys.
type analysis struct {
	code string
	stem func(string) string
	mark string
}

// analyses are the languages by Language value: Default, FoldedOnly, then
// every language of Latin script that Snowball stems, and Lithuanian and
// Polish, which are stemmed lightly (lightstem.go).
var analyses = func() []analysis {
	as := []analysis{{code: "en", stem: snowballOf(english.Stem)}, {code: "", mark: keySep}}
	for _, s := range []struct {
		code string
		stem func(string) string
	}{
		{"da", snowballOf(danish.Stem)}, {"de", snowballOf(german.Stem)}, {"es", snowballOf(spanish.Stem)},
		{"fi", snowballOf(finnish.Stem)}, {"fr", snowballOf(french.Stem)}, {"ga", snowballOf(irish.Stem)},
		{"hu", snowballOf(hungarian.Stem)}, {"it", snowballOf(italian.Stem)}, {"lt", lithuanian.stem},
		{"nl", snowballOf(dutch.Stem)}, {"no", snowballOf(norwegian.Stem)}, {"pl", polish.stem},
		{"pt", snowballOf(portuguese.Stem)}, {"ro", snowballOf(romanian.Stem)}, {"sv", snowballOf(swedish.Stem)},
		{"tr", snowballOf(turkish.Stem)},
	} {
		as = append(as, analysis{code: s.code, stem: s.stem, mark: s.code + keySep})
	}
	return as
}()

// aliases are the codes of a language whose analysis has another code.
var aliases = map[string]string{"ru": "en", "nb": "no", "nn": "no"}

// byCode maps an ISO 639-1 code to its Language.
var byCode = func() map[string]Language {
	m := map[string]Language{}
	for i, a := range analyses {
		if a.code != "" {
			m[a.code] = Language(i)
		}
	}
	for alias, code := range aliases {
		m[alias] = m[code]
	}
	return m
}()

// LanguageOf returns the analysis of texts in the language of an ISO 639-1
// code, in any case and with or without a region ("pt-BR"): Default for no
// code, Russian and English, FoldedOnly for a language without a stemmer.
func LanguageOf(code string) Language {
	if code == "" {
		return Default
	}
	code, _, _ = strings.Cut(strings.ToLower(code), "-")
	code, _, _ = strings.Cut(code, "_")
	if l, ok := byCode[code]; ok {
		return l
	}
	return FoldedOnly
}

// Languages returns every analysis, by Language value.
func Languages() []Language {
	out := make([]Language, len(analyses))
	for i := range out {
		out[i] = Language(i)
	}
	return out
}

// String returns the language's ISO 639-1 code, "folded" for FoldedOnly.
func (l Language) String() string {
	if l == FoldedOnly {
		return "folded"
	}
	return analyses[l].code
}

// Key returns the key of a folded word in l: what an index holds for the
// word and a query looks up.
func (l Language) Key(form string) string {
	switch script(form) {
	case cyrillic:
		return russianKey(form)
	case latin:
		a := analyses[l]
		if a.stem == nil {
			return a.mark + form
		}
		return a.mark + a.stem(form)
	case greek:
		return greekStem.stem(form)
	}
	return form
}

// Keys returns the keys of a folded word in every language, by Language
// value, or its one key when that is the same in all (a word that is not
// of Latin letters: Cyrillic, Greek, a number).
func Keys(form string) []string {
	if script(form) != latin {
		return []string{Default.Key(form)}
	}
	keys := make([]string, len(analyses))
	for i := range keys {
		keys[i] = Language(i).Key(form)
	}
	return keys
}

// Analyze returns the tokens of text in order, keyed in l.
func (l Language) Analyze(text string) []Token {
	var tokens []Token
	for w := range Words(text) {
		tokens = append(tokens, Token{Form: w, Stem: l.Key(w)})
	}
	return tokens
}

// snowballOf returns a Snowball stemmer as a function of a word.
func snowballOf(stem func(*snowballstem.Env) bool) func(string) string {
	return func(form string) string { return snowball(stem, form) }
}

func snowball(stem func(*snowballstem.Env) bool, form string) string {
	env := snowballstem.NewEnv(form)
	stem(env)
	return env.Current()
}
