// Command gen writes the word families of package families from
// DerivBase.Ru (Daniil Vodolazsky, "DerivBase.Ru: A Derivational Morphology
// Resource for Russian", LREC 2020; Apache License 2.0): the derivational
// links its rules, taken from the Russian Grammar of 1980, found between
// the lexemes of the Russian Wiktionary, as its repository publishes them
// (data/wiktionary/v001.00-connections.zip, a pinned commit, checked
// against its SHA-256 before it is read). It runs from go:generate in that
// package.
//
// Of the links, it keeps those between a noun and its relative adjective
// (кровля, кровельный; тепло, тепловой; онкология, онкологический;
// строительство, строительный), in either direction, and the adjectives
// that a prefix of topic makes of one (опухолевый, противоопухолевый);
// not the other derivations (agents, diminutives, qualities, verbs,
// negations), whose words mean something else. Both words of a link must
// be lemmas of the Russian Hunspell dictionary that textproc keys words by
// (the same pinned package as textproc/gen reads), so that a family is
// keyed as the analyzer keys its words. A word's family is the words it is
// linked to (family says which).
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase/internal/hunspell"
	"github.com/tenderbase/tenderbase/internal/hunspell/dictru"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// The derivational links and their checksum.
const (
	derivBaseCommit = "0f246dc0ba7886e5dca76ab9a730b2a4a9995ae2"
	derivBasePath   = "data/wiktionary/v001.00-connections.zip"
	derivBaseURL    = "https://raw.githubusercontent.com/s231644/DerivBaseRu/" + derivBaseCommit + "/" + derivBasePath
	derivBaseSHA256 = "f92563d0d2a3f3a1d0f1c499e2021b6f85773db139f9f34aaf2b5f171d4297dc"
)

// keptRules are the DerivBase.Ru rules whose links make a family, by the
// rule's number. The noun's relative adjective: -н- (кровля, кровельный;
// лекарство, лекарственный), -ск- (онкология, онкологический), -ов-
// (тепло, тепловой); the noun an adjective is made from with no suffix
// (компьютерный, компьютер), which are the same pairs seen from the
// adjective; and the noun of -ств(о) an adjective names (строительный,
// строительство). Left out, among others: -ий (лежак, лежачий), -ан-
// (леди, ледяной), -ианск- (венец, венецианский), -ин- and the nouns of
// qualities, agents and things (-ость, -ник, -щик, -ка), which name
// another thing than their base.
var keptRules = map[string]string{
	"rule619": "noun + н(ый) -> adj",
	"rule630": "noun + ск(ий) -> adj",
	"rule628": "noun + ов(ый) -> adj",
	"rule458": "adj - ый -> noun (ж.)",
	"rule459": "adj - ый -> noun (м.)",
	"rule460": "adj - ый -> noun (м.)",
	"rule461": "adj - ый -> noun (ж.)",
	"rule317": "adj + ств(о) -> noun",
}

// topicPrefixes are the rules of prefixed adjectives that keep their
// base's topic: противо- (противоопухолевый), анти- (антикоррозийный),
// внутри- (внутривенный), меж- (межрегиональный). The others negate
// (не-, без-), grade (сверх-, пре-) or move in time (до-, после-), and
// make a word of another meaning.
var topicPrefixes = map[string]string{
	"rule710": "противо",
	"rule684": "анти",
	"rule688": "внутри",
	"rule694": "меж",
}

func main() {
	out := flag.String("o", "families.txt.gz", "family table to write")
	links := flag.String("links", "", "DerivBase.Ru's "+derivBasePath+" to read instead of downloading it; it is checked all the same")
	tgz := flag.String("dict", "", "the dictionary package (.tgz) to read instead of downloading it; it is checked all the same")
	words := flag.String("words", "", "a TSV whose first column lists words: write them again with their lemmas in the dictionary, comma-separated, as its second column")
	flag.Parse()
	if err := run(*out, *links, *tgz, *words); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, linksPath, tgz, words string) error {
	lemmas, formLemmas, err := dictionaryLemmas(tgz)
	if err != nil {
		return err
	}
	if words != "" {
		if err := writeLemmas(words, formLemmas); err != nil {
			return err
		}
	}
	data, err := read(linksPath, derivBaseURL)
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != derivBaseSHA256 {
		return fmt.Errorf("%s has SHA-256 %x, want %s", derivBasePath, sum, derivBaseSHA256)
	}
	ls, read, err := readLinks(data)
	if err != nil {
		return err
	}
	p, kept := family(ls, lemmas)
	if err := write(out, p); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: %d links read, %d kept between lemmas of the dictionary; %d pairs of words of two lemmas\n", read, kept, len(p))
	return nil
}

