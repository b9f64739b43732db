// Package benchcorpus generates the corpus of the scale benchmark
// (cmd/scalebench): synthetic Russian tenders, the same for the same seed,
// whose words are real Russian words drawn by a Zipf law, so that a few
// words are in most tenders, some in one tender in a hundred and most in
// hardly any, as in real notices; and the classes of queries timed over
// it, chosen by how many tenders their words are in.
package benchcorpus

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Version names the generator: a corpus, or a store built from one, made by
// another version is another corpus.
const Version = "1"

// ClassesVersion names the classes of queries drawn from a corpus: a
// survey of the corpus made by another version lacks a class or differs.
const ClassesVersion = "2"

// zipfExponent is the s of the Zipf law by which words are drawn: the k-th
// word of the vocabulary comes in proportion to 1/k^s.
const zipfExponent = 1.1

// lexeme is a word of the vocabulary: the forms of one lemma key.
type lexeme struct {
	key   string
	forms []string
}

// lexemes are the lemmas of the lemma table of textproc that look like
// words, Cyrillic letters only and three of them at least, each with its
// forms that do too; sorted by key. The table holds the forms whose key
// is not their own Snowball stem, so that every form of a lexeme is
// analyzed to the lexeme's key.
var lexemes = sync.OnceValue(func() []lexeme {
	forms := map[string][]string{}
	for form, key := range textproc.LemmaForms() {
		if isWord(form) && isWord(key) {
			forms[key] = append(forms[key], form)
		}
	}
	out := make([]lexeme, 0, len(forms))
	for key, fs := range forms {
		out = append(out, lexeme{key: key, forms: fs})
	}
	slices.SortFunc(out, func(a, b lexeme) int { return strings.Compare(a.key, b.key) })
	return out
})

// isWord reports whether s is three lowercase Russian letters or more.
func isWord(s string) bool {
	n := 0
	for _, r := range s {
		if r < 'а' || r > 'я' {
			return false
		}
		n++
	}
	return n >= 3
}

// vocabulary is the lexemes in the order of one seed, the most frequent
// first, with the cumulative weights of the Zipf law over them.
type vocabulary struct {
	words []lexeme
	cdf   []float64
}

// vocabularyStream tells the random stream that orders the vocabulary
// from the streams of the records.
const vocabularyStream = 0x766f636162

func newVocabulary(seed uint64) *vocabulary {
	words := slices.Clone(lexemes())
	r := rand.New(rand.NewPCG(seed, vocabularyStream))
	r.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	return &vocabulary{words: words, cdf: zipfCDF(len(words), zipfExponent)}
}

// zipfCDF returns the cumulative probabilities of ranks 1 to n under the
// Zipf law of exponent s, the last being 1.
func zipfCDF(n int, s float64) []float64 {
	cdf := make([]float64, n)
	sum := 0.0
	for k := range n {
		sum += math.Pow(float64(k+1), -s)
		cdf[k] = sum
	}
	for k := range cdf {
		cdf[k] /= sum
	}
	cdf[n-1] = 1
	return cdf
}

// word returns a random form of a lexeme drawn by the Zipf law.
func (v *vocabulary) word(r *rand.Rand) string {
	i, _ := slices.BinarySearch(v.cdf, r.Float64())
	l := v.words[i]
	return l.forms[r.IntN(len(l.forms))]
}

// phrase returns n words drawn by the Zipf law, joined by spaces.
func (v *vocabulary) phrase(r *rand.Rand, n int) string {
	b := make([]byte, 0, 16*n)
	for i := range n {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, v.word(r)...)
	}
	return string(b)
}
