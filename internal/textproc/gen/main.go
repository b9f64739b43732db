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
//
// Before keying, the list is mended where it keys a lemma's forms apart
// or another lemma's together (table.build): forms with a fleeting vowel
// that it lists as words of their own (окон, уголь) are joined to their
// lemma, nouns it has in the singular alone get their genitive plural
// (топлив), and a verb whose forms mostly have another word's stem (деть,
// дел like дело) gets a key of its own.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/russian"

	"github.com/tenderbase/tenderbase/internal/hunspell"
	"github.com/tenderbase/tenderbase/internal/hunspell/dictru"
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
	aff, words, err := dictru.Read(tgz)
	if err != nil {
		return err
	}
	t := newTable()
	if err := aff.ReadWords(bytes.NewReader(words), t.add); err != nil {
		return err
	}
	t.build()
	if err := writeTable(out, t); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: %d lemmas, %d forms, %d in the table (%d of two lemmas or more); %d words of one form joined to their lemma, %d genitive plurals added, %d lemmas keyed by their own word\n",
		t.lemmas, len(t.keys), t.exceptions(), t.homographs(), t.attached, t.pluralsAdded, t.ownKeys)
	if lemmaList == "" {
		return nil
	}
	return writeForms(lemmaList, formsOut, t)
}

// table is every form of the dictionary with the keys of its lemmas.
type table struct {
	entries []entry             // the lemmas of the list, as read
	keys    map[string][]string // a form's keys, once built
	forms   map[string][]string // forms by lemma
	lemmas  int
	// What build did to the list, for the report.
	attached, pluralsAdded, ownKeys int
}

// entry is a word of the list and its forms.
type entry struct {
	lemma  string
	forms  []string
	proper bool // a name, written capitalized in the list
	// joined are the words of the list build joins to the lemma, and
	// added the forms it adds; they take the lemma's key without a say in
	// it.
	joined, added []string
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
	if len(forms) > 0 {
		t.entries = append(t.entries, entry{lemma: lemma, forms: forms, proper: e.Word != strings.ToLower(e.Word)})
	}
	return nil
}

// build keys every form of the list read: it joins the forms the list
// gives as words of their own to the lemma they are a form of
// (attachFleetingVowels), adds the genitive plural the list lacks
// (addGenitivePlurals), keys each lemma by its forms' majority stem, and
// gives a lemma whose majority stem is another lemma's key and not its own
// word's a key of its own (lemmaMark).
func (t *table) build() {
	t.attachFleetingVowels()
	t.addGenitivePlurals()
	keys := make([]string, len(t.entries))
	byKey := map[string][]entry{} // the lemmas of a key
	for i, e := range t.entries {
		keys[i] = majorityStem(e.lemma, e.forms)
		byKey[keys[i]] = append(byKey[keys[i]], e)
	}
	for i, e := range t.entries {
		key := keys[i]
		if verb(e) && !prefixed(key, stem(e.lemma)) && slices.ContainsFunc(byKey[key], t.nominal) {
			key = e.lemma + lemmaMark
			t.ownKeys++
		}
		for _, f := range slices.Concat(e.forms, e.joined, e.added) {
			if !slices.Contains(t.keys[f], key) {
				t.keys[f] = append(t.keys[f], key)
			}
			if !slices.Contains(e.added, f) && !slices.Contains(t.forms[e.lemma], f) {
				t.forms[e.lemma] = append(t.forms[e.lemma], f)
			}
		}
	}
}

// lemmaMark ends the key a lemma is given when its forms' majority stem is
// another lemma's key too and is not its own word's stem cut otherwise: the
// past forms of деть (дел, дела) have the stem of дело, and keyed by it
// every form of деть (денут, дену) met делу, делом, which Snowball keeps
// apart; дать (дал, дала) met далее. Such a lemma is keyed by its own word
// and this mark, a private-use character that no word holds, so that its
// key is no other word's; a form it shares with the other lemma (дела) is
// a homograph of both.
const lemmaMark = "\ue003"

