package textproc

import "slices"

// MaxTokens is the number of words of a record that full-text search sees;
// the rest is cut. It is the 16383 positions a PostgreSQL tsvector holds, so
// that a long text is cut at the same word in every store and every store
// finds the same records.
const MaxTokens = 16383

// maxStems bounds a Stemmer's memory; it starts over when full.
const maxStems = 1 << 16

// Stemmer is Language.Analyze with a memory of keys. Within one Put or one
// search the same words come again and again, and stemming was more than
// half the cost of checking hits in Go. The zero value is not usable; make
// one with Stemmer{}.
type Stemmer map[stemKey]string

// stemKey is a word in a language.
type stemKey struct {
	lang Language
	word string
}

// Analyze returns the first max tokens of text in lang, as lang.Analyze
// would.
func (st Stemmer) Analyze(lang Language, text string, max int) []Token {
	var toks []Token
	for w := range Words(text) {
		if len(toks) == max {
			break
		}
		k := stemKey{lang, w}
		stem, ok := st[k]
		if !ok {
			if len(st) >= maxStems {
				clear(st)
			}
			stem = lang.Key(w)
			st[k] = stem
		}
		toks = append(toks, Token{Form: w, Stem: stem})
	}
	return toks
}

// Fields returns the analyzed texts of a record (Record.SearchText) in the
// record's language, cut to MaxTokens words in all. Stores index these and
// check hits in Go against them, so that both see the same words.
func (st Stemmer) Fields(lang Language, texts []string) [][]Token {
	out := make([][]Token, 0, len(texts))
	left := MaxTokens
	for _, t := range texts {
		if left == 0 {
			break
		}
		toks := st.Analyze(lang, t, left)
		left -= len(toks)
		out = append(out, toks)
	}
	return out
}

// FieldsApart analyzes two lists of texts as Fields analyzes them one after
// the other, cut to MaxTokens words in all, and returns the analyzed texts
// of each list apart: a store indexes a record's open and tariff texts
// (tenderbase.OpenText, TariffText) apart, and must see the same words that
// Fields shows a check in Go of either the first list or both.
func (st Stemmer) FieldsApart(lang Language, first, second []string) ([][]Token, [][]Token) {
	all := st.Fields(lang, append(slices.Clip(first), second...))
	n := min(len(first), len(all))
	return all[:n], all[n:]
}
