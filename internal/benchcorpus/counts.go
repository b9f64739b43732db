package benchcorpus

import (
	"runtime"
	"sync"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Counts are how many tenders of a corpus hold each word and each pair of
// frequent words side by side in one field, counted as the stores match
// them: by the key of a word's lemma, a homograph counting for each of its
// lemmas (textproc.LemmaKeys), over the texts a search of a paid plan
// matches (tenderbase.MatchedText).
type Counts struct {
	seed    uint64
	tenders int
	keys    map[string]int
	// regionTenders and regionKeys count the tenders of queryRegion only.
	regionTenders int
	regionKeys    map[string]int
	pairs         map[pair]int
	// forms holds, for each key of a Russian word, the first in
	// alphabetical order of the forms whose own key it is: the form a query
	// for the key types.
	forms map[string]string
	// seen holds every form of a Russian word met.
	seen map[string]struct{}
}

// pair is the keys of two words, the first just before the second.
type pair [2]string

// sampleSize is how many of the first tenders tell which words are
// frequent enough for their pairs to be counted: a phrase of a share s
// needs both its words in s of the tenders at least.
const sampleSize = 20_000

// frequentShare is the least share of the sample a word must be in for
// its pairs to be counted, well below the phrase class's band.
const frequentShare = 0.002

// Count counts the words of the n tenders of the corpus of seed, in
// parallel.
func Count(seed uint64, n int) *Counts {
	g := newGenerator(seed)
	sample := count(g, min(n, sampleSize), nil)
	frequent := map[string]bool{}
	for k, df := range sample.keys {
		if isWord(k) && float64(df) >= frequentShare*float64(sample.tenders) {
			frequent[k] = true
		}
	}
	return count(g, n, frequent)
}

// count counts the first n tenders of g, and the pairs of the frequent
// words.
func count(g *generator, n int, frequent map[string]bool) *Counts {
	parts := make([]*Counts, runtime.GOMAXPROCS(0))
	inParallel(g, n, len(parts), func(part int) func(*tenderbase.Tender) {
		c := newCounts(g.seed)
		parts[part] = c
		a := newAnalyzer()
		return func(t *tenderbase.Tender) { c.add(t, a, frequent) }
	})
	all := parts[0]
	for _, c := range parts[1:] {
		all.merge(c)
	}
	return all
}

// inParallel hands the first n tenders of g to parts workers, the i-th
// tender to worker i%parts; start returns the function a worker calls
// with each of its tenders.
func inParallel(g *generator, n, parts int, start func(part int) func(*tenderbase.Tender)) {
	var wg sync.WaitGroup
	for p := range parts {
		do := start(p)
		wg.Go(func() {
			for i := p; i < n; i += parts {
				do(g.tender(i))
			}
		})
	}
	wg.Wait()
}

func newCounts(seed uint64) *Counts {
	return &Counts{
		seed: seed, keys: map[string]int{}, regionKeys: map[string]int{}, pairs: map[pair]int{},
		forms: map[string]string{}, seen: map[string]struct{}{},
	}
}

// add counts the words of t, and the pairs of frequent words.
func (c *Counts) add(t *tenderbase.Tender, a *analyzer, frequent map[string]bool) {
	fields := a.fields(t)
	c.tenders++
	inRegion := t.Region == queryRegion
	if inRegion {
		c.regionTenders++
	}
	for k := range a.keys {
		c.keys[k]++
		if inRegion {
			c.regionKeys[k]++
		}
	}
	for _, f := range fields {
		for _, tok := range f {
			if !isWord(tok.Stem) || !isWord(tok.Form) {
				continue
			}
			c.seen[tok.Form] = struct{}{}
			if first, ok := c.forms[tok.Stem]; !ok || tok.Form < first {
				c.forms[tok.Stem] = tok.Form
			}
		}
	}
	if frequent != nil {
		c.addPairs(fields, frequent, a.pairs)
	}
}

// addPairs counts the pairs of frequent words side by side in one field
// of a tender's fields, each pair once, with seen to hold them.
func (c *Counts) addPairs(fields [][]textproc.Token, frequent map[string]bool, seen map[pair]struct{}) {
	clear(seen)
	for _, f := range fields {
		for j := 1; j < len(f); j++ {
			for _, a := range lemmaKeys(f[j-1].Stem) {
				if !frequent[a] {
					continue
				}
				for _, b := range lemmaKeys(f[j].Stem) {
					if frequent[b] {
						seen[pair{a, b}] = struct{}{}
					}
				}
			}
		}
	}
	for p := range seen {
		c.pairs[p]++
	}
}

// merge adds the counts of o, of other tenders of the same corpus.
func (c *Counts) merge(o *Counts) {
	c.tenders += o.tenders
	c.regionTenders += o.regionTenders
	for k, n := range o.keys {
		c.keys[k] += n
	}
	for k, n := range o.regionKeys {
		c.regionKeys[k] += n
	}
	for p, n := range o.pairs {
		c.pairs[p] += n
	}
	for f := range o.seen {
		c.seen[f] = struct{}{}
	}
	for k, f := range o.forms {
		if g, ok := c.forms[k]; !ok || f < g {
			c.forms[k] = f
		}
	}
}

// Vocabulary is what the words of a corpus came to.
type Vocabulary struct {
	// Lexemes is the number of lexemes words are drawn from.
	Lexemes int `json:"lexemes"`
	// Keys is the number of distinct keys of Russian words in the corpus,
	// those of its skeleton (customers, methods, OKPD2 names) included,
	// and Forms the number of their distinct forms.
	Keys  int `json:"keys"`
	Forms int `json:"forms"`
}

// Vocabulary returns the size of the vocabulary and how much of it the
// corpus holds.
func (c *Counts) Vocabulary() Vocabulary {
	v := Vocabulary{Lexemes: len(lexemes()), Forms: len(c.seen)}
	for k := range c.keys {
		if isWord(k) {
			v.Keys++
		}
	}
	return v
}
