package textproc

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Light stemmers. Snowball has no stemmer for Polish, Lithuanian or Greek,
// so these three are stemmed "lightly", in the manner of J. Savoy's light
// stemmers ("Light stemming approaches for the French, Portuguese, German
// and Hungarian languages", ACM SAC 2006): a word loses its one longest
// inflectional ending, the case and number endings of nouns and
// adjectives (the verbal nouns among them), and only when what is left
// keeps minStem letters. No derivational suffix is taken and no
// alternation of the stem is undone, so that a word rarely meets one of
// another meaning; the cost is that some forms of a word keep apart (the
// Polish usłudze, with g→dz, is not usługa).
//
// The endings are those of the declension tables of each language's
// grammar, written as they are after folding (fold.go): a stemmer sees the
// folded word, so that the word typed without its diacritics has the key
// of the word as published (usługą and usluga both lose "a").

// lightStemmer removes the longest of its endings that leaves a stem of
// minStem letters or more.
type lightStemmer struct {
	minStem int
	// byLast holds the endings by their last byte, longest first, so that
	// a word is compared only with the endings that end as it does.
	byLast [256][]string
}

// newLightStemmer returns the stemmer of the endings, given as
// space-separated lists.
func newLightStemmer(minStem int, lists ...string) *lightStemmer {
	s := &lightStemmer{minStem: minStem}
	for _, list := range lists {
		for _, e := range strings.Fields(list) {
			last := e[len(e)-1]
			if !slices.Contains(s.byLast[last], e) {
				s.byLast[last] = append(s.byLast[last], e)
			}
		}
	}
	for i := range s.byLast {
		slices.SortStableFunc(s.byLast[i], func(a, b string) int { return len(b) - len(a) })
	}
	return s
}

// stem returns a folded word without its ending.
func (s *lightStemmer) stem(w string) string {
	if w == "" {
		return w
	}
	for _, e := range s.byLast[w[len(w)-1]] {
		if strings.HasSuffix(w, e) && utf8.RuneCountInString(w[:len(w)-len(e)]) >= s.minStem {
			return w[:len(w)-len(e)]
		}
	}
	return w
}

// polish stems Polish. The endings are those of the Polish declension of
// nouns and of adjectives (and participles), by case: genitive -a -u -y
// -i -ów, the personal nominative plural -owie, dative -owi -u -i -om, instrumental -em -ą -ami, locative -e
// -u -i -ach, and the adjectives' -y -i -a -e -ego -emu -ej -ym -ych
// -ymi. After a soft consonant Polish writes its -i- into the ending
// (energia, energii; świadczenie, świadczenia, świadczeniem, świadczeń):
// the endings with that -i- go with it, so that the verbal nouns in -nie
// (świadczenie, opracowanie, zamówienie), whose genitive plural ends in
// -ń, meet in every case. Folding makes ą a, ę e and ó o, so that -ą is
// -a and -ów -ow.
var polish = newLightStemmer(3,
	"a u y i e o ow owi owie om em ami ach",       // nouns
	"ego emu ej ym ych ymi im ich imi",            // adjectives
	"ia iu ii ie iem iom iami iach iego iemu iej", // the same after a soft consonant
)

// lithuanian stems Lithuanian. The endings are those of the declensions
// of nouns (-as/-ys/-is, -a/-ė, -is, -us) and of the adjectives, by case
// and number, as the tables of Lithuanian grammar give them (as in
// V. Ambrazas, ed., Lithuanian Grammar, 1997), and of the definite
// adjectives, which names use (Didžioji, tolimojo). Folding makes ą and
// a one letter, likewise ę, ė and e, į and i, ų, ū and u. The ia- and
// io-stems (kelias, kelio, kelyje; brolis, brolio) write an -i- before
// the ending: the endings with that -i- go with it, and so do those of
// the -us nouns in -ius (Vilnius, Vilniaus, Vilniuje; skaičius, skaičiaus),
// whose -i- is no part of the stem either. The verbal nouns in
// -imas, -ymas (tiekimas, projektavimo) are declined as -as nouns.
var lithuanian = newLightStemmer(3,
	"as o ui a u e ai ams us ais uose", // -as nouns and adjectives
	"os oje oms omis ose am ame",       // -a nouns; adjectives
	"es ei eje ems emis ese",           // -ė nouns
	"is ies imi yje ys ims imis yse i", // -is and -ys nouns
	"aus umi uje ums umis",             // -us nouns
	"ias io iui ia iu iai iams ius iais iuose ios ioje ioms iomis iose iam iame iems iaus iumi iuje iums iumis",                  // after -i-
	"asis ojo ajam aji uoju ajame oji osios ajai aja ojoje ieji uju iesiems uosius aisiais uosiuose osioms asias osiomis osiose", // definite adjectives
)

// greekStem stems Greek, after the folding that takes its accents and makes
// its final sigma σ. The endings are those of the declension of Modern
// Greek nouns and adjectives (as in D. Holton, P. Mackridge and
// I. Philippaki-Warburton, Greek: A Comprehensive Grammar of the Modern
// Language, 1997): masculine -ος -ου -ο -οι -ων -ους, -ας -α
// -ες, -ης -η; feminine -α -ας -ες, -η -ης, and the verbal nouns in
// -ση/-ξη/-ψη with their -εις -εων -εως; neuter -ο -ου -α -ων, -ος -ους
// -η, -μα -ματος -ματα -ματων. The -ι- of the neuters in -ι and -ιο
// (παιδί, τεμάχιο) is left to the stem, so that their forms meet.
var greekStem = newLightStemmer(3,
	"οσ ου ο οι ων ουσ",   // -ος nouns and adjectives
	"ασ α εσ ησ η",        // -ας, -α, -ης, -η
	"εισ εων εωσ",         // -ση, -ξη, -ψη
	"μα ματοσ ματα ματων", // -μα neuters
)
