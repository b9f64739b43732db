// Package textproc turns text into the tokens that search indexes and
// queries are made of. Every store uses it, so that a word is indexed and
// looked up the same way everywhere.
//
// Text is split on every rune that is not a letter, a digit or a combining
// mark, so that "медико-санитарной" is two words and "44-ФЗ" is "44" and
// "фз". Each word is lowercased with ё folded to е and Latin letters folded
// to plain Latin ("Škoda" is "skoda", "Straße" is "strasse"); that is its
// Form. Its Stem is the key of the word in the language of the text
// (Language): the key of its lemma for words of Cyrillic letters (lemmas.go), for
// words of Latin letters the stem of the text's language (English by
// default; Snowball's, or a light stemmer's for Polish and Lithuanian) or
// the Form itself in a language without a stemmer, for words of Greek
// letters their Greek stem (lightstem.go), and the Form itself for
// numbers, codes and words that mix scripts or digits.
// No stop words are dropped.
//
// Russian text is often typed with Latin letters that look Cyrillic, and a
// reader cannot tell them apart, so they are spelled in Cyrillic first:
//
//   - A word that mixes Cyrillic and Latin letters has its Latin letters
//     spelled in Cyrillic when every one of them looks like a Cyrillic
//     letter as written: the capitals A B C E H K M O P T X Y and the small
//     letters a c e k o p x y ("пoставка" with a Latin o is "поставка",
//     "ЗAO" is "зао"). m, t, h and b look like no small Cyrillic letter. A
//     word with a Latin letter that looks like none ("ТехноLab") stays as
//     it is, a mix of scripts.
//   - A word of the Latin capitals A, O and T alone, those of the legal
//     forms ("OOO", "AO", "TOO"), is spelled in Cyrillic when the word
//     before or after it in the same text is a Cyrillic word, or is such a
//     word spelled in Cyrillic:
//     "OOO Вектор" is "ооо вектор", but "OOO VECTOR" stays Latin. Only
//     Words sees the words around a word; Fold of one word does the first
//     rule alone.
//   - A word of Latin letters and digits is spelled in Cyrillic by the
//     first rule as well ("A4" is "а4").
//
// Numbers are read as a reader reads them: a number against its unit is
// two words ("10кг" is "10" and "кг"), and a number of one to three digits
// with groups of three digits after it, each after a space, is one word
// ("5 000" is "5000"). A longer number (an INN, a purchase number) is
// never joined to what follows it.
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
// word belongs to it: "S\u030Ckoda" is one word, "skoda". A word of the
// capitals of the legal forms (OOO, AO, TOO) is spelled in Cyrillic when
// the word before or after it is a Cyrillic word (capitalsRun). Digits
// grouped by spaces are one word (joinDigitGroups), and a number against
// its unit two (cutNumber). A run of ideographs (Chinese, Japanese, Korean),
// written without spaces between its words, is its overlapping pairs of
// characters (cutPart).
func Words(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		var run capitalsRun
		before := "" // the last word yielded
		for w, seen, rest := nextWord(text); ; w, seen, rest = nextWord(rest) {
			end := len(text) - len(rest)
			if seen == asciiDigit|notLookAlikeCapital && len(w) <= 3 {
				w, rest = joinDigitGroups(w, rest)
			}
			if w != "" && seen&notLookAlikeCapital == 0 {
				run.add(end-len(w), end, before)
				continue
			}
			f := "" // no word after the run: the text ends
			if w != "" {
				f = fold(w, seen)
			}
			var waiting string // the capitals waiting, which go before the word
			var toCyrillic, inIdeographs bool
			if run.end > 0 {
				waiting, toCyrillic = run.take(text, f)
			}
			// yield is called from this one place: calling it from a second
			// place cost Analyze one more allocation per text (Go 1.26).
		emit:
			for parts := f; ; {
				var next string
				switch {
				case waiting != "":
					next, waiting = foldNextCapitals(waiting, toCyrillic)
				case w == "" || parts == "":
					break emit
				case seen&otherRune != 0:
					next, parts, inIdeographs = cutPart(parts, inIdeographs)
				default:
					next, parts = cutNumber(parts)
				}
				if !yield(next) {
					return
				}
			}
			if w == "" {
				return
			}
			before = f
		}
	}
}

