package textproc

import "slices"

// MaxTokens is the number of words of a record that full-text search sees;
// the rest is cut. It is the 16383 positions a PostgreSQL tsvector holds, so
// that a long text is cut at the same word in every store and every store
// finds the same records.
const MaxTokens = 16383

// maxStems bounds a Stemmer's memory; it starts over when full.
const maxStems = 1 << 16

// Stemmer is Analyze with a memory of stems. Within one Put or one search
// the same words come again and again, and stemming was more than half the
// cost of checking hits in Go. The zero value is not usable; make one with
// Stemmer{}.
type Stemmer map[string]string

// Analyze returns the first max tokens of text, as the package function
// Analyze would.
func (st Stemmer) Analyze(text string, max int) []Token {
	var toks []Token
	for w := range Words(text) {
		if len(toks) == max {
			break
		}
		stem, ok := st[w]
		if !ok {
			if len(st) >= maxStems {
				clear(st)
			}
			stem = Stem(w)
			st[w] = stem
		}
		toks = append(toks, Token{Form: w, Stem: stem})
	}
	return toks
}

// Fields returns the analyzed texts of a record (Record.SearchText), cut to
// MaxTokens words in all. Stores index these and check hits in Go against
// them, so that both see the same words.
func (st Stemmer) Fields(texts []string) [][]Token {
	out := make([][]Token, 0, len(texts))
	left := MaxTokens
	for _, t := range texts {
		if left == 0 {
			break
		}
		toks := st.Analyze(t, left)
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
func (st Stemmer) FieldsApart(first, second []string) ([][]Token, [][]Token) {
	all := st.Fields(append(slices.Clip(first), second...))
	n := min(len(first), len(all))
	return all[:n], all[n:]
}
