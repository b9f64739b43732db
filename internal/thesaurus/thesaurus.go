// Package thesaurus is the procurement thesaurus that search expands a
// query by: groups of words that mean the same in procurement (ГСМ and
// горюче-смазочные материалы, ЭВМ and компьютеры), and the classes a group
// names, of OKPD2 (ОК 034-2014) and of OKDP (ОК 004-93), which classified
// the records before 2016, so that a query word that names a class also
// lists the records coded in it. The data ships in the package
// (terms.tsv, okpd2.tsv, okdp.tsv); README.md says where it comes from and
// how it is updated.
package thesaurus

import (
	"bufio"
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

//go:embed terms.tsv
var termsFile string

//go:embed okpd2.tsv
var okpd2File string

//go:embed okdp.tsv
var okdpFile string

// Class is a class of a classifier: its code and its name in the
// classifier, and the lookup that finds the records coded in it.
type Class struct {
	Code string `json:"code"`
	Name string `json:"name"`
	// Field is the lookup field of the classifier: tenderbase.LookupOKPD2
	// or tenderbase.LookupOKDP.
	Field string `json:"-"`
}

// Lookup returns the lookup that finds the records coded in c: an OKPD2
// class is its code, an OKDP class the prefix before the zeros that pad
// it (tenderbase.OKDPPrefix).
func (c Class) Lookup() tenderbase.Lookup {
	if c.Field == tenderbase.LookupOKDP {
		return tenderbase.Lookup{Field: c.Field, Value: tenderbase.OKDPPrefix(c.Code)}
	}
	return tenderbase.Lookup{Field: c.Field, Value: c.Code}
}

// Group is one line of the thesaurus: words that mean the same, the
// classes they name, and the source that says so.
type Group struct {
	Words   []string
	Classes []Class
	Source  string
	// alts are the words as the query language reads them, and keys the
	// stems of the words that are plain words (a query can name the group
	// by them), one slice a word; nil for a word that is no key.
	alts []tenderbase.Query
	keys [][]string
}

// Thesaurus is the loaded thesaurus.
type Thesaurus struct {
	Groups []*Group
	// Classes are the OKPD2 classes by code: those to four digits, and
	// every longer one a group names.
	Classes map[string]string
	// OKDP are the OKDP classes by code: those of four significant digits
	// (2423000), and every longer one a group names.
	OKDP map[string]string
	// byStem indexes the keys by their first stem.
	byStem map[string][]key
}

type key struct {
	g    *Group
	word int
}

// Words returns the words of the thesaurus that are one word of letters,
// in lower case, each once: a query word may be corrected to one of them,
// since its search finds what its group does although no record may hold
// the word itself (лекарства, whose records say «лекарственные препараты»).
func (t *Thesaurus) Words() []string {
	var out []string
	for _, g := range t.Groups {
		for _, w := range g.Words {
			if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
				out = append(out, strings.ToLower(w))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Load reads the thesaurus shipped in the package.
func Load() (*Thesaurus, error) {
	return Parse(termsFile, okpd2File, okdpFile)
}

var std = sync.OnceValues(Load)

// Default returns the thesaurus shipped in the package, loaded once. Its
// data is compiled in and its test loads it, so an error is a broken
// build.
func Default() *Thesaurus {
	t, err := std()
	if err != nil {
		panic(err)
	}
	return t
}

// Parse reads a thesaurus from the text of its files: terms (a group a
// line: words split by " | ", then, after " > ", narrower words that the
// words find but that find nothing; classes split by "," or "-"; a source;
// split by tabs; # starts a comment line), OKPD2 classes and OKDP classes (a
// code and a name a line, split by a tab). A group without a source, or
// naming a class the classifier lacks, is an error.
func Parse(terms, okpd2, okdp string) (*Thesaurus, error) {
	t := &Thesaurus{Classes: map[string]string{}, OKDP: map[string]string{}, byStem: map[string][]key{}}
	for _, f := range []struct {
		name, text string
		classes    map[string]string
	}{{"okpd2.tsv", okpd2, t.Classes}, {"okdp.tsv", okdp, t.OKDP}} {
		if err := eachLine(f.text, func(n int, line string) error {
			code, name, ok := strings.Cut(line, "\t")
			if !ok || code == "" || name == "" {
				return fmt.Errorf("%s:%d: want a code and a name split by a tab", f.name, n)
			}
			f.classes[code] = name
			return nil
		}); err != nil {
			return nil, err
		}
	}
	err := eachLine(terms, func(n int, line string) error {
		g, err := t.parseGroup(line)
		if err != nil {
			return fmt.Errorf("terms.tsv:%d: %w", n, err)
		}
		t.Groups = append(t.Groups, g)
		for i, k := range g.keys {
			if k != nil {
				t.byStem[k[0]] = append(t.byStem[k[0]], key{g, i})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The longest key first, so that a query's words meet the group that
	// names most of them.
	for _, ks := range t.byStem {
		slices.SortStableFunc(ks, func(a, b key) int { return len(b.g.keys[b.word]) - len(a.g.keys[a.word]) })
	}
	return t, nil
}

func eachLine(text string, f func(n int, line string) error) error {
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := f(n, line); err != nil {
			return err
		}
	}
	return sc.Err()
}

func (t *Thesaurus) parseGroup(line string) (*Group, error) {
	fields := strings.Split(line, "\t")
	if len(fields) != 3 {
		return nil, fmt.Errorf("want 3 fields split by tabs (words, classes, source), got %d", len(fields))
	}
	g := &Group{Source: strings.TrimSpace(fields[2])}
	if g.Source == "" {
		return nil, fmt.Errorf("the group %q has no source", fields[0])
	}
	// Words after ">" are narrower: kinds of what the words before name
	// (трубопровод > водовод), found by them but finding nothing else.
	same, narrower, _ := strings.Cut(fields[0], ">")
	for i, part := range []string{same, narrower} {
		if strings.TrimSpace(part) == "" {
			continue
		}
		for w := range strings.SplitSeq(part, "|") {
			w = strings.TrimSpace(w)
			q, err := query.Parse(w, query.MCP)
			if err != nil || q == nil {
				return nil, fmt.Errorf("the word %q is no query: %v", w, err)
			}
			var k []string
			if i == 0 {
				k = stems(q)
			}
			g.Words, g.alts, g.keys = append(g.Words, w), append(g.alts, q), append(g.keys, k)
		}
	}
	if len(g.Words) < 2 {
		return nil, fmt.Errorf("the group %q has one word: nothing to expand it to", fields[0])
	}
	if c := strings.TrimSpace(fields[1]); c != "-" {
		for code := range strings.SplitSeq(c, ",") {
			cl, err := t.class(strings.TrimSpace(code))
			if err != nil {
				return nil, fmt.Errorf("the group %q names %w", fields[0], err)
			}
			g.Classes = append(g.Classes, cl)
		}
	}
	return g, nil
}

// okdpCode is the shape of an OKDP code: seven digits, where an OKPD2 code
// has two, or dots.
var okdpCode = regexp.MustCompile(`^\d{7}$`)

// class returns the class of a code a group names: seven digits are an
// OKDP code, any other an OKPD2 code.
func (t *Thesaurus) class(code string) (Class, error) {
	if !okdpCode.MatchString(code) {
		name, ok := t.Classes[code]
		if !ok {
			return Class{}, fmt.Errorf("OKPD2 %s, which okpd2.tsv lacks", code)
		}
		return Class{Code: code, Name: name, Field: tenderbase.LookupOKPD2}, nil
	}
	name, ok := t.OKDP[code]
	if !ok {
		return Class{}, fmt.Errorf("OKDP %s, which okdp.tsv lacks", code)
	}
	// Such a class lists its members by a range of codes, not by its
	// prefix: its lookup would miss them.
	if strings.Contains(name, "[") {
		return Class{}, fmt.Errorf("OKDP %s, whose members are a range of codes, not the codes it begins", code)
	}
	return Class{Code: code, Name: name, Field: tenderbase.LookupOKDP}, nil
}

// stems returns the keys of a query of plain words (a word, or words
// ANDed), or nil for any other query; a word written with a hyphen
// (пропан-бутан), which the query language reads as a phrase of its
// parts, is a plain word too (operandKey).
func stems(q tenderbase.Query) []string {
	if and, ok := q.(tenderbase.AndQuery); ok {
		var out []string
		for _, o := range and.Operands {
			k, ok := operandKey(o)
			if !ok {
				return nil
			}
			out = append(out, k)
		}
		return out
	}
	if k, ok := operandKey(q); ok {
		return []string{k}
	}
	return nil
}

// operandKey returns the key a plain word is matched by: its stem, or
// the stems of a phrase's words joined by a hyphen. A phrase in quotes is
// read as one with hyphens is, since the two are one query: the thesaurus
// expands «"пропан бутан"» as it does пропан-бутан.
func operandKey(q tenderbase.Query) (string, bool) {
	switch q := q.(type) {
	case tenderbase.TermQuery:
		return q.Stem, !q.Exact
	case tenderbase.PhraseQuery:
		parts := make([]string, len(q.Terms))
		for i, t := range q.Terms {
			if t.Exact {
				return "", false
			}
			parts[i] = t.Stem
		}
		return strings.Join(parts, "-"), len(parts) > 0
	}
	return "", false
}

// Expansion is one use of the thesaurus in a query: the words of the
// query that named a group, the other words of the group they also
// match, and its classes.
type Expansion struct {
	Words  string   `json:"words"`
	Also   []string `json:"also"`
	Source string   `json:"source"`
	// Classes are the group's classes (OKPD2 and OKDP), named only when
	// the words are the whole query or one of the words it ANDs at its
	// top: only then can the records of a class be searched beside the
	// words.
	Classes []Class `json:"classes,omitempty"`
	// Rest is the query without the words, nil when they are all of it:
	// what a record coded in a class must match besides.
	Rest tenderbase.Query `json:"-"`
}

// Expand returns q with every word, or run of words ANDed, that names a
// group ORed with the group's other words, and the expansions it made,
// in the order of q. Exact words (=word), phrases and what an exclusion
// (!word) excludes are left as they are: the query language means them as
// written.
func (t *Thesaurus) Expand(q tenderbase.Query) (tenderbase.Query, []Expansion) {
	var exps []Expansion
	out := t.expand(q, &exps, true)
	return out, exps
}

func (t *Thesaurus) expand(q tenderbase.Query, exps *[]Expansion, top bool) tenderbase.Query {
	switch q := q.(type) {
	case tenderbase.TermQuery, tenderbase.PhraseQuery:
		if k, ok := t.match([]tenderbase.Query{q}); ok {
			return t.use(k, q, nil, exps, top)
		}
	case tenderbase.OrQuery:
		var ops []tenderbase.Query
		for _, o := range q.Operands {
			// An OR within an OR is one OR, as the parser reads it.
			switch e := t.expand(o, exps, false).(type) {
			case tenderbase.OrQuery:
				ops = append(ops, e.Operands...)
			default:
				ops = append(ops, e)
			}
		}
		return tenderbase.OrQuery{Operands: ops}
	case tenderbase.AndQuery:
		return t.expandAnd(q, exps, top)
	}
	return q
}

// expandAnd expands the operands of an AND: a run of plain words that
// names a group is one operand of the result.
func (t *Thesaurus) expandAnd(q tenderbase.AndQuery, exps *[]Expansion, top bool) tenderbase.Query {
	type use struct {
		k          key
		from, to   int
		expansions int // the index of its expansion in exps
	}
	var ops []tenderbase.Query
	var uses []use
	for i := 0; i < len(q.Operands); {
		if k, ok := t.match(q.Operands[i:]); ok {
			n := len(k.g.keys[k.word])
			run := q.Operands[i : i+n]
			var words tenderbase.Query = run[0]
			if n > 1 {
				words = tenderbase.AndQuery{Operands: slices.Clone(run)}
			}
			uses = append(uses, use{k, len(ops), len(ops) + 1, len(*exps)})
			ops = append(ops, t.use(k, words, nil, exps, false))
			i += n
			continue
		}
		ops = append(ops, t.expand(q.Operands[i], exps, false))
		i++
	}
	if top {
		// The classes are searched with the rest of the query.
		for _, u := range uses {
			e := &(*exps)[u.expansions]
			e.Classes = u.k.g.Classes
			rest := slices.Concat(ops[:u.from], ops[u.to:])
			switch len(rest) {
			case 0:
			case 1:
				e.Rest = rest[0]
			default:
				e.Rest = tenderbase.AndQuery{Operands: rest}
			}
			if !positive(e.Rest) {
				e.Classes, e.Rest = nil, nil
			}
		}
	}
	if len(ops) == 1 {
		return ops[0]
	}
	return tenderbase.AndQuery{Operands: ops}
}

// positive reports whether q may stand as a search's query: nil, or not
// an exclusion alone.
func positive(q tenderbase.Query) bool {
	_, not := q.(tenderbase.NotQuery)
	return !not
}

// match returns the longest key that the plain words at the start of ops
// spell.
func (t *Thesaurus) match(ops []tenderbase.Query) (key, bool) {
	first, ok := operandKey(ops[0])
	if !ok {
		return key{}, false
	}
next:
	for _, k := range t.byStem[first] {
		ks := k.g.keys[k.word]
		if len(ks) > len(ops) {
			continue
		}
		for i, s := range ks {
			if w, ok := operandKey(ops[i]); !ok || w != s {
				continue next
			}
		}
		return k, true
	}
	return key{}, false
}

// use ORs words with the other words of k's group and records the
// expansion; at the top of the query the group's classes go with it.
func (t *Thesaurus) use(k key, words, rest tenderbase.Query, exps *[]Expansion, top bool) tenderbase.Query {
	ops := []tenderbase.Query{words}
	e := Expansion{Words: k.g.Words[k.word], Source: k.g.Source}
	for i, a := range k.g.alts {
		if i != k.word {
			ops = append(ops, a)
			e.Also = append(e.Also, k.g.Words[i])
		}
	}
	if top {
		e.Classes, e.Rest = k.g.Classes, rest
	}
	*exps = append(*exps, e)
	return tenderbase.OrQuery{Operands: ops}
}
