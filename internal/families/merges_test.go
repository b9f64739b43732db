package families

import (
	"bufio"
	"cmp"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/russian"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/tenderbase/tenderbase/internal/textproc"
)

// The false merges that families add are measured on the words of real
// EIS text, against those Snowball's stemmer makes: the 2,000 most
// frequent Russian words of the text of the EIS files of ../shared/data
// (the text nodes of their XML: notices, protocols, contracts and their
// documents' descriptions), every pair of their lemmas that a family
// joins, and every pair of their lemmas that have one Snowball stem
// (дать, далее), each judged by reading in testdata/merges.tsv.

var writeMerges = flag.Bool("merges", false, "write the merged pairs of the frequent words, keeping the verdicts of testdata/merges.tsv, to testdata/merges.tsv")

var sharedData = filepath.Join("..", "..", "..", "shared", "data")

var eisFolders = []string{"eis44", "eis44-notices", "eis223", "eis44-unverified-templates"}

// frequentWords is how many of the most frequent words are measured.
const frequentWords = 2000

// frequentForms returns the most frequent Cyrillic words of the EIS
// text, most frequent first, with their keys.
func frequentForms(t *testing.T) []textproc.Token {
	t.Helper()
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("no shared data folder at %s: the merges are not measured", sharedData)
	}
	counts := map[textproc.Token]int{}
	for _, folder := range eisFolders {
		err := filepath.WalkDir(filepath.Join(sharedData, folder), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".xml") {
				return err
			}
			return eachText(path, func(text string) {
				for _, tok := range textproc.Analyze(text) {
					if cyrillicWord(tok.Form) {
						counts[tok]++
					}
				}
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	toks := slices.Collect(maps.Keys(counts))
	slices.SortFunc(toks, func(a, b textproc.Token) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a.Form, b.Form))
	})
	return toks[:min(frequentWords, len(toks))]
}

// eachText calls f with each text node of the XML file at path.
func eachText(path string, f func(string)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	dec := xml.NewDecoder(file)
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		enc, err := htmlindex.Get(label)
		if err != nil {
			return nil, err
		}
		return enc.NewDecoder().Reader(r), nil
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			f(string(cd))
		}
	}
}

func cyrillicWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if (r < 'а' || r > 'я') && r != 'ё' {
			return false
		}
	}
	return true
}

// merge is a pair of lemmas that a way of matching joins.
type merge struct {
	by   string // "family" or "snowball"
	a, b string // their most frequent forms, a < b
}

func (m merge) String() string { return m.by + " " + m.a + " " + m.b }

// lemmasFile lists the frequent words, most frequent first, each with
// its lemmas in the Hunspell dictionary (gen -words writes them).
const lemmasFile = "testdata/frequent-words.tsv"

// readLemmas reads lemmasFile.
func readLemmas(t *testing.T) (forms []string, lemmas map[string][]string) {
	t.Helper()
	data, err := os.ReadFile(lemmasFile)
	if err != nil {
		if os.IsNotExist(err) && *writeMerges {
			return nil, nil
		}
		t.Fatal(err)
	}
	lemmas = map[string][]string{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		form, ls, _ := strings.Cut(line, "\t")
		forms = append(forms, form)
		if ls != "" {
			lemmas[form] = strings.Split(ls, ",")
		}
	}
	return forms, lemmas
}

// merges returns the pairs of lemmas of the frequent words that families
// join, and those that Snowball cuts to one stem, sorted. Words of one
// lemma at least are one lemma; a word the dictionary lacks is the lemma
// of its key.
func merges(toks []textproc.Token, lemmas map[string][]string, f *Families) []merge {
	lemmasOf := func(tok textproc.Token) []string {
		if ls, ok := lemmas[tok.Form]; ok {
			return ls
		}
		return []string{"~" + tok.Stem}
	}
	type pair struct{ by, a, b string }
	seen := map[pair]bool{}
	var out []merge
	add := func(by string, a, b textproc.Token) {
		la, lb := strings.Join(lemmasOf(a), ","), strings.Join(lemmasOf(b), ",")
		p := pair{by, min(la, lb), max(la, lb)}
		if !seen[p] {
			// toks runs from the most frequent: the first forms seen of
			// a pair of lemmas are its most frequent.
			seen[p] = true
			out = append(out, merge{by, min(a.Form, b.Form), max(a.Form, b.Form)})
		}
	}
	for i, a := range toks {
		family := f.Family(a.Stem)
		for _, b := range toks[i+1:] {
			if slices.ContainsFunc(lemmasOf(a), func(l string) bool { return slices.Contains(lemmasOf(b), l) }) {
				continue
			}
			if !textproc.SameLemma(a.Stem, b.Stem) && slices.ContainsFunc(family, func(k string) bool { return textproc.SameLemma(k, b.Stem) }) {
				add("family", a, b)
			}
			if snowballStem(a.Form) == snowballStem(b.Form) {
				add("snowball", a, b)
			}
		}
	}
	slices.SortFunc(out, func(x, y merge) int { return strings.Compare(x.String(), y.String()) })
	return out
}

