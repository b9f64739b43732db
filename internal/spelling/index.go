// Package spelling finds what a query word that no record holds was meant
// to be: the known words nearest to it by edit distance, and the word it
// is on the other keyboard layout. The known words are a store's
// vocabulary, kept in a finite-state transducer (vellum, Bleve's), which
// a Levenshtein automaton walks to find the words within a distance
// without reading the others.
package spelling

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/vellum"
	"github.com/blevesearch/vellum/levenshtein"
)

// MaxDistance returns the edit distance within which a word of n letters
// is looked for: none below 5 letters, where one edit makes another
// common word too often, 1 from 5 letters and 2 from 9. A transposition
// of two letters side by side (лекраства) counts as one edit.
func MaxDistance(n int) int {
	switch {
	case n >= 9:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

// automata builds the Levenshtein automata of distances 1 and 2, with
// transpositions; building them takes milliseconds, so it is done once.
var automata = sync.OnceValues(func() ([2]*levenshtein.LevenshteinAutomatonBuilder, error) {
	var b [2]*levenshtein.LevenshteinAutomatonBuilder
	for d := range b {
		var err error
		if b[d], err = levenshtein.NewLevenshteinAutomatonBuilder(uint8(d+1), true); err != nil {
			return b, fmt.Errorf("build the automaton of distance %d: %w", d+1, err)
		}
	}
	return b, nil
})

// Index is a set of known words that answers which of them are near a
// word. It is immutable: a new vocabulary is a new Index.
type Index struct {
	fst   *vellum.FST
	words int
	size  int // bytes of the transducer
}

// Build returns the index of words, which may hold repeats, in any order.
func Build(words []string) (*Index, error) {
	words = slices.Clone(words)
	slices.Sort(words)
	words = slices.Compact(words)
	var buf bytes.Buffer
	b, err := vellum.New(&buf, nil)
	if err != nil {
		return nil, fmt.Errorf("build the vocabulary: %w", err)
	}
	for _, w := range words {
		if err := b.Insert([]byte(w), 0); err != nil {
			return nil, fmt.Errorf("build the vocabulary: %w", err)
		}
	}
	if err := b.Close(); err != nil {
		return nil, fmt.Errorf("build the vocabulary: %w", err)
	}
	fst, err := vellum.Load(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("load the vocabulary: %w", err)
	}
	return &Index{fst: fst, words: len(words), size: buf.Len()}, nil
}

// Len returns the number of words of the index.
func (x *Index) Len() int { return x.words }

// Size returns the bytes the index takes.
func (x *Index) Size() int { return x.size }

// Has reports whether word is in the index.
func (x *Index) Has(word string) bool {
	ok, err := x.fst.Contains([]byte(word))
	return err == nil && ok
}

// Near is a known word near another, and its edit distance from it.
type Near struct {
	Word     string
	Distance int
}

// Near returns the words of the index other than word within
// MaxDistance of its length, nearest first, then in byte order.
func (x *Index) Near(word string) ([]Near, error) {
	d := MaxDistance(utf8.RuneCountInString(word))
	if d == 0 || !utf8.ValidString(word) {
		return nil, nil
	}
	builders, err := automata()
	if err != nil {
		return nil, err
	}
	dfa, err := builders[d-1].BuildDfa(word, uint8(d))
	if err != nil {
		return nil, fmt.Errorf("automaton of %q: %w", word, err)
	}
	var out []Near
	it, err := x.fst.Search(dfa, nil, nil)
	for err == nil {
		k, _ := it.Current()
		if w := string(k); w != word {
			_, dist := dfa.MatchAndDistance(w)
			out = append(out, Near{Word: w, Distance: int(dist)})
		}
		err = it.Next()
	}
	if err != vellum.ErrIteratorDone {
		return nil, fmt.Errorf("look up words near %q: %w", word, err)
	}
	sortNear(out)
	return out, nil
}
