package textproc

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/snowballstem/russian"
)

// The measures of the Russian analysis, on reference lists from the other
// dictionary than the one the lemma table is built from (OpenCorpora,
// testdata/opencorpora) and from that one (Hunspell, testdata/hunspell-forms.tsv):
// how many pairs of forms of one lemma meet (recall), and how many pairs
// of the most frequent words of procurement text meet without a lemma in
// common (false merges). Both are set against Snowball alone.

// family is a lemma and its forms in one dictionary. OpenCorpora's
// families are the forms of the lemma's own part of speech: the full
// forms of an adjective, the infinitive and the personal forms of a verb;
// the other forms of its lexeme (short adjectives, comparatives,
// participles, gerunds, which OpenCorpora files as parts of speech of
// their own) are measured apart, as whole lexemes.
type family struct {
	lemma, pos string
	forms      []string
}

// keyFunc keys a folded word.
type keyFunc func(string) string

// analyzers are the analyses measured side by side.
var analyzers = []struct {
	name string
	key  keyFunc
}{
	{"snowball", func(w string) string { return snowball(russian.Stem, w) }},
	{"lemmas", Default.Key},
}

// readFamilies reads lemmas.tsv of OpenCorpora ("lemma TAB POS TAB forms")
// and the Hunspell forms of the same lemmas ("lemma TAB forms"), each form
// folded, leaving out forms that are not one Cyrillic word (digits,
// hyphens) and families of fewer than two forms.
func readFamilies(t testing.TB) (openCorpora, lexemes, hunspell []family) {
	t.Helper()
	pos := map[string]string{}
	for _, f := range readTSV(t, "testdata/opencorpora/lemmas.tsv") {
		pos[f[0]] = f[1]
		openCorpora = appendFamily(openCorpora, family{lemma: f[0], pos: f[1], forms: strings.Fields(f[2])})
		lexemes = appendFamily(lexemes, family{lemma: f[0], pos: f[1], forms: strings.Fields(f[2] + " " + f[3])})
	}
	for _, f := range readTSV(t, "testdata/hunspell-forms.tsv") {
		hunspell = appendFamily(hunspell, family{lemma: f[0], pos: pos[f[0]], forms: strings.Fields(f[1])})
	}
	return openCorpora, lexemes, hunspell
}

func appendFamily(fs []family, f family) []family {
	var forms []string
	for _, w := range f.forms {
		w = Fold(w)
		if script(w) == cyrillic && !slices.Contains(forms, w) {
			forms = append(forms, w)
		}
	}
	if len(forms) < 2 {
		return fs
	}
	f.forms = forms
	return append(fs, f)
}

