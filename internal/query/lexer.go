package query

import (
	"strings"
	"unicode"

	"github.com/tenderbase/tenderbase/internal/textproc"
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
		case r == '-' && i+1 < len(runes) && unicode.IsLetter(runes[i+1]):
			// "-word", as other engines exclude a word.
			word := string(runes[i+1 : wordEnd(runes, i)])
			if p.syntax == MCP {
				p.hint("-%s was read as !%s, without the word; put it in quotes (\"-%s\") to search the word", word, word, word)
				toks = append(toks, token{tokNot, "-", i + 1})
			} else {
				p.hint("-%s is searched as %s: write !%s to leave out the records with it", word, word, word)
			}
			i++
		default:
			end := wordEnd(runes, i)
			// A word of only signs ("№", "—") is skipped, as the analyzer
			// would skip it inside a text: "школа № 12" means "школа 12".
			if word := string(runes[i:end]); hasLetterOrDigit(word) || strings.HasPrefix(word, "=") {
				toks = p.appendWord(toks, runes, token{tokWord, word, i + 1})
			}
			i = end
		}
	}
	return append(toks, token{kind: tokEnd, pos: len(runes) + 1}), nil
}

// wordEnd returns where the bare word that starts at runes[i] ends: at a
// space, a quote, an operator or the end.
func wordEnd(runes []rune, i int) int {
	for i < len(runes) && !unicode.IsSpace(runes[i]) && runes[i] != '"' && !isOperator(runes[i]) {
		i++
	}
	return i
}

// engineOperators are the operator words of other search engines, which
// the MCP syntax reads as its own operators when they are typed in
// capitals, as those engines write them.
var engineOperators = map[string]tokenKind{"OR": tokOr, "AND": tokAnd, "NOT": tokNot}

// engineSigns are what the words of engineOperators stand for.
var engineSigns = map[tokenKind]string{tokOr: "|", tokAnd: "&", tokNot: "!"}

// russianOperators are operator words typed in Russian capitals, which
// stay words (an all-capitals title has them) but earn a hint.
var russianOperators = map[string]string{"ИЛИ": "| for OR", "НЕ": "! before a word to leave out the records with it"}

// appendWord appends the bare word w to toks: as an operator when it is an
// engine's operator word in the MCP syntax, joined to the word before it
// when the two are one number in groups of digits ("5 000"), and as a word
// otherwise. It notes the hints the word earns.
func (p *parser) appendWord(toks []token, runes []rune, w token) []token {
	if kind, ok := engineOperators[w.text]; ok {
		if p.syntax == MCP {
			p.hint("%s was read as the operator %s; write it in lowercase or in quotes (\"%s\") to search the word", w.text, engineSigns[kind], w.text)
			return append(toks, token{kind, w.text, w.pos})
		}
		p.hint("%s is searched as a word: write %s for the operator", w.text, engineSigns[kind])
	}
	if how, ok := russianOperators[w.text]; ok {
		p.hint("%s is searched as a word: write %s", w.text, how)
	}
	if strings.ContainsAny(w.text, "*?") {
		bare := strings.Trim(w.text, "*?=")
		p.hint("%s is searched as the word %s: there is no wildcard or prefix search, and a word already matches "+
			"its other forms (поставка finds поставки, поставок); type the whole word", w.text, bare)
	}
	if n := len(toks); n > 0 && toks[n-1].kind == tokWord && !strings.HasPrefix(w.text, "=") {
		prev := toks[n-1]
		if joined := string(runes[prev.pos-1 : w.pos-1+len([]rune(w.text))]); joinsNumbers(joined, prev.text, w.text) {
			toks[n-1].text = joined
			return toks
		}
	}
	return append(toks, w)
}

// joinsNumbers reports whether the analyzer reads text, the words a and b
// with what is between them, as fewer words than a and b apart: whether
// the last number of a and the first of b are one number in groups of
// digits ("5 000"). The query reads them as one word then, as a record's
// text is read.
func joinsNumbers(text, a, b string) bool {
	return countWords(text) < countWords(a)+countWords(b)
}

// countWords returns how many words the analyzer reads in text.
func countWords(text string) (n int) {
	for range textproc.Words(text) {
		n++
	}
	return n
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
