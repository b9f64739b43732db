// Package country turns the ways sources name a country (ISO 3166 alpha-2 or
// alpha-3 codes, English names, names with diacritics) into its ISO 3166
// numeric code, the one the service filters by (countries: [276]). It wraps
// github.com/biter777/countries, which holds the ISO 3166 table.
package country

import (
	"strings"
	"sync"
	"unicode"

	"github.com/biter777/countries"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
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
	return localNames()[nameKey(s)]
}

// localNames maps the name of every country in every language the CLDR
// names countries in (Україна, Украина, España, Ελλάδα, 臺灣...), by
// nameKey, to its numeric code: publishers write the country of an address
// in their own language, as ProZorro writes Ukraine in Ukrainian and in
// Russian. A name that two countries share in different languages is left
// out, since it tells neither. It is built once, on first use: some 250
// countries in about a hundred languages.
var localNames = sync.OnceValue(func() map[string]int {
	names := map[string]int{}
	ambiguous := map[string]bool{}
	for _, tag := range display.Supported.Tags() {
		namer := display.Regions(tag)
		if namer == nil {
			continue
		}
		for _, c := range countries.All() {
			region, err := language.ParseRegion(c.Alpha2())
			if err != nil {
				continue
			}
			key := nameKey(namer.Name(region))
			if key == "" || ambiguous[key] {
				continue
			}
			if n, seen := names[key]; seen && n != int(c) {
				delete(names, key)
				ambiguous[key] = true
				continue
			}
			names[key] = int(c)
		}
	}
	return names
})

// nameKey is a country's name as localNames keys it: folded, lower case,
// its spaces single.
func nameKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(fold(s))), " ")
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
