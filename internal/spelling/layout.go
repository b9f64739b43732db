package spelling

import "strings"

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
