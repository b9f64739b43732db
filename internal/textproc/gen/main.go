// Command gen writes the lemma table of package textproc from the Russian
// Hunspell dictionary of LibreOffice (Alexander Lebedev's ru_RU, BSD
// license), as the npm package dictionary-ru publishes it: a pinned version,
// checked against its published SHA-512 before it is read. It runs from
// go:generate in that package.
//
// Every word of the dictionary's list is a lemma, and the key of a lemma is
// the Russian Snowball stem most of its forms have (the lemma's own on a
// tie): "охрана" is cut to "охра" but охраны, охране, охрану, охраной to
// "охран", its key. The table holds the forms whose keys are not their own
// Snowball stem: forms Snowball cuts otherwise than most of their lemma's
// ("поставок", "охрана"), and forms of two lemmas or more (homographs) with
// every key. Every other form of the dictionary gets the right key from
// Snowball at run time, so the table stays small; and a form the dictionary
// lacks ("охранами") most likely has the key of its lemma's forms too.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/russian"

	"github.com/tenderbase/tenderbase/internal/hunspell"
)

// The dictionary's package and its published integrity.
const (
	dictionaryURL       = "https://registry.npmjs.org/dictionary-ru/-/dictionary-ru-3.0.0.tgz"
	dictionaryIntegrity = "sha512-tigem0CDnNpxEciW6ktwVH3wWB4FYpuvpwA6IR6UlF7bVu2kez6vOejVNyZgBX1TJIjuYTCTuLxzg/YOls2mRQ=="
)

func main() {
	out := flag.String("o", "lemmas.txt.gz", "lemma table to write")
	tgz := flag.String("dict", "", "the dictionary package (.tgz) to read instead of downloading it; it is checked all the same")
	lemmas := flag.String("lemmas", "", "a TSV whose first column lists lemmas: write their Hunspell forms to -forms")
	forms := flag.String("forms", "", "file for the forms of -lemmas")
	flag.Parse()
	if err := run(*out, *tgz, *lemmas, *forms); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, tgz, lemmaList, formsOut string) error {
	pkg, err := dictionaryPackage(tgz)
	if err != nil {
		return err
	}
	files, err := untar(pkg, "package/index.aff", "package/index.dic")
	if err != nil {
		return err
	}
	aff, err := hunspell.ReadAffixes(bytes.NewReader(files["package/index.aff"]))
	if err != nil {
		return err
	}
	t := newTable()
	if err := aff.ReadWords(bytes.NewReader(files["package/index.dic"]), t.add); err != nil {
		return err
	}
	if err := writeTable(out, t); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: %d lemmas, %d forms, %d in the table (%d of two lemmas or more)\n",
		t.lemmas, len(t.keys), t.exceptions(), t.homographs())
	if lemmaList == "" {
		return nil
	}
	return writeForms(lemmaList, formsOut, t)
}

// dictionaryPackage returns the bytes of the dictionary package, read from
// path or downloaded, after checking them against dictionaryIntegrity.
func dictionaryPackage(path string) ([]byte, error) {
	var data []byte
	var err error
	if path != "" {
		data, err = os.ReadFile(path)
	} else {
		data, err = download(dictionaryURL)
	}
	if err != nil {
		return nil, err
	}
	sum := sha512.Sum512(data)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != dictionaryIntegrity {
		return nil, fmt.Errorf("dictionary package has integrity %s, want %s", got, dictionaryIntegrity)
	}
	return data, nil
}

func download(url string) ([]byte, error) {
	client := &http.Client{Timeout: 2 * time.Minute}
	resp, err := client.Get(url)
	if err != nil {
		return nil, fmt.Errorf("download the dictionary: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download the dictionary: %s from %s", resp.Status, url)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 64<<20))
}

// untar returns the named files of a gzipped tar archive.
func untar(tgz []byte, names ...string) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, fmt.Errorf("dictionary package: %w", err)
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("dictionary package: %w", err)
		}
		if slices.Contains(names, h.Name) {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				return nil, fmt.Errorf("dictionary package %s: %w", h.Name, err)
			}
		}
	}
	for _, n := range names {
		if files[n] == nil {
			return nil, fmt.Errorf("dictionary package has no %s", n)
		}
	}
	return files, nil
}

// table is every form of the dictionary with the keys of its lemmas.
type table struct {
	keys   map[string][]string
	forms  map[string][]string // forms by lemma
	lemmas int
}

func newTable() *table {
	return &table{keys: map[string][]string{}, forms: map[string][]string{}}
}

