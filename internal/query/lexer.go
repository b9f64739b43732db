package query

import (
	"strings"
	"unicode"
)

type tokenKind int

const (
	tokWord   tokenKind = iota // a bare word, maybe with a leading "="
	tokPhrase                  // the text between double quotes
	tokAnd                     // &
	tokOr                      // |
	tokNot                     // !
	tokOpen                    // (
	tokClose                   // )
	tokEnd                     // end of input
)

type token struct {
	kind tokenKind
	text string
	pos  int // 1-based rune position of the token's first character
}

// operators maps each one-character operator to its token kind. A word ends
// at any of them, and at a double quote or a space.
var operators = map[rune]tokenKind{'&': tokAnd, '|': tokOr, '!': tokNot, '(': tokOpen, ')': tokClose}

// lex splits text into tokens. The only error it finds is a quote that is
// never closed.
func (p *parser) lex(text string) ([]token, error) {
	var toks []token
	runes := []rune(text)
	for i := 0; i < len(runes); {
		r := runes[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '"':
			end := i + 1
			for end < len(runes) && runes[end] != '"' {
				end++
			}
			if end == len(runes) {
				return nil, p.errorf("unbalanced quote: the quote at character %d is never closed", i+1)
			}
			toks = append(toks, token{tokPhrase, string(runes[i+1 : end]), i + 1})
			i = end + 1
		case isOperator(r):
			toks = append(toks, token{operators[r], string(r), i + 1})
			i++
		default:
			end := i
			for end < len(runes) && !unicode.IsSpace(runes[end]) && runes[end] != '"' && !isOperator(runes[end]) {
				end++
			}
			// A word of only signs ("№", "—") is skipped, as the analyzer
			// would skip it inside a text: "школа № 12" means "школа 12".
			if word := string(runes[i:end]); hasLetterOrDigit(word) || strings.HasPrefix(word, "=") {
				toks = append(toks, token{tokWord, word, i + 1})
			}
			i = end
		}
	}
	return append(toks, token{kind: tokEnd, pos: len(runes) + 1}), nil
}

func hasLetterOrDigit(word string) bool {
	return strings.IndexFunc(word, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

func isOperator(r rune) bool {
	_, ok := operators[r]
	return ok
}

// startsOperand reports whether a token can begin an operand.
func (t token) startsOperand() bool {
	return t.kind == tokWord || t.kind == tokPhrase || t.kind == tokNot || t.kind == tokOpen
}

// describe names a token in an error message.
func (t token) describe() string {
	switch t.kind {
	case tokEnd:
		return "the end"
	case tokClose:
		return "the closing parenthesis"
	case tokOpen:
		return "the opening parenthesis"
	}
	return strings.TrimSpace(t.text)
}
