// Package textproc turns text into the tokens that search indexes and
// queries are made of. Every store uses it, so that a word is indexed and
// looked up the same way everywhere.
//
// Text is split on every rune that is not a letter or a digit, so that
// "медико-санитарной" is two words and "44-ФЗ" is "44" and "фз". Each word is
// lowercased with ё folded to е; that is its Form. Its Stem is the Snowball
// stem for words of Cyrillic letters (Russian) or of Latin letters (English),
// and the Form itself for numbers, codes and words that mix scripts or digits.
// No stop words are dropped.
package textproc

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/russian"
)

// Token is one word of a text.
type Token struct {
	Form string // lowercase, ё folded to е
	Stem string // the Snowball stem, or Form for numbers and codes
}

// MaxWordLen bounds the bytes of a word; longer runs (base64, hashes) are cut,
// so that no single token can bloat an index.
const MaxWordLen = 120

// Analyze returns the tokens of text in order.
func Analyze(text string) []Token {
	var tokens []Token
	for w := range Words(text) {
		tokens = append(tokens, Token{Form: w, Stem: Stem(w)})
	}
	return tokens
}

// Words yields the words of text, lowercased and with ё folded to е.
func Words(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i, r := range text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if !yield(Fold(text[start:i])) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield(Fold(text[start:]))
		}
	}
}

// Fold lowercases a word, folds ё to е and cuts it to MaxWordLen bytes on a
// rune boundary.
func Fold(word string) string {
	w := strings.ToLower(word)
	w = strings.ReplaceAll(w, "ё", "е")
	if len(w) > MaxWordLen {
		cut := MaxWordLen
		for cut > 0 && !utf8.RuneStart(w[cut]) {
			cut--
		}
		w = w[:cut]
	}
	return w
}

// Stem returns the stem of a folded word: Russian Snowball for a word of
// Cyrillic letters, English Snowball for a word of Latin letters, and the
// word itself otherwise.
func Stem(form string) string {
	switch script(form) {
	case cyrillic:
		env := snowballstem.NewEnv(form)
		russian.Stem(env)
		return env.Current()
	case latin:
		env := snowballstem.NewEnv(form)
		english.Stem(env)
		return env.Current()
	}
	return form
}

type scriptKind int

const (
	other scriptKind = iota
	cyrillic
	latin
)

// script reports whether a word is all Cyrillic letters, all Latin letters,
// or anything else (digits, mixed scripts).
func script(w string) scriptKind {
	kind := other
	for _, r := range w {
		var k scriptKind
		switch {
		case unicode.Is(unicode.Cyrillic, r) && unicode.IsLetter(r):
			k = cyrillic
		case unicode.Is(unicode.Latin, r) && unicode.IsLetter(r):
			k = latin
		default:
			return other
		}
		if kind != other && kind != k {
			return other
		}
		kind = k
	}
	return kind
}
