// Package country turns the ways sources name a country (ISO 3166 alpha-2 or
// alpha-3 codes, English names, names with diacritics) into its ISO 3166
// numeric code, the one the service filters by (countries: [276]). It wraps
// github.com/biter777/countries, which holds the ISO 3166 table.
package country

import (
	"strings"
	"unicode"

	"github.com/biter777/countries"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// aliases are codes sources use outside ISO 3166: TED writes UK for the
// United Kingdom and EL for Greece, as the EU does, and 1A for Kosovo, which
// has no ISO code: it is read as XK, the user-assigned code the EU and the
// ISO table used here give it (numeric 900 there, in ISO's user-assigned
// range 900-999).
var aliases = map[string]string{"UK": "GB", "EL": "GR", "1A": "XK"}

// Numeric returns the ISO 3166 numeric code of a country named by code or
// name, or 0 when none is known.
func Numeric(s string) int {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	if a, ok := aliases[strings.ToUpper(s)]; ok {
		s = a
	}
	if c := countries.ByName(s); c != countries.Unknown {
		return int(c)
	}
	if c := countries.ByName(fold(s)); c != countries.Unknown {
		return int(c)
	}
	return 0
}

// fold takes the diacritics off a name: México is Mexico.
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		return s
	}
	return out
}