func readTSV(t testing.TB, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for line := range strings.Lines(string(data)) {
		if line = strings.TrimRight(line, "\r\n"); line != "" {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

// recall is the share of pairs of forms of one lemma that meet, pooled
// over all pairs and averaged over lemmas.
type recall struct {
	pooled, perLemma float64
	lemmas, pairs    int
}

func measureRecall(fs []family, pos string, key keyFunc) recall {
	var r recall
	met := 0
	for _, f := range fs {
		if pos != "" && f.pos != pos {
			continue
		}
		keys := make([]string, len(f.forms))
		for i, w := range f.forms {
			keys[i] = key(w)
		}
		pairs, fmet := 0, 0
		for i := range keys {
			for j := i + 1; j < len(keys); j++ {
				pairs++
				if SameLemma(keys[i], keys[j]) {
					fmet++
				}
			}
		}
		r.lemmas++
		r.pairs += pairs
		met += fmet
		r.perLemma += float64(fmet) / float64(pairs)
	}
	if r.lemmas > 0 {
		r.pooled = float64(met) / float64(r.pairs)
		r.perLemma /= float64(r.lemmas)
	}
	return r
}

// frequentWord is a frequent word of procurement text and its OpenCorpora
// lemmas, none when OpenCorpora lacks it.
type frequentWord struct {
	word   string
	lemmas []string
}

func readFrequentWords(t testing.TB) []frequentWord {
	var ws []frequentWord
	for _, f := range readTSV(t, "testdata/opencorpora/frequent-words.tsv") {
		w := frequentWord{word: Fold(f[0])}
		if len(f) > 2 && f[2] != "" {
			w.lemmas = strings.Split(f[2], ",")
		}
		ws = append(ws, w)
	}
	return ws
}

// falseMerges counts the pairs of words whose keys meet while they share
// no lemma: a word OpenCorpora lacks is its own lemma.
func falseMerges(ws []frequentWord, key keyFunc) (n int, examples []string) {
	keys := make([]string, len(ws))
	for i, w := range ws {
		keys[i] = key(w.word)
	}
	for i := range ws {
		for j := i + 1; j < len(ws); j++ {
			if !SameLemma(keys[i], keys[j]) || shareLemma(ws[i], ws[j]) {
				continue
			}
			n++
			if len(examples) < 12 {
				examples = append(examples, ws[i].word+"~"+ws[j].word)
			}
		}
	}
	return n, examples
}

func shareLemma(a, b frequentWord) bool {
	if len(a.lemmas) == 0 || len(b.lemmas) == 0 {
		return a.word == b.word
	}
	for _, l := range a.lemmas {
		if slices.Contains(b.lemmas, l) {
			return true
		}
	}
	return false
}

// TestMorphologyRecall holds the analysis to what users rely on: nouns
// and adjectives meet their other forms in 99% of pairs or more, on the
// forms of either dictionary, and the most frequent words of procurement
// text merge with other lemmas no more often than under Snowball alone.
func TestMorphologyRecall(t *testing.T) {
	openCorpora, _, hunspell := readFamilies(t)
	if len(openCorpora) < 300 || len(hunspell) < 300 {
		t.Fatalf("%d and %d word-form families, want 300 or more of each", len(openCorpora), len(hunspell))
	}
	for _, list := range []struct {
		name     string
		families []family
	}{{"OpenCorpora", openCorpora}, {"Hunspell", hunspell}} {
		for _, pos := range []string{"NOUN", "ADJF"} {
			r := measureRecall(list.families, pos, Default.Key)
			if r.pooled < 0.99 || r.perLemma < 0.99 {
				t.Errorf("%s %s: recall %.4f pooled, %.4f per lemma, want 0.99 or more", list.name, pos, r.pooled, r.perLemma)
			}
		}
	}
	words := readFrequentWords(t)
	before, _ := falseMerges(words, analyzers[0].key)
	after, examples := falseMerges(words, Default.Key)
	if after > before {
		t.Errorf("%d false merges among the %d most frequent words, Snowball alone has %d; some: %s",
			after, len(words), before, strings.Join(examples, " "))
	}
}

// BenchmarkMorphology prints the recall of every analysis on both lists, by
// part of speech, and the false merges among the most frequent words; then
// the cost of a key per word, side by side. Run with -bench Morphology -v.
func BenchmarkMorphology(b *testing.B) {
	openCorpora, lexemes, hunspell := readFamilies(b)
	words := readFrequentWords(b)
	var report strings.Builder
	fmt.Fprintf(&report, "\n%-9s %-12s %-5s %7s %7s %9s %9s\n", "analysis", "forms of", "pos", "lemmas", "pairs", "pooled", "per lemma")
	for _, a := range analyzers {
		for _, list := range []struct {
			name     string
			families []family
		}{{"OpenCorpora", openCorpora}, {"OC lexemes", lexemes}, {"Hunspell", hunspell}} {
			for _, pos := range []string{"NOUN", "ADJF", "VERB", ""} {
				r := measureRecall(list.families, pos, a.key)
				fmt.Fprintf(&report, "%-9s %-12s %-5s %7d %7d %8.2f%% %8.2f%%\n",
					a.name, list.name, cmpOr(pos, "all"), r.lemmas, r.pairs, 100*r.pooled, 100*r.perLemma)
			}
		}
		n, examples := falseMerges(words, a.key)
		fmt.Fprintf(&report, "%-9s false merges among the %d most frequent words: %d (%s)\n", a.name, len(words), n, strings.Join(examples, " "))
	}
	b.Log(report.String())
	var corpus []string
	for _, f := range openCorpora {
		corpus = append(corpus, f.forms...)
	}
	for _, w := range words {
		corpus = append(corpus, w.word)
	}
	for _, a := range analyzers {
		b.Run(a.name, func(b *testing.B) {
			for b.Loop() {
				for _, w := range corpus {
					a.key(w)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(corpus)), "ns/word")
		})
	}
}

func cmpOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
