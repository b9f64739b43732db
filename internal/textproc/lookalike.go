package textproc

import (
	"strings"
	"unicode"
)

// lookAlikes spells in Cyrillic the ASCII letters that look like a Cyrillic
// letter as written. Case matters: M, T, H and B look like М, Т, Н and В,
// but m, t, h and b look like none, and a word with one of them is not a
// Russian word typed with a Latin letter.
var lookAlikes = [128]string{
	'A': "А", 'B': "В", 'C': "С", 'E': "Е", 'H': "Н", 'K': "К", 'M': "М",
	'O': "О", 'P': "Р", 'T': "Т", 'X': "Х", 'Y': "У",
	'a': "а", 'c': "с", 'e': "е", 'k': "к", 'o': "о", 'p': "р", 'x': "х", 'y': "у",
}

// isLookAlikeCapital reports whether an ASCII rune is a capital of the
// Russian legal forms typed on a Latin keyboard (OOO, OAO, AO, TOO): A, O
// and T. A word of Latin capitals alone is read as Cyrillic only when it is
// made of these: with every look-alike capital, "Картридж HP" indexed HP as
// НР, and a user typing HP, the brand, missed it; the same held for Roman
// numerals (XX век) and letters of buildings (корпус B).
func isLookAlikeCapital(r rune) bool { return r == 'A' || r == 'O' || r == 'T' }

// cyrillicLookAlike returns the Cyrillic spelling of a Latin letter as
// written, or "" when it looks like no Cyrillic letter. A letter with
// diacritics is taken as the plain lowercase letters Fold spells it with
// (é as e, so е), so that Fold decides a word it has folded as it decided
// the word as written.
func cyrillicLookAlike(r rune) string {
	if r < 0x80 {
		return lookAlikes[r]
	}
	plain := plainLower(r)
	var b strings.Builder
	for i := range len(plain) {
		c := plain[i]
		if c >= 0x80 || c < 'a' || lookAlikes[c] == "" {
			return ""
		}
		b.WriteString(lookAlikes[c])
	}
	return b.String()
}

// plainLower returns a non-ASCII Latin letter as Fold spells it: lowercase,
// without diacritics.
func plainLower(r rune) string {
	r = unicode.ToLower(r)
	if r < 0x80 {
		return string(r)
	}
	if s, ok := plainLatin[r]; ok {
		return s
	}
	return withoutMarks(r)
}