// link is one derivation of DerivBase.Ru.
type link struct {
	from, to string
	rule     string // the rule's number, "rule619"
}

func keeps(l link) bool {
	_, ok := keptRules[l.rule]
	_, prefix := topicPrefixes[l.rule]
	return ok || prefix
}

// transparent reports whether the words of a link are one stem to a
// reader: the rules of DerivBase.Ru derive a word from any word its
// letters fit (какой, качество; средний, средство; и, иной), and of
// those pairs the ones of one root keep the shorter word's stem whole,
// but for its last letter (дорога, дорожный: г, ж), a fleeting vowel
// (ковёр, ковровый) or -ция's ц (администрация, административный), and
// stems of three letters or fewer are too short to tell (лицо, личный;
// общий, общество). A prefixed adjective is its prefix and its base. A
// participle is no relative adjective (participle), nor is an adjective
// that lacks the -к- of its noun (dropsK). An adjective's noun of -ство
// is made of an adjective of -ский or -тельный (строительный,
// строительство; мещанский, мещанство), as the Russian Grammar has it.
func transparent(l link) bool {
	if prefix, ok := topicPrefixes[l.rule]; ok {
		// The prefix is put before the whole adjective.
		return l.to == prefix+l.from
	}
	if l.rule == "rule317" && !(strings.HasSuffix(l.from, "ский") || strings.HasSuffix(l.from, "ельный")) {
		return false
	}
	if participle(l.from, l.to) || participle(l.to, l.from) {
		return false
	}
	if dropsK(l.from, l.to) || dropsK(l.to, l.from) {
		return false
	}
	a, b := []rune(stemOf(l.from)), []rune(stemOf(l.to))
	if len(a) > len(b) {
		a, b = b, a
	}
	fits := func(short []rune) bool {
		return len(short) >= minStem && commonPrefix(short, b) >= max(minStem-1, len(short)-1)
	}
	if fits(a) {
		return true
	}
	// -ция, -тивный: администрация, административный.
	if n := len(a); n > 2 && string(a[n-2:]) == "ци" && fits(append(slices.Clone(a[:n-2]), 'т', 'и')) {
		return true
	}
	// A fleeting vowel in the last syllable: ковёр, ковровый.
	if n := len(a); n > 2 && (a[n-2] == 'е' || a[n-2] == 'о') {
		return fits(append(slices.Clone(a[:n-2]), a[n-1]))
	}
	return false
}

// participle reports whether adj is the participle of the verb of the
// noun of action noun (обоснование, обоснованный; надевание, надеванный):
// a word of the verb, not the noun's relative adjective, which is of
// -тельный or -ческий (образование, образовательный).
func participle(noun, adj string) bool {
	return (strings.HasSuffix(noun, "ние") || strings.HasSuffix(noun, "тие")) &&
		(strings.HasSuffix(adj, "нный") || strings.HasSuffix(adj, "тый"))
}

// dropsK reports whether adj lacks the -к- of noun, a noun of -ка: it is
// then the adjective of the word without it (дорожка, дорожный: дорога;
// рамка, рамный: рама; уборка, уборный: уборная), while the adjective of
// the noun keeps its к or ч (дорожка, дорожечный; уборка, уборочный).
func dropsK(noun, adj string) bool {
	if !strings.HasSuffix(noun, "ка") || stemOf(adj) == adj {
		return false
	}
	i := len([]rune(noun)) - 2 // the к
	a := []rune(adj)
	if len(a) < i+2 {
		return true
	}
	c, next := a[i], a[i+1]
	return c != 'к' && c != 'ч' && !((c == 'о' || c == 'е') && (next == 'к' || next == 'ч'))
}

// minStem is the fewest letters of the shorter stem of a link; all but
// its last, and three at least, begin the other word.
const minStem = 4

