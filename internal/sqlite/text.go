package sqlite

import (
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// separator stands between two texts of a record in both columns, so that a
// phrase, which needs adjacent positions, never spans two texts. It is a
// private-use character: unicode61 keeps it as a token (category Co), while
// textproc never yields it, since it is neither letter nor digit, so no query
// term can match it.
const separator = "\ue000"

// document is a record as its full-text table holds it.
type document struct {
	stems, forms, flags string
}

// newDocument returns the columns of r's row in its full-text table: stems
// and forms space-separated at the same positions, texts apart by separator.
func newDocument(r tenderbase.Record, st textproc.Stemmer) document {
	var s, e strings.Builder
	for i, toks := range st.Fields(tenderbase.MatchedText(r, false)) {
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