// foldLookAlikes returns a word that mixes Cyrillic and Latin letters, or
// Latin letters and digits, with its Latin letters spelled in Cyrillic when
// every one of them looks like a Cyrillic letter ("пoставка" with a Latin
// o, "ЗAO", "A4" with a Latin A), and any other word as it is: a Latin
// letter without a look-alike ("ТехноLab", "mp3") says the mix is meant. A
// code of letters and digits is spelled in Cyrillic because a reader cannot
// tell which script its letters were typed in: the paper size А4 is
// written with either A, and both must meet.
func foldLookAlikes(word string) string {
	hasCyrillicOrDigit, hasLatin := false, false
	for _, r := range word {
		switch {
		case isLatinLetter(r):
			if cyrillicLookAlike(r) == "" {
				return word
			}
			hasLatin = true
		case isCyrillicLetter(r) || '0' <= r && r <= '9':
			hasCyrillicOrDigit = true
		}
	}
	if !hasCyrillicOrDigit || !hasLatin {
		return word
	}
	var b strings.Builder
	b.Grow(len(word) + len(word)/2)
	for _, r := range word {
		if isLatinLetter(r) {
			b.WriteString(cyrillicLookAlike(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookAlikeCapitalsToCyrillic returns a word of look-alike capitals
// (isLookAlikeCapital) spelled in Cyrillic: OOO as ООО.
func lookAlikeCapitalsToCyrillic(word string) string {
	var b strings.Builder
	b.Grow(2 * len(word))
	for i := range len(word) {
		b.WriteString(lookAlikes[word[i]])
	}
	return b.String()
}

func isLatinLetter(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.Is(unicode.Latin, r) && unicode.IsLetter(r)
}

func isCyrillicLetter(r rune) bool {
	if 'А' <= r && r <= 'я' || r == 'ё' || r == 'Ё' {
		return true
	}
	return unicode.Is(unicode.Cyrillic, r) && unicode.IsLetter(r)
}

// capitalsRun holds the words of look-alike capitals (OOO, AO) that Words
// has met since its last other word. Whether they are Russian depends on
// the words around them, so they wait for the word after them: the run is
// spelled in Cyrillic when the word before it or the word after it is a
// Cyrillic word. The whole run is: in "Поставщик OOO TOO" (Latin capitals)
// TOO is Cyrillic too, though no Cyrillic word is beside it. The run is kept as where it is in the text, so that waiting costs
// no allocation.
type capitalsRun struct {
	start, end    int  // the run in Words' text, from its first word to the end of its last; end 0 when empty
	afterCyrillic bool // the word before the run is a Cyrillic word
}

// add puts the word at text[start:end] at the end of the run; before is
// the folded word before it.
func (c *capitalsRun) add(start, end int, before string) {
	if c.end == 0 {
		c.start, c.afterCyrillic = start, script(before) == cyrillic
	}
	c.end = end
}

// take returns the run's words as written, and whether they are Cyrillic
// given the folded word after them, and empties the run.
func (c *capitalsRun) take(text, after string) (waiting string, toCyrillic bool) {
	waiting, toCyrillic = text[c.start:c.end], c.afterCyrillic || script(after) == cyrillic
	*c = capitalsRun{}
	return waiting, toCyrillic
}

// foldNextCapitals returns the first word of the words of a run, folded and
// spelled in Cyrillic when toCyrillic, and the words after it.
func foldNextCapitals(waiting string, toCyrillic bool) (folded, rest string) {
	w, _, rest := nextWord(waiting)
	if toCyrillic {
		w = lookAlikeCapitalsToCyrillic(w)
	}
	return Fold(w), rest
}

// CapitalsInCyrillic returns text with each of its words of the capitals
// of the legal forms (OOO, AO, TOO) spelled in Cyrillic, as Words spells
// them beside a Cyrillic word, and whether it had any. A query word read
// on its own has no word beside it to tell its script, so the query looks
// it up both ways: "OOO" alone finds a record's Latin "OOO VECTOR" and its
// "OOO Вектор" (read as ООО) alike.
func CapitalsInCyrillic(text string) (string, bool) {
	var b strings.Builder
	copied := 0 // the bytes of text written to b
	for w, seen, rest := nextWord(text); w != ""; w, seen, rest = nextWord(rest) {
		if seen&notLookAlikeCapital != 0 {
			continue
		}
		end := len(text) - len(rest)
		b.WriteString(text[copied : end-len(w)])
		b.WriteString(lookAlikeCapitalsToCyrillic(w))
		copied = end
	}
	if copied == 0 {
		return text, false
	}
	return b.String() + text[copied:], true
}

// LookAlikeText returns a query text with every Latin letter spelled as
// the Cyrillic letter it looks like, case as written (TC-1 is ТС-1, the
// jet fuel), when each Latin letter of it has one; it reports false when
// the text has no Latin letter or one that looks like none. The analysis
// reads a word of Latin capitals as Cyrillic only when made of A, O and T
// (isLookAlikeCapital); a search that finds nothing tries the text so read.
func LookAlikeText(text string) (string, bool) {
	var b strings.Builder
	latin := false
	for _, r := range text {
		if !isLatinLetter(r) {
			b.WriteRune(r)
			continue
		}
		c := cyrillicLookAlike(r)
		if r >= 0x80 || c == "" {
			return "", false
		}
		latin = true
		b.WriteString(c)
	}
	if !latin {
		return "", false
	}
	return b.String(), true
}
