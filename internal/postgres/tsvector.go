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

// tariffWeight labels the positions of the text of a record's tariff
// fields (tenderbase.TariffText). Every other position keeps the default
// weight D, which the lexemes of a query that may not match tariff text ask
// for.
const tariffWeight = "A"

// document is a record's text as the records table holds it.
type document struct {
	tsv string
	// lossy is set when PostgreSQL cannot keep every position of tsv, so
	// that a phrase may match where it should not or miss where it should.
	lossy bool
	// tariff is set when the record has text of tariff fields.
	tariff bool
}

// position is a word's place in a document, and whether it is in the text
// of a tariff field.
type position struct {
	n      int
	tariff bool
}

// newDocument writes the tsvector of a record's analyzed texts, those
// every plan may match (open) and then those of its tariff fields, whose
// positions are labelled tariffWeight: each word's keys (a homograph has
// one per lemma, textproc.LemmaKeys) and '=' and its form at the word's
// position. One position is left empty between two
// texts, so that a phrase, which needs adjacent positions, never spans two
// texts, nor the open and the tariff text.
func newDocument(open, tariff [][]textproc.Token) document {
	positions := map[string][]position{}
	pos := 0
	for i, toks := range slices.Concat(open, tariff) {
		if i > 0 {
			pos++
		}
		for _, t := range toks {
			pos++
			p := position{n: pos, tariff: i >= len(open)}
			for _, k := range textproc.LemmaKeys(t.Stem) {
				positions[k] = append(positions[k], p)
			}
			positions[exactPrefix+t.Form] = append(positions[exactPrefix+t.Form], p)
		}
	}
	lexemes := make([]string, 0, len(positions))
	for l := range positions {
		lexemes = append(lexemes, l)
	}
	slices.Sort(lexemes)
	var b strings.Builder
	d := document{lossy: pos > maxPosition, tariff: len(tariff) > 0}
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
			b.WriteString(strconv.Itoa(min(p.n, maxPosition)))
			if p.tariff {
				b.WriteString(tariffWeight)
			}
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
