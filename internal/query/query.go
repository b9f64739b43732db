// Package query parses the search query language (spec 4.4) into the syntax
// tree of the root package, prints trees, and evaluates them against analyzed
// text. Both spellings of the language, the "query" argument of the MCP search
// tools and the "kwords" parameter of the export, go through one parser, so a
// query means the same wherever it is typed.
package query

import (
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

// Syntax names where a query was typed. The two syntaxes accept the same
// language; the syntax decides how errors name the input.
type Syntax int

const (
	// MCP is the "query" argument of the MCP search tools.
	MCP Syntax = iota
	// Kwords is the "kwords" parameter of the export.
	Kwords
)

// String returns the name of the parameter the syntax is typed into.
func (s Syntax) String() string {
	if s == Kwords {
		return "kwords"
	}
	return "query"
}

// Limits that bound the work one query can cause. Every word is a lookup in
// the index, so MaxTerms bounds the lookups: the words of a query, each word
// of a phrase and each part of a code or a hyphenated word counting as one.
const (
	MaxLength = 1000 // runes
	MaxDepth  = 32   // nested groups
	MaxTerms  = 100  // words
)

// Parse parses text typed in syntax s into a query tree. The tree is
// normalized: nested AND and OR of one kind are flattened, single operands
// stand alone, and a NotQuery appears only as an operand of an AndQuery that
// also has a positive operand. Any error is a *tenderbase.Error with code
// EINVALID whose message says what is wrong and at which character (counted
// in runes from 1).
func Parse(text string, s Syntax) (tenderbase.Query, error) {
	q, _, err := ParseWithHints(text, s)
	return q, err
}

// ParseWithHints is Parse that also returns hints for the caller: what
// was read otherwise than another search engine would read it. In the MCP
// syntax OR, AND and NOT in capitals and a leading "-" are operators, and
// the hints say so; in the kwords syntax they stay words, as spec 4.4 has
// them, and the hints name the operator to write. "постав*" earns a hint
// in either: there is no wildcard. A search answer shows the hints.
func ParseWithHints(text string, s Syntax) (tenderbase.Query, []string, error) {
	p := &parser{syntax: s}
	if n := utf8.RuneCountInString(text); n > MaxLength {
		return nil, nil, p.errorf("the query is %d characters long; the limit is %d", n, MaxLength)
	}
	if !utf8.ValidString(text) {
		return nil, nil, p.errorf("the query is not valid UTF-8 text")
	}
	toks, err := p.lex(text)
	if err != nil {
		return nil, nil, err
	}
	p.toks = toks
	root, err := p.parse()
	if err != nil {
		return nil, nil, err
	}
	root = normalize(root)
	if err := p.checkExclusions(root, nil); err != nil {
		return nil, nil, err
	}
	return root.query(), p.hints, nil
}