// nextWord returns the first word of text as written, the kinds of its
// runes, and the text after it; no word when text has none.
func nextWord(text string) (word string, seen runeKinds, rest string) {
	start := -1
	for i := 0; i < len(text); {
		var k runeKinds
		size := 1
		if c := text[i]; c < utf8.RuneSelf {
			k = asciiKinds[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			k = kindOf(r)
		}
		if k != 0 && (start >= 0 || k&combiningMark == 0) {
			if start < 0 {
				start = i
			}
			seen |= k
			i += size
			continue
		}
		if start >= 0 {
			return text[start:i], seen, text[i:]
		}
		i += size
	}
	if start < 0 {
		return "", 0, ""
	}
	return text[start:], seen, ""
}

// Fold lowercases a word, spells in Cyrillic the Latin letters of a word
// that mixes Cyrillic and Latin letters when they all look Cyrillic
// (foldLookAlikes), folds Latin letters to plain Latin (foldLatin) and ё to
// е, and cuts it to MaxWordLen bytes on a rune boundary.
func Fold(word string) string {
	var seen runeKinds
	for _, r := range word {
		seen |= kindOf(r)
	}
	return fold(word, seen)
}

// fold is Fold of a word whose runes are of the kinds seen, which spare
// most words the look for look-alikes.
func fold(word string, seen runeKinds) string {
	if seen&asciiLetter != 0 && seen&(basicCyrillic|asciiDigit) != 0 || seen&otherRune != 0 {
		word = foldLookAlikes(word)
	}
	w := strings.ToLower(word)
	if !plain(w) {
		w = foldLatin(w)
	}
	w = strings.ReplaceAll(w, "ё", "е")
	if len(w) > MaxWordLen {
		w = cutToMaxWordLen(w)
		// The cut may have taken the one letter that kept the rest from
		// being spelled in Cyrillic; folding the word again must not change it.
		if again := foldLookAlikes(w); again != w {
			w = cutToMaxWordLen(again)
		}
	}
	return w
}

// cutToMaxWordLen cuts a word to MaxWordLen bytes on a rune boundary.
func cutToMaxWordLen(w string) string {
	if len(w) <= MaxWordLen {
		return w
	}
	n := MaxWordLen
	for n > 0 && !utf8.RuneStart(w[n]) {
		n--
	}
	return w[:n]
}

// runeKinds is a set of the kinds of rune a word has, gathered as Words
// reads it, so that folding needs no second look at most words.
type runeKinds uint8

const (
	asciiLetter         runeKinds = 1 << iota
	basicCyrillic                 // Ѐ-џ: the Cyrillic letters of Russian and its neighbours
	otherRune                     // a letter, digit or mark that is neither ASCII nor Ѐ-џ
	combiningMark                 // a mark, which belongs to a word only after its first rune
	notLookAlikeCapital           // anything but a capital of the legal forms (isLookAlikeCapital)
	asciiDigit                    // 0-9
)

// kindOf returns the kinds of a rune, none for a rune that is not part of a
// word. Russian and English letters are told without Unicode's tables, and
// without a call: Words asks of every rune.
func kindOf(r rune) runeKinds {
	switch {
	case r < 0x80:
		return asciiKinds[r]
	case 'Ѐ' <= r && r <= 'џ':
		return basicCyrillic | notLookAlikeCapital
	}
	return kindOfOther(r)
}

// asciiKinds are the kinds of the ASCII runes.
var asciiKinds = func() (kinds [0x80]runeKinds) {
	for r := range rune(0x80) {
		switch {
		case isLookAlikeCapital(r):
			kinds[r] = asciiLetter
		case 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
			kinds[r] = asciiLetter | notLookAlikeCapital
		case '0' <= r && r <= '9':
			kinds[r] = asciiDigit | notLookAlikeCapital
		}
	}
	return kinds
}()

// kindOfOther is kindOf of a rune that is neither ASCII nor Ѐ-џ.
func kindOfOther(r rune) runeKinds {
	switch {
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return otherRune | notLookAlikeCapital
	case unicode.IsMark(r):
		return otherRune | combiningMark | notLookAlikeCapital
	}
	return 0
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
	greek
)

// script reports whether a word is all Cyrillic letters, all Latin
// letters, all Greek letters, or anything else (digits, mixed scripts).
// The letters of folded Russian, English and Greek words are told apart
// without Unicode's tables.
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
		case r >= 'α' && r <= 'ω':
			k = greek
		case unicode.Is(unicode.Cyrillic, r) && unicode.IsLetter(r):
			k = cyrillic
		case unicode.Is(unicode.Latin, r) && unicode.IsLetter(r):
			k = latin
		case unicode.Is(unicode.Greek, r) && unicode.IsLetter(r):
			k = greek
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
