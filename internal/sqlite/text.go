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
func fields(r tenderbase.Record) [][]textproc.Token {
	texts := r.SearchText()
	out := make([][]textproc.Token, 0, len(texts))
	left := MaxTokens
	for _, t := range texts {
		if left == 0 {
			break
		}
		toks := textproc.Analyze(t)
		if len(toks) > left {
			toks = toks[:left]
		}
		left -= len(toks)
		out = append(out, toks)
	}
	return out
}

// document is a record as its full-text table holds it.
type document struct {
	stems, forms, flags string
}

// newDocument returns the columns of r's row in its full-text table: stems
// and forms space-separated at the same positions, texts apart by separator.
func newDocument(r tenderbase.Record) document {
	var s, e strings.Builder
	for i, toks := range fields(r) {
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
