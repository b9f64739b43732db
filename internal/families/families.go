// Package families holds the word families of Russian that search widens
// a query by: a noun and its relative adjectives (кровля, кровельный;
// онкология, онкологический; строительство, строительный), and an
// adjective a prefix of topic makes of one (опухоль, опухолевый,
// противоопухолевый). Morphology matches the forms of one lemma; a family
// joins the lemmas of one root and meaning across parts of speech, so
// that a query for «ремонт кровли» finds «Кровельные работы».
//
// The table (families.txt.gz) is generated (gen/main.go) from DerivBase.Ru
// and the Hunspell dictionary textproc keys words by; README.md says where
// it comes from and how it is updated.
package families

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

//go:generate go run ./gen -o families.txt.gz -words testdata/frequent-words.tsv
//go:embed families.txt.gz
var tableFile []byte

// Source says where a family comes from, as an answer says it: short,
// since a query of many words says it for each (README.md says more).
const Source = "word family, DerivBase.Ru"

// maxAlso bounds the words one query word is widened by: a word of many
// derivations (строительный: строитель, строительство) keeps its first.
const maxAlso = 6

// Member is a word of a family: its lemma and the lemma's key.
type Member struct {
	Word string
	Key  string
}

// Families is the loaded table.
type Families struct {
	// members holds, for a lemma key, the other members of its family.
	members map[string][]Member
}

var std = sync.OnceValues(func() (*Families, error) { return Read(tableFile) })

// Default returns the table shipped in the package, read once. Its data
// is compiled in and its test reads it, so an error is a broken build.
func Default() *Families {
	f, err := std()
	if err != nil {
		panic("families: the embedded table is unreadable: " + err.Error())
	}
	return f
}

// Read reads a table: gzipped lines of two lemmas split by a tab, the
// second in the family of the first and the first in the second's. The
// lemmas are keyed as textproc keys words, here, so that the table needs
// no change when the lemma table does.
func Read(file []byte) (*Families, error) {
	zr, err := gzip.NewReader(bytes.NewReader(file))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	f := &Families{members: map[string][]Member{}}
	for line := range strings.Lines(string(data)) {
		a, b, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if !ok {
			continue
		}
		ma, mb := Member{a, textproc.Stem(a)}, Member{b, textproc.Stem(b)}
		if textproc.SameLemma(ma.Key, mb.Key) {
			continue
		}
		f.add(ma, mb)
		f.add(mb, ma)
	}
	return f, nil
}

func (f *Families) add(of, m Member) {
	for _, k := range textproc.LemmaKeys(of.Key) {
		if !slices.ContainsFunc(f.members[k], func(o Member) bool { return o.Key == m.Key }) {
			f.members[k] = append(f.members[k], m)
		}
	}
}

// Members returns the other members of the family of the word of key (as
// textproc keys a word; a homograph's key has each of its lemmas'
// families), in the order of the table.
func (f *Families) Members(key string) []Member {
	lemmaKeys := textproc.LemmaKeys(key)
	var out []Member
	for _, k := range lemmaKeys {
		for _, m := range f.members[k] {
			if !textproc.SameLemma(m.Key, key) && !slices.ContainsFunc(out, func(o Member) bool { return o.Key == m.Key }) {
				out = append(out, m)
			}
		}
	}
	return out
}

// Family returns the keys of the other members of the family of the word
// of key.
func (f *Families) Family(key string) []string {
	var out []string
	for _, m := range f.Members(key) {
		out = append(out, m.Key)
	}
	return out
}

// adjective reports whether a lemma is an adjective's: its masculine
// nominative ends in -ый, -ий or -ой. A query word is widened by the
// adjectives of its family alone: a noun by its relative adjectives
// (кровля, кровельный), a prefixed adjective by its base (противоопухолевый,
// опухолевый), but an adjective never by its noun, which names a wider
// thing (котировочная заявка is not any котировка, служебная записка any
// служба). On the judged set, widening both ways gave 86.8% macro recall
// at 92.9% precision, this way 87.5% at 94.1%.
func adjective(lemma string) bool {
	return strings.HasSuffix(lemma, "ый") || strings.HasSuffix(lemma, "ий") || strings.HasSuffix(lemma, "ой")
}

// Expansion is one word of a query widened by its family.
type Expansion struct {
	Words  string   // the word as the query wrote it
	Also   []string // the members it also matched
	Source string
}

// Expand returns q with every word that written (the query as its user
// wrote it, before any other widening) has as a word to find ORed with
// the other members of its family, and the expansions it made, in the
// order of q. A word q holds that written lacks, such as a synonym the
// thesaurus added, is left as it is, and so are exact words (=word),
// phrases and what an exclusion (!word) excludes: the query language
// means them as written.
func (f *Families) Expand(q, written tenderbase.Query) (tenderbase.Query, []Expansion) {
	words := map[string]bool{}
	findWords(written, words)
	var exps []Expansion
	return f.expand(q, words, &exps), exps
}

// findWords adds to words the keys of the words q finds: not exact, in no
// phrase, not excluded.
func findWords(q tenderbase.Query, words map[string]bool) {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		if !q.Exact {
			words[q.Stem] = true
		}
	case tenderbase.AndQuery:
		for _, o := range q.Operands {
			findWords(o, words)
		}
	case tenderbase.OrQuery:
		for _, o := range q.Operands {
			findWords(o, words)
		}
	}
}

func (f *Families) expand(q tenderbase.Query, words map[string]bool, exps *[]Expansion) tenderbase.Query {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		if q.Exact || !words[q.Stem] {
			return q
		}
		ms := slices.DeleteFunc(f.Members(q.Stem), func(m Member) bool { return !adjective(m.Word) })
		if len(ms) == 0 {
			return q
		}
		ops := []tenderbase.Query{q}
		e := Expansion{Words: q.Form, Source: Source}
		for _, m := range ms[:min(len(ms), maxAlso)] {
			ops = append(ops, tenderbase.TermQuery{Form: m.Word, Stem: m.Key})
			e.Also = append(e.Also, m.Word)
		}
		if !slices.ContainsFunc(*exps, func(o Expansion) bool { return o.Words == e.Words }) {
			*exps = append(*exps, e)
		}
		return tenderbase.OrQuery{Operands: ops}
	case tenderbase.AndQuery:
		ops := make([]tenderbase.Query, len(q.Operands))
		for i, o := range q.Operands {
			ops[i] = f.expand(o, words, exps)
		}
		return tenderbase.AndQuery{Operands: ops}
	case tenderbase.OrQuery:
		var ops []tenderbase.Query
		for _, o := range q.Operands {
			// An OR within an OR is one OR, as the parser reads it.
			switch e := f.expand(o, words, exps).(type) {
			case tenderbase.OrQuery:
				ops = append(ops, e.Operands...)
			default:
				ops = append(ops, e)
			}
		}
		return tenderbase.OrQuery{Operands: ops}
	}
	return q
}
