package sqlite

import (
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// separator stands between two texts of a record in both columns, so that a
// phrase, which needs adjacent positions, never spans two texts. It is a
// private-use character: unicode61 keeps it as a token (category Co), while
// textproc never yields it, since it is neither letter nor digit, so no query
// term can match it.
const separator = "\ue000"

// document is a record as its full-text table holds it: the stems and
// forms of the text every plan may match (s, e), those of the text of its
// tariff fields (ts, te), and its flags.
type document struct {
	stems, forms             string
	tariffStems, tariffForms string
	flags                    string
	terms                    []string // its postings (internal/postings)
}

// newDocument returns the columns of r's row in its full-text table.
func newDocument(r tenderbase.Record, st textproc.Stemmer) document {
	open, tariff := query.IndexedFields(st, r)
	flags := r.Flags()
	d := document{flags: strings.Join(flags, " "), terms: postings.Terms(open, tariff, postings.Titles(r), flags)}
	d.stems, d.forms = columns(open)
	d.tariffStems, d.tariffForms = columns(tariff)
	return d
}

// args returns the values of the full-text table's insert statement.
func (d document) args(rid int64) []any {
	return []any{rid, d.stems, d.forms, d.tariffStems, d.tariffForms, d.flags}
}

// columns returns the stems and the forms of analyzed texts, space-separated
// at the same positions, texts apart by separator.
func columns(fields [][]textproc.Token) (stems, forms string) {
	var s, e strings.Builder
	for i, toks := range fields {
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
	return s.String(), e.String()
}
