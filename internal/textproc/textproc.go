// Package textproc turns text into the tokens that search indexes and
// queries are made of. Every store uses it, so that a word is indexed and
// looked up the same way everywhere.
//
// Text is split on every rune that is not a letter, a digit or a combining
// mark, so that "медико-санитарной" is two words and "44-ФЗ" is "44" and
// "фз". Each word is lowercased with ё folded to е and Latin letters folded
// to plain Latin ("Škoda" is "skoda", "Straße" is "strasse"); that is its
// Form. Its Stem is the key of the word in the language of the text
// (Language): the Russian Snowball stem for words of Cyrillic letters, for
// words of Latin letters the Snowball stem of the text's language (English
// by default) or the Form itself in a language without a stemmer, and the
// Form itself for numbers, codes and words that mix scripts or digits.
// No stop words are dropped.
package textproc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token is one word of a text.
type Token struct {
	Form string // lowercase, ё folded to е, Latin letters without diacritics
	Stem string // the key in the text's language (Language.Key)
}

// MaxWordLen bounds the bytes of a word; longer runs (base64, hashes) are cut,
// so that no single token can bloat an index.
const MaxWordLen = 120

// Analyze returns the tokens of text in order, keyed in the Default
// language.
func Analyze(text string) []Token { return Default.Analyze(text) }

// Words yields the words of text, folded (Fold). A combining mark within a
// word belongs to it: "S\u030Ckoda" is one word, "skoda".
func Words(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i, r := range text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || start >= 0 && unicode.IsMark(r) {
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

// Fold lowercases a word, folds Latin letters to plain Latin (foldLatin)
// and ё to е, and cuts it to MaxWordLen bytes on a rune boundary.
func Fold(word string) string {
	w := strings.ToLower(word)
	if !plain(w) {
		w = foldLatin(w)
	}
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

// Stem returns the key of a folded word in the Default language: Russian
// Snowball for a word of Cyrillic letters, English Snowball for a word of
// Latin letters, and the word itself otherwise.
func Stem(form string) string { return Default.Key(form) }

type scriptKind int

const (
	other scriptKind = iota
	cyrillic
	latin
)

// script reports whether a word is all Cyrillic letters, all Latin letters,
// or anything else (digits, mixed scripts). The letters of folded Russian
// and English words are told apart without Unicode's tables.
func script(w string) scriptKind {
	kind := other
	for _, r := range w {
		var k scriptKind
		switch {
		case r >= 'a' && r <= 'z':
			k = latin
		case r >= 'а' && r <= 'я':
			k = cyrillic
		case r < 0x80:
			return other
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