// stemOf returns a lemma without its ending: an adjective's -ый, -ий,
// -ой, a noun's last vowel or soft sign.
func stemOf(w string) string {
	for _, end := range []string{"ый", "ий", "ой"} {
		if s, ok := strings.CutSuffix(w, end); ok {
			return s
		}
	}
	r := []rune(w)
	if n := len(r); n > 0 && strings.ContainsRune("аяоеьйиы", r[n-1]) {
		return string(r[:n-1])
	}
	return w
}

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// readLinks reads the tables of the archive: "word_s pos_s word_d pos_d
// rule_id der_type", split by tabs, with a header line.
func readLinks(archive []byte) ([]link, int, error) {
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", derivBasePath, err)
	}
	var out []link
	n := 0
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".csv") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return nil, 0, fmt.Errorf("%s %s: %w", derivBasePath, f.Name, err)
		}
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			fields := strings.Split(strings.TrimPrefix(sc.Text(), "\ufeff"), "\t")
			if len(fields) != 6 || fields[0] == "word_s" {
				continue
			}
			n++
			rule, _, _ := strings.Cut(fields[4], "(")
			out = append(out, link{from: textproc.Fold(fields[0]), to: textproc.Fold(fields[2]), rule: rule})
		}
		r.Close()
		if err := sc.Err(); err != nil {
			return nil, 0, fmt.Errorf("%s %s: %w", derivBasePath, f.Name, err)
		}
	}
	return out, n, nil
}

// links are the pairs of words a kept derivation links, each once.
type pairs map[[2]string]bool

func (p pairs) add(a, b string) {
	if a != b {
		p[[2]string{min(a, b), max(a, b)}] = true
	}
}

// family builds the pairs of the links kept: a word and the word it is
// derived from, or derived from it; and a prefixed adjective with its
// base's pairs too (противоопухолевый with опухолевый and опухоль), since
// it names what its base names. A pair whose words have one key to the
// analyzer (forms of one lemma) is left out. Words are not linked through
// a third: тепличный is derived from теплица and, by the rules, from
// тепло, and тепло and теплица stay apart.
func family(ls []link, lemmas map[string]bool) (pairs, int) {
	p := pairs{}
	base := map[string][]string{} // a prefixed adjective's bases
	kept := 0
	for _, l := range ls {
		if !keeps(l) || !lemmas[l.from] || !lemmas[l.to] || l.from == l.to || !transparent(l) {
			continue
		}
		kept++
		if _, ok := topicPrefixes[l.rule]; ok {
			base[l.to] = append(base[l.to], l.from)
		}
		p.add(l.from, l.to)
	}
	for prefixed, bases := range base {
		for _, b := range bases {
			for pair := range p {
				if pair[0] == b && pair[1] != prefixed {
					p.add(prefixed, pair[1])
				} else if pair[1] == b && pair[0] != prefixed {
					p.add(prefixed, pair[0])
				}
			}
		}
	}
	for pair := range p {
		if textproc.Stem(pair[0]) == textproc.Stem(pair[1]) {
			delete(p, pair)
		}
	}
	return p, kept
}

// write writes the pairs, a pair a line split by a tab, sorted.
func write(path string, p pairs) error {
	lines := make([]string, 0, len(p))
	for pair := range p {
		lines = append(lines, pair[0]+"\t"+pair[1])
	}
	slices.Sort(lines)
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	for _, l := range lines {
		fmt.Fprintln(zw, l)
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// dictionaryLemmas returns the lemmas of the Hunspell dictionary in small
// letters (a proper name is left out), folded as textproc folds a word,
// and the lemmas of each form, proper names' too.
func dictionaryLemmas(path string) (map[string]bool, map[string][]string, error) {
	aff, words, err := dictru.Read(path)
	if err != nil {
		return nil, nil, err
	}
	lemmas := map[string]bool{}
	formLemmas := map[string][]string{}
	err = aff.ReadWords(bytes.NewReader(words), func(e hunspell.Entry) error {
		lemma := textproc.Fold(e.Word)
		if e.Word == strings.ToLower(e.Word) {
			lemmas[lemma] = true
		}
		for _, f := range e.Forms {
			f = textproc.Fold(f)
			if !slices.Contains(formLemmas[f], lemma) {
				formLemmas[f] = append(formLemmas[f], lemma)
			}
		}
		return nil
	})
	return lemmas, formLemmas, err
}

// writeLemmas rewrites the TSV at path with the lemmas of the word of its
// first column as its second: the measure of false merges (merges_test.go)
// tells by them the forms of two lemmas from those of one.
func writeLemmas(path string, formLemmas map[string][]string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var b strings.Builder
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" || strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
			continue
		}
		word, _, _ := strings.Cut(line, "\t")
		ls := slices.Sorted(slices.Values(formLemmas[word]))
		fmt.Fprintf(&b, "%s\t%s\n", word, strings.Join(ls, ","))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// read returns the bytes of the file at path, or downloaded from url when
// path is empty.
func read(path, url string) ([]byte, error) {
	if path != "" {
		return os.ReadFile(path)
	}
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Get(url)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download %s: %s", url, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 64<<20))
}
