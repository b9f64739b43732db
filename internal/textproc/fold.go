package textproc

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// latinLetters spells in plain Latin the lowercase letters that canonical
// decomposition leaves whole, as a reader without them types them.
var latinLetters = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d",
	'þ': "th", 'ħ': "h", 'ı': "i", 'ŀ': "l", 'ŧ': "t", 'ſ': "s", 'ĳ': "ij",
}

// plain reports whether a lowercased word has nothing foldLatin changes:
// only ASCII and Cyrillic letters. It keeps the common Russian and
// English words off the slow path.
func plain(w string) bool {
	for _, r := range w {
		if r >= 0x80 && !(r >= 'а' && r <= 'я' || r == 'ё') {
			return false
		}
	}
	return true
}

// foldLatin composes a lowercased word (NFC), so that a letter and its
// combining marks are one letter wherever Unicode has one (й stays й),
// then takes from every Latin or Greek letter its diacritics (NFD, marks
// dropped; Greek ς is σ) or spells it by latinLetters, and drops marks
// left after a Latin, Greek or Cyrillic letter (a stress mark). Other
// scripts keep their marks.
func foldLatin(w string) string {
	var b strings.Builder
	b.Grow(len(w))
	dropMarks := false
	if !norm.NFC.IsNormalString(w) {
		w = norm.NFC.String(w)
	}
	for _, r := range w {
		switch {
		case unicode.IsMark(r):
			if !dropMarks {
				b.WriteRune(r)
			}
		case r < 0x80:
			b.WriteRune(r)
			dropMarks = true
		case unicode.Is(unicode.Latin, r):
			writePlainLatin(&b, r)
			dropMarks = true
		case unicode.Is(unicode.Greek, r):
			// Greek is typed without its accents as often as with them,
			// and its final sigma is a sigma.
			if s, ok := plainGreek[r]; ok {
				b.WriteString(s)
			} else {
				b.WriteString(withoutMarks(r))
			}
			dropMarks = true
		default:
			b.WriteRune(r)
			dropMarks = unicode.Is(unicode.Cyrillic, r)
		}
	}
	return b.String()
}

// writePlainLatin writes a Latin letter without its diacritics.
func writePlainLatin(b *strings.Builder, r rune) {
	if s, ok := plainLatin[r]; ok {
		b.WriteString(s)
		return
	}
	b.WriteString(withoutMarks(r))
}

// plainLatin holds the plain spelling of the lowercase Latin letters of
// the Latin-1 Supplement, Latin Extended-A and -B and Latin Extended
// Additional blocks, the letters of European languages, worked out once:
// decomposing a letter each time it is met more than doubled the time of
// analysing a German text.
var plainLatin = func() map[rune]string {
	m := map[rune]string{}
	for _, block := range [][2]rune{{0xc0, 0x24f}, {0x1e00, 0x1eff}} {
		for r := block[0]; r <= block[1]; r++ {
			if unicode.Is(unicode.Latin, r) && unicode.IsLower(r) {
				m[r] = withoutMarks(r)
			}
		}
	}
	for r, s := range latinLetters {
		m[r] = s
	}
	return m
}()

// plainGreek holds the plain spelling of the lowercase letters of the
// Greek and Coptic and Greek Extended blocks, final sigma a sigma, worked
// out once as plainLatin is: decomposing each letter of a Greek title
// when it was met took most of the time of analysing it.
var plainGreek = func() map[rune]string {
	m := map[rune]string{}
	for _, block := range [][2]rune{{0x370, 0x3ff}, {0x1f00, 0x1fff}} {
		for r := block[0]; r <= block[1]; r++ {
			if unicode.Is(unicode.Greek, r) && unicode.IsLower(r) {
				m[r] = withoutMarks(r)
			}
		}
	}
	m['ς'] = "σ"
	return m
}()

// withoutMarks returns a Latin letter decomposed (NFD) without its marks,
// its base spelled by latinLetters (ǿ is ø and an acute, so o).
func withoutMarks(r rune) string {
	var b strings.Builder
	for _, d := range norm.NFD.String(string(r)) {
		if s, ok := latinLetters[d]; ok {
			b.WriteString(s)
		} else if !unicode.IsMark(d) {
			b.WriteRune(d)
		}
	}
	return b.String()
}