// add takes in a word of the list. Words that are not Cyrillic letters
// alone (hyphenated, with an apostrophe) are left out: the analyzer splits
// them into words of their own.
func (t *table) add(e hunspell.Entry) error {
	lemma := fold(e.Word)
	if !cyrillic(lemma) {
		return nil
	}
	t.lemmas++
	var forms []string
	adjective := declinedAsAdjective(lemma, e.Forms)
	for _, f := range e.Forms {
		if f = fold(f); cyrillic(f) && (!adjective || adjectival(f)) {
			forms = append(forms, f)
		}
	}
	key := majorityStem(lemma, forms)
	for _, f := range forms {
		if !slices.Contains(t.keys[f], key) {
			t.keys[f] = append(t.keys[f], key)
		}
		if !slices.Contains(t.forms[lemma], f) {
			t.forms[lemma] = append(t.forms[lemma], f)
		}
	}
	return nil
}

// fullAdjectiveEndings are the endings of the full forms of adjectives and
// participles, reflexive ones included.
var fullAdjectiveEndings = []string{
	"ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие", "ого", "его", "ому", "ему",
	"ым", "им", "ом", "ем", "ую", "юю", "ою", "ею", "ых", "их", "ыми", "ими",
}

// adjectival reports whether a word has the ending of a full adjective or
// participle. The short forms of an adjective (федерален, изменена) are
// left out of its lemma: they keep their own Snowball stem, as they are a
// part of speech of their own, and joining them to the full forms made
// "изменен" meet "изменение", which Snowball keeps apart.
func adjectival(w string) bool {
	w = strings.TrimSuffix(w, "ся")
	for _, e := range fullAdjectiveEndings {
		if strings.HasSuffix(w, e) && len(w) > len(e) {
			return true
		}
	}
	return false
}

// declinedAsAdjective reports whether a word of the list is an adjective
// or a participle: its forms have the genitive of one (новый, нового;
// пересекшийся, пересекшегося).
func declinedAsAdjective(lemma string, forms []string) bool {
	base, reflexive := strings.CutSuffix(lemma, "ся")
	suffix := ""
	if reflexive {
		suffix = "ся"
	}
	for _, nom := range []string{"ый", "ий", "ой"} {
		if stem, ok := strings.CutSuffix(base, nom); ok && stem != "" {
			for _, f := range forms {
				f = fold(f)
				if f == stem+"ого"+suffix || f == stem+"его"+suffix {
					return true
				}
			}
		}
	}
	return false
}

// majorityStem returns the Snowball stem most of a lemma's forms have; on
// a tie the lemma's own when it is among the most common, else the
// shortest, then the first in order.
func majorityStem(lemma string, forms []string) string {
	count := map[string]int{}
	most := 0
	for _, f := range forms {
		s := stem(f)
		count[s]++
		most = max(most, count[s])
	}
	own := stem(lemma)
	if count[own] == most {
		return own
	}
	var tied []string
	for s, n := range count {
		if n == most {
			tied = append(tied, s)
		}
	}
	slices.SortFunc(tied, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return tied[0]
}

// exception reports whether a form's keys are other than its own stem.
func (t *table) exception(form string) bool {
	keys := t.keys[form]
	return len(keys) != 1 || keys[0] != stem(form)
}

func (t *table) exceptions() int {
	n := 0
	for f := range t.keys {
		if t.exception(f) {
			n++
		}
	}
	return n
}

func (t *table) homographs() int {
	n := 0
	for _, keys := range t.keys {
		if len(keys) > 1 {
			n++
		}
	}
	return n
}

// writeTable writes the exceptions, one a line, "form TAB key,key", in
// order of the form, gzipped.
func writeTable(path string, t *table) error {
	var lines []string
	for f, keys := range t.keys {
		if t.exception(f) {
			keys = slices.Clone(keys)
			slices.Sort(keys)
			lines = append(lines, f+"\t"+strings.Join(keys, ","))
		}
	}
	slices.Sort(lines)
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeForms writes, for each lemma in the first column of the TSV at
// list, "lemma TAB forms" with its Hunspell forms space-separated in order,
// or nothing after the tab when the dictionary lacks it.
func writeForms(list, out string, t *table) error {
	data, err := os.ReadFile(list)
	if err != nil {
		return err
	}
	var b strings.Builder
	for line := range strings.Lines(string(data)) {
		lemma, _, _ := strings.Cut(strings.TrimSpace(line), "\t")
		if lemma == "" {
			continue
		}
		forms := slices.Clone(t.forms[lemma])
		slices.Sort(forms)
		b.WriteString(lemma + "\t" + strings.Join(forms, " ") + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// fold lowercases a word and folds ё to е, as textproc.Fold does to a
// Cyrillic word.
func fold(w string) string {
	return strings.ReplaceAll(strings.ToLower(w), "ё", "е")
}

// cyrillic reports whether a folded word is Russian letters alone.
func cyrillic(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if r < 'а' || r > 'я' {
			return false
		}
	}
	return true
}

// stem is textproc's key of a Cyrillic word without the table: its Russian
// Snowball stem.
func stem(w string) string {
	env := snowballstem.NewEnv(w)
	russian.Stem(env)
	return env.Current()
}
