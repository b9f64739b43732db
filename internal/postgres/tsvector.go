package postgres

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Limits of a tsvector. PostgreSQL clamps a larger position to maxPosition
// and drops the positions of a lexeme past maxPositions, silently.
const (
	maxPosition  = 16383
	maxPositions = 256
)

// exactPrefix marks the lexeme of a word's exact form. textproc never yields
// it within a word, so an exact form never meets a stem.
const exactPrefix = "="

// document is a record's text as the records table holds it.
type document struct {
	tsv string
	// lossy is set when PostgreSQL cannot keep every position of tsv, so
	// that a phrase may match where it should not or miss where it should.
	lossy bool
}

// newDocument writes the tsvector of a record's analyzed texts: each word's
// stem and '=' and its form at the word's position. One position is left
// empty between two texts, so that a phrase, which needs adjacent
// positions, never spans two texts.
func newDocument(fields [][]textproc.Token) document {
	positions := map[string][]int{}
	pos := 0
	for i, toks := range fields {
		if i > 0 {
			pos++
		}
		for _, t := range toks {
			pos++
			positions[t.Stem] = append(positions[t.Stem], pos)
			positions[exactPrefix+t.Form] = append(positions[exactPrefix+t.Form], pos)
		}
	}
	lexemes := make([]string, 0, len(positions))
	for l := range positions {
		lexemes = append(lexemes, l)
	}
	slices.Sort(lexemes)
	var b strings.Builder
	d := document{lossy: pos > maxPosition}
	for i, l := range lexemes {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteLexeme(l))
		b.WriteByte(':')
		ps := positions[l]
		d.lossy = d.lossy || len(ps) > maxPositions
		for j, p := range ps[:min(len(ps), maxPositions)] {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(min(p, maxPosition)))
		}
	}
	d.tsv = b.String()
	return d
}

// quoteLexeme writes a lexeme as tsvector and tsquery literals take it:
// quoted, with quotes and backslashes escaped, so that no word is read as
// syntax.
func quoteLexeme(l string) string {
	l = strings.ReplaceAll(l, `\`, `\\`)
	return "'" + strings.ReplaceAll(l, "'", "''") + "'"
}
