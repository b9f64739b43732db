package textproc

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/snowballstem/russian"
)

// A Russian word's key is that of its lemma, not its own Snowball stem:
// Snowball alone cuts "охрана" to "охра" and "охране" to "охран", so that a
// record about security services was missed by the first word a user
// types. A lemma's key is the Snowball stem most of its forms have
// (gen/main.go says why). The lemma table (lemmas.txt.gz) maps the forms of
// the Hunspell dictionary whose own stem is not their lemma's key to that
// key, and a form of two lemmas or more (a homograph, "стали": сталь and
// стать) to every lemma's key, joined by keySetSep into one key. A word the
// table lacks is keyed by Snowball, which gives the other forms of the
// dictionary their lemma's key already; so a word of the dictionary meets
// every form of its lemma, and a word outside it meets the words Snowball
// cuts the same way.
//
//go:generate go run ./gen -o lemmas.txt.gz -lemmas testdata/opencorpora/lemmas.tsv -forms testdata/hunspell-forms.tsv
//go:embed lemmas.txt.gz
var lemmaTableFile []byte

// keySetSep joins the lemma keys of a homograph into its key. It is a
// private-use character, which textproc never yields within a word and
// which FTS5's unicode61 tokenizer keeps inside a token, so that a store
// that holds one token per word holds a homograph's keys as one.
const keySetSep = "\ue002"

// analyzerRevision counts the changes to the analysis that the lemma table
// does not show (how text is split and folded); AnalysisVersion joins it to
// the table's digest. Revision 4 indexes the parties' short names too,
// which every record indexed before lacks; revision 5 reads a run of
// ideographs as its pairs of characters and folds Greek accents; revision
// 6 stems Polish, Lithuanian and Greek words lightly (lightstem.go);
// revision 7 stems the Lithuanian nouns in -ius alike in every case.
const analyzerRevision = 7

// lemmaTable is the lemma table, read.
type lemmaTable struct {
	keys map[string]string // a form's key
	// homographKeys holds, for a lemma key, the keys of the homographs that
	// have it among theirs.
	homographKeys map[string][]string
	digest        string
}

var lemmas = sync.OnceValue(func() *lemmaTable {
	t, err := readLemmaTable(lemmaTableFile)
	if err != nil {
		panic("textproc: the embedded lemma table is unreadable: " + err.Error())
	}
	return t
})

// readLemmaTable reads the generated table: gzipped lines "form TAB key",
// the keys of a homograph comma-separated.
func readLemmaTable(file []byte) (*lemmaTable, error) {
	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	t := &lemmaTable{keys: map[string]string{}, homographKeys: map[string][]string{}, digest: hex.EncodeToString(sum[:6])}
	for line := range strings.Lines(string(data)) {
		form, keys, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if !ok {
			continue
		}
		if !strings.Contains(keys, ",") {
			t.keys[form] = keys
			continue
		}
		key := strings.ReplaceAll(keys, ",", keySetSep)
		if _, seen := t.keys[form]; !seen {
			for _, k := range strings.Split(keys, ",") {
				if !slices.Contains(t.homographKeys[k], key) {
					t.homographKeys[k] = append(t.homographKeys[k], key)
				}
			}
		}
		t.keys[form] = key
	}
	return t, nil
}

// russianKey returns the key of a folded Cyrillic word.
func russianKey(form string) string {
	if k, ok := lemmas().keys[form]; ok {
		return k
	}
	return snowball(russian.Stem, form)
}

// AnalysisVersion names the analysis of this build: the revision of the
// analyzer and the digest of its lemma table. A store keeps the version
// its index was made with, and indexes its records again when it is
// opened by a build of another version.
func AnalysisVersion() string {
	return strconv.Itoa(analyzerRevision) + "-" + lemmas().digest
}

// LemmaKeys returns the keys of the lemmas a word's key stands for: the key
// itself, or a homograph's keys. A store that can hold several keys at one
// position holds these.
func LemmaKeys(key string) []string {
	if !strings.Contains(key, keySetSep) {
		return []string{key}
	}
	return strings.Split(key, keySetSep)
}

// SameLemma reports whether two words' keys share a lemma: whether a query
// word of one key matches a record word of the other.
func SameLemma(a, b string) bool {
	if a == b {
		return true
	}
	if !strings.Contains(a, keySetSep) && !strings.Contains(b, keySetSep) {
		return false
	}
	for _, k := range LemmaKeys(a) {
		if slices.Contains(LemmaKeys(b), k) {
			return true
		}
	}
	return false
}

// MatchingKeys returns every key a record's word may have that a query word
// of key matches (SameLemma): each of its lemma keys, and the keys of the
// homographs that have one of them. A store that holds one key per word
// looks a word up by all of these.
func MatchingKeys(key string) []string {
	keys := LemmaKeys(key)
	out := slices.Clone(keys)
	for _, k := range keys {
		for _, h := range lemmas().homographKeys[k] {
			if !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}
