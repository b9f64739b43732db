package spelling

import (
	"strings"
	"unicode"
)

// The keys of the Russian ЙЦУКЕН layout and of the Latin QWERTY layout
// that stand in the same place, letter keys only: a query word is split
// at signs before it is seen here, so б, ю, ж, э, х, ъ and ё, whose keys
// type signs on the Latin layout, cannot be read back.
const (
	latinKeys    = "qwertyuiopasdfghjklzxcvbnm"
	cyrillicKeys = "йцукенгшщзфывапролдячсмить"
)

var toCyrillic, toLatin = layoutMaps()

func layoutMaps() (map[rune]rune, map[rune]rune) {
	lat, cyr := []rune(latinKeys), []rune(cyrillicKeys)
	c, l := make(map[rune]rune, len(lat)), make(map[rune]rune, len(cyr))
	for i := range lat {
		c[lat[i]], l[cyr[i]] = cyr[i], lat[i]
	}
	return c, l
}

// OtherLayout returns word as it would have been typed on the other
// keyboard layout: a word of Latin letters read as the Russian keys in
// their places (gjcnfdrf is поставка), a word of Cyrillic letters as the
// Latin ones (зфзук is paper). It reports false when word mixes the two
// or has a letter (or digit) of no letter key, whose other reading is no
// word.
func OtherLayout(word string) (string, bool) {
	if word == "" {
		return "", false
	}
	var b strings.Builder
	var m map[rune]rune
	for _, r := range word {
		if m == nil {
			switch {
			case toCyrillic[r] != 0:
				m = toCyrillic
			case toLatin[r] != 0:
				m = toLatin
			default:
				return "", false
			}
		}
		o := m[r]
		if o == 0 {
			return "", false
		}
		b.WriteRune(o)
	}
	return b.String(), true
}

// signKeys are the keys of the Latin layout that type signs where the
// Russian layout has letters, in the same order as the letters: a query
// typed wholly on the wrong layout has them inside its words
// (vjynf; j,jheljdfybz is монтаж оборудования).
const (
	latinSignKeys    = ";',.[]`"
	cyrillicSignKeys = "жэбюхъё"
)

// OtherLayoutText returns a whole query text typed on the Latin layout as
// the Russian keys in the same places would have typed it, signs keys
// included, keeping spaces, digits and every other character as they are.
// It reports false when the text has a Cyrillic letter, or no Latin one.
func OtherLayoutText(text string) (string, bool) {
	signs := map[rune]rune{}
	cyr := []rune(cyrillicSignKeys)
	for i, r := range []rune(latinSignKeys) {
		signs[r] = cyr[i]
	}
	var b strings.Builder
	latin := false
	for _, r := range text {
		lower := unicode.ToLower(r)
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			return "", false
		case toCyrillic[lower] != 0:
			latin = true
			b.WriteRune(toCyrillic[lower])
		case signs[r] != 0:
			b.WriteRune(signs[r])
		default:
			b.WriteRune(r)
		}
	}
	if !latin {
		return "", false
	}
	return b.String(), true
}
