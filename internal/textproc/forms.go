package textproc

import (
	"iter"
	"maps"
	"slices"
)

// LemmaForms yields every form of the lemma table with its key, in the
// order of the forms: real Russian words, grouped into lemmas by their
// keys, for whoever needs a vocabulary of them (the scale benchmark's
// corpus). A homograph's key holds the keys of its lemmas (LemmaKeys).
func LemmaForms() iter.Seq2[string, string] {
	return func(yield func(form, key string) bool) {
		keys := lemmas().keys
		for _, form := range slices.Sorted(maps.Keys(keys)) {
			if !yield(form, keys[form]) {
				return
			}
		}
	}
}