func snowballStem(form string) string {
	env := snowballstem.NewEnv(form)
	russian.Stem(env)
	return env.Current()
}

// verdict is a judged pair: related in root and meaning, or a false merge.
type verdict struct {
	related bool
	note    string
}

const mergesFile = "testdata/merges.tsv"

// readVerdicts reads the judged pairs: "by a b related|false note",
// split by tabs; # starts a comment.
func readVerdicts(t *testing.T) map[merge]verdict {
	t.Helper()
	out := map[merge]verdict{}
	f, err := os.Open(mergesFile)
	if os.IsNotExist(err) && *writeMerges {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 4 {
			t.Fatalf("%s:%d: want by, a, b, verdict and a note split by tabs", mergesFile, n)
		}
		m := merge{fs[0], fs[1], fs[2]}
		switch fs[3] {
		case "related", "false":
		case "":
			if !*writeMerges {
				t.Fatalf("%s:%d: %s is not judged", mergesFile, n, m)
			}
		default:
			t.Fatalf("%s:%d: verdict %q, want related or false", mergesFile, n, fs[3])
		}
		note := ""
		if len(fs) > 4 {
			note = fs[4]
		}
		out[m] = verdict{related: fs[3] == "related", note: note}
		if fs[3] == "" {
			delete(out, m)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Families join no more unrelated lemmas of the frequent words of real
// EIS text than Snowball's stemmer does: every pair either joins is
// judged in testdata/merges.tsv, and the false ones are counted.
func TestFalseMerges(t *testing.T) {
	toks := frequentForms(t)
	forms, lemmas := readLemmas(t)
	if *writeMerges && !slices.EqualFunc(forms, toks, func(f string, tok textproc.Token) bool { return f == tok.Form }) {
		writeForms(t, toks, lemmas)
		t.Logf("wrote the frequent words to %s; run go generate to give them their lemmas, then this again", lemmasFile)
		return
	}
	if !slices.EqualFunc(forms, toks, func(f string, tok textproc.Token) bool { return f == tok.Form }) {
		t.Fatalf("%s does not list the %d most frequent words of the EIS text: run go test -run TestFalseMerges -args -merges, go generate, and judge the new pairs", lemmasFile, frequentWords)
	}
	ms := merges(toks, lemmas, Default())
	verdicts := readVerdicts(t)
	if *writeMerges {
		writeVerdicts(t, ms, verdicts)
		return
	}
	falses := map[string]int{}
	all := map[string]int{}
	for _, m := range ms {
		v, ok := verdicts[m]
		if !ok {
			t.Errorf("%s is not judged in %s: judge it (go test -run TestFalseMerges -args -merges writes it there unjudged)", m, mergesFile)
			continue
		}
		all[m.by]++
		if !v.related {
			falses[m.by]++
		}
	}
	t.Logf("the %d most frequent words: families join %d pairs of lemmas, %d of them falsely; Snowball joins %d, %d of them falsely",
		len(toks), all["family"], falses["family"], all["snowball"], falses["snowball"])
	if falses["family"] > falses["snowball"] {
		t.Errorf("families make %d false merges, more than Snowball's %d", falses["family"], falses["snowball"])
	}
}

// writeForms writes the frequent words to lemmasFile, with the lemmas
// known of them.
func writeForms(t *testing.T, toks []textproc.Token, lemmas map[string][]string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# The %d most frequent Russian words of the text of the EIS files of ../shared/data, most frequent first,\n", frequentWords)
	b.WriteString("# and their lemmas in the Hunspell dictionary (gen -words writes them; none: the dictionary lacks the word).\n")
	for _, tok := range toks {
		fmt.Fprintf(&b, "%s\t%s\n", tok.Form, strings.Join(lemmas[tok.Form], ","))
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lemmasFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeVerdicts writes the pairs ms, with their verdicts where judged.
func writeVerdicts(t *testing.T, ms []merge, verdicts map[merge]verdict) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# Pairs of lemmas among the %d most frequent Russian words of the EIS text (%s)\n", frequentWords, lemmasFile)
	b.WriteString("# that families join (family) or that Snowball's stemmer cuts to one stem (snowball), each judged by reading:\n")
	b.WriteString("# related (one root and meaning: a search for one wants the other) or false (a false merge). TestFalseMerges counts them.\n")
	b.WriteString("# by\ta\tb\tverdict\tnote\n")
	for _, m := range ms {
		v, ok := verdicts[m]
		verdict := ""
		if ok {
			verdict = "false"
			if v.related {
				verdict = "related"
			}
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", m.by, m.a, m.b, verdict, v.note)
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mergesFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
