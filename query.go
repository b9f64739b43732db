package tenderbase

// Query is a parsed search query: a tree of the node types below. Every store
// evaluates the same tree, so the query language means the same everywhere.
// internal/query parses both syntaxes of the language into it.
type Query interface {
	isQuery()
}

// AndQuery matches when every operand matches.
type AndQuery struct{ Operands []Query }

// Split returns the positive operands of q and its exclusions (the
// NotQuery operands), each in the order of q.
func (q AndQuery) Split() (positive, excluded []Query) {
	for _, o := range q.Operands {
		if _, ok := o.(NotQuery); ok {
			excluded = append(excluded, o)
		} else {
			positive = append(positive, o)
		}
	}
	return positive, excluded
}

// OrQuery matches when any operand matches.
type OrQuery struct{ Operands []Query }

// NotQuery matches when its operand does not. It only appears as an operand
// of an AndQuery that has at least one positive operand.
type NotQuery struct{ Operand Query }

// TermQuery matches one word. Form is the word as analyzed (lowercase, ё
// folded to е, Latin letters without diacritics); Stem is its stem as a
// record without a language has it. An Exact term matches only Form; any
// other matches every word with the same Stem, and a word of Latin letters
// also every word of a record in another language with the same stem in
// that language (internal/query).
type TermQuery struct {
	Form  string
	Stem  string
	Exact bool
}

// PhraseQuery matches its terms at adjacent positions, in order, within one
// field of a record.
type PhraseQuery struct{ Terms []TermQuery }

func (AndQuery) isQuery()    {}
func (OrQuery) isQuery()     {}
func (NotQuery) isQuery()    {}
func (TermQuery) isQuery()   {}
func (PhraseQuery) isQuery() {}
