package sqlite

import (
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// MaxTokens is the number of words of a record that full-text search sees;
// the rest is cut. It is the 16383 positions a PostgreSQL tsvector holds, so
// that a long text is cut at the same word in both stores and both find the
// same records.
const MaxTokens = 16383

// separator stands between two texts of a record in both columns, so that a
// phrase, which needs adjacent positions, never spans two texts. It is a
// private-use character: unicode61 keeps it as a token (category Co), while
// textproc never yields it, since it is neither letter nor digit, so no query
// term can match it.
const separator = "\ue000"

// fields returns the analyzed texts of r, cut to MaxTokens words in all.
// Both the index and the check of hits in Go use it, so they see the same
// words.
func fields(r tenderbase.Record, st stemmer) [][]textproc.Token {
	texts := r.SearchText()
	out := make([][]textproc.Token, 0, len(texts))
	left := MaxTokens
	for _, t := range texts {
		if left == 0 {
			break
		}
		toks := st.analyze(t, left)
		left -= len(toks)
		out = append(out, toks)
	}
	return out
}

// maxStems bounds a stemmer's memory; it starts over when full.
const maxStems = 1 << 16

// stemmer is textproc.Analyze with a memory of stems. Within one Put or one
// search the same words come again and again, and stemming was more than
// half the cost of checking hits in Go.
type stemmer map[string]string

// analyze returns the first max tokens of text, as textproc.Analyze would.
func (st stemmer) analyze(text string, max int) []textproc.Token {
	var toks []textproc.Token
	for w := range textproc.Words(text) {
		if len(toks) == max {
			break
		}
		stem, ok := st[w]
		if !ok {
			if len(st) >= maxStems {
				clear(st)
			}
			stem = textproc.Stem(w)
			st[w] = stem
		}
		toks = append(toks, textproc.Token{Form: w, Stem: stem})
	}
	return toks
}

// document is a record as its full-text table holds it.
type document struct {
	stems, forms, flags string
}

// newDocument returns the columns of r's row in its full-text table: stems
// and forms space-separated at the same positions, texts apart by separator.
func newDocument(r tenderbase.Record, st stemmer) document {
	var s, e strings.Builder
	for i, toks := range fields(r, st) {
		if i > 0 {
			s.WriteString(" " + separator + " ")
			e.WriteString(" " + separator + " ")
		}
		for j, t := range toks {
			if j > 0 {
				s.WriteByte(' ')
				e.WriteByte(' ')
			}
			s.WriteString(t.Stem)
			e.WriteString(t.Form)
		}
	}
	return document{stems: s.String(), forms: e.String(), flags: strings.Join(r.Flags(), " ")}
}