// prefixed reports whether one of two stems begins the other: a lemma
// whose majority stem begins or extends its own word's stem (охрана, cut
// to охра, keyed охран) is keyed by the stem its forms share, while one
// whose majority stem is another word (деть, cut to дет, keyed дел) is not.
func prefixed(a, b string) bool {
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// attachFleetingVowels joins to their lemma the forms with a fleeting
// vowel that the list gives as words of their own, without flags: the
// list has окно with its forms окна, окну... but its genitive plural окон
// alone, and so масел beside масло, кровель beside кровля, уголь beside
// угля. Keyed as lemmas of one form, they kept their own Snowball stem
// (окон, масел, кровел, угол) and never met their other forms (окн, масл,
// кровл, угл). A word of one form whose last vowel is о, е or ё between
// consonants at its end (and a soft sign) is such a form of the lemmas
// that have the word without that vowel, followed by а, я, ы or и, among
// their forms, when the list declines that stem as a noun's (nounEndings).
func (t *table) attachFleetingVowels() {
	byForm := map[string][]int{} // the entries that have a form, verbs left out
	for i, e := range t.entries {
		if verb(e) {
			continue
		}
		for _, f := range e.forms {
			byForm[f] = append(byForm[f], i)
		}
	}
	var alone []bool // the entries joined to others, to drop
	alone = make([]bool, len(t.entries))
	for i, e := range t.entries {
		if len(e.forms) != 1 || nounStem(byForm, strings.TrimSuffix(e.lemma, "ь"), i) != nil {
			// A word of more forms, or one whose stem the list declines
			// as it is (тел, потерь: тела, потеря), which Snowball keys
			// with its lemma already.
			continue
		}
		bare, ok := withoutFleetingVowel(e.lemma)
		if !ok {
			continue
		}
		targets := nounStem(byForm, bare, i)
		for _, j := range targets {
			t.entries[j].joined = append(t.entries[j].joined, e.lemma)
		}
		if len(targets) > 0 {
			alone[i] = true
			t.attached++
		}
	}
	kept := t.entries[:0]
	for i, e := range t.entries {
		if !alone[i] {
			kept = append(kept, e)
		}
	}
	t.entries = kept
}

// nounStem returns the entries other than self that have a stem's forms
// in а, я, ы or и, when the list has the stem with two nounEndings or
// more; nil otherwise.
func nounStem(byForm map[string][]int, stem string, self int) []int {
	n := 0
	for _, end := range nounEndings {
		if len(byForm[stem+end]) > 0 {
			n++
		}
	}
	if n < 2 {
		return nil
	}
	var targets []int
	for _, end := range []string{"а", "я", "ы", "и"} {
		for _, j := range byForm[stem+end] {
			if j != self && !slices.Contains(targets, j) {
				targets = append(targets, j)
			}
		}
	}
	return targets
}

// nounEndings are endings of oblique cases that only a noun's forms have:
// a word is taken for a fleeting vowel's form only when the list has its
// stem with two of these (окном, окнах; углем, углей), so that затем is
// not taken for a form of затмить (затми), nor дел for one of для; a
// verb's forms are not looked at (зорь is not a form of зреть, зрей).
var nounEndings = []string{"ом", "ем", "ой", "ей", "ам", "ям", "ах", "ях", "ами", "ями"}

// withoutFleetingVowel returns a word whose last vowel is о, е or ё
// between two consonants at its end without that vowel and its final soft
// sign (окон is окн, кровель кровл), or false for a word of another shape.
func withoutFleetingVowel(w string) (string, bool) {
	r := []rune(strings.TrimSuffix(w, "ь"))
	n := len(r)
	if n < 3 || !consonant(r[n-1]) || !strings.ContainsRune("оеё", r[n-2]) || !consonant(r[n-3]) {
		return "", false
	}
	return string(r[:n-2]) + string(r[n-1]), true
}

// addGenitivePlurals adds the genitive plural of the nouns the list has in
// the singular alone, where it is the word without its final о or а:
// топливо and охрана have no plural in the list, but procurement text
// speaks of «видов топлив», and Snowball cuts топлив to топл, which no
// other form of топливо has. Only a noun whose stem ends in a vowel and a
// consonant is given one, since a stem ending in two consonants takes a
// fleeting vowel that the word does not show (масло, масел); a word that
// is a form of some lemma of the list already is not added, nor the
// plural of a name (Гаага, Тула).
func (t *table) addGenitivePlurals() {
	known := map[string]bool{}
	for _, e := range t.entries {
		for _, f := range e.forms {
			known[f] = true
		}
	}
	for i, e := range t.entries {
		r := []rune(e.lemma)
		n := len(r)
		if e.proper || n < 4 || len(e.forms) < 3 || (r[n-1] != 'о' && r[n-1] != 'а') || !consonant(r[n-2]) || r[n-2] == 'й' || consonant(r[n-3]) || r[n-3] == 'ь' || r[n-3] == 'ъ' {
			continue
		}
		bare := string(r[:n-1])
		if known[bare] || slices.ContainsFunc(e.forms, plural(bare)) {
			continue
		}
		t.entries[i].added = append(t.entries[i].added, bare)
		t.pluralsAdded++
	}
}

// plural returns whether a form of a noun of the given stem is a plural
// one: the dative or instrumental plural, which a noun that has a plural
// has.
func plural(stem string) func(string) bool {
	return func(f string) bool {
		return f == stem+"ам" || f == stem+"ами" || f == stem+"ям" || f == stem+"ями"
	}
}

// verb reports whether a word of the list is a verb: an infinitive with
// personal forms (дать, дашь).
func verb(e entry) bool {
	return slices.ContainsFunc([]string{"ть", "ти", "чь", "ться", "тись", "чься"}, suffixOf(e.lemma)) &&
		slices.ContainsFunc(e.forms, func(f string) bool { return strings.HasSuffix(f, "шь") || strings.HasSuffix(f, "шься") })
}

// nominal reports whether a lemma of the list is, by its ending, none of a
// verb's words (an infinitive, a gerund, a participle) nor an adjective,
// but a noun or an adverb whose key a verb must not take.
func (t *table) nominal(e entry) bool {
	if slices.ContainsFunc([]string{"ть", "ти", "чь", "ться", "тись", "чься", "я", "ясь", "в", "вши", "вшись", "ши", "шись", "ий", "ый", "ой", "ийся", "ыйся"}, suffixOf(e.lemma)) {
		return false
	}
	if len(e.forms) == 1 {
		// A word of one form: an adverb (далее), a word like но, во, but
		// not a short participle (велено).
		return strings.HasSuffix(e.lemma, "ее") || strings.HasSuffix(e.lemma, "о") &&
			!slices.ContainsFunc([]string{"ено", "ано", "ято", "ыто", "ито", "ото"}, suffixOf(e.lemma))
	}
	// An imperative and its plural (войди, войдите) are a verb's.
	base, reflexive := strings.CutSuffix(e.lemma, "сь")
	plural := base + "те"
	if reflexive {
		plural += "сь"
	}
	return !slices.Contains(e.forms, plural)
}

// suffixOf returns whether a word ends in a suffix.
func suffixOf(w string) func(string) bool {
	return func(suffix string) bool { return strings.HasSuffix(w, suffix) }
}

// consonant reports whether a folded Cyrillic letter is a consonant.
func consonant(r rune) bool {
	return r >= 'а' && r <= 'я' && !strings.ContainsRune("аеиоуыэюяьъ", r)
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
