package query

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// parser reads tokens by recursive descent. The grammar, loosest first:
//
//	or      = and { "|" and }
//	and     = unary { ["&"] unary }
//	unary   = { "!" } primary
//	primary = word | phrase | "(" or ")"
type parser struct {
	syntax Syntax
	toks   []token
	next   int
	depth  int
	terms  int // the words read so far
	hints  []string
}

// hint notes a hint for the caller, once.
func (p *parser) hint(format string, args ...any) {
	if h := fmt.Sprintf(format, args...); !slices.Contains(p.hints, h) {
		p.hints = append(p.hints, h)
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return tenderbase.Errorf(tenderbase.EINVALID, "%s: %s", p.syntax, fmt.Sprintf(format, args...))
}

func (p *parser) peek() token { return p.toks[p.next] }

func (p *parser) take() token {
	t := p.toks[p.next]
	if t.kind != tokEnd {
		p.next++
	}
	return t
}

func (p *parser) parse() (*node, error) {
	if p.peek().kind == tokEnd {
		return nil, p.errorf("empty query: type a word to find")
	}
	n, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tokClose {
		return nil, p.errorf("unbalanced parenthesis: the closing parenthesis at character %d has no opening one", t.pos)
	}
	return n, nil
}

func (p *parser) parseOr() (*node, error) {
	first, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	or := &node{kind: nodeOr, pos: first.pos, kids: []*node{first}}
	for p.peek().kind == tokOr {
		op := p.take()
		if err := p.needOperand(op); err != nil {
			return nil, err
		}
		n, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		or.kids = append(or.kids, n)
	}
	return or, nil
}

func (p *parser) parseAnd() (*node, error) {
	if t := p.peek(); t.kind == tokAnd || t.kind == tokOr {
		return nil, p.errorf("the operator %s at character %d has nothing on its left", t.text, t.pos)
	}
	first, err := p.parseUnary()
	if err != nil {
		return nil, err
	}
	and := &node{kind: nodeAnd, pos: first.pos, kids: []*node{first}}
	for {
		t := p.peek()
		if t.kind == tokAnd {
			p.take()
			if err := p.needOperand(t); err != nil {
				return nil, err
			}
		} else if !t.startsOperand() {
			return and, nil
		}
		n, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		and.kids = append(and.kids, n)
	}
}

// parseUnary reads a run of "!" iteratively, so that a long run costs no
// stack; an even number of them cancels out.
func (p *parser) parseUnary() (*node, error) {
	var bang token
	nots := 0
	for p.peek().kind == tokNot {
		bang = p.take()
		nots++
		if err := p.needOperand(bang); err != nil {
			return nil, err
		}
	}
	n, err := p.parsePrimary()
	if err != nil || nots%2 == 0 {
		return n, err
	}
	return &node{kind: nodeNot, pos: bang.pos, kids: []*node{n}}, nil
}

func (p *parser) parsePrimary() (*node, error) {
	t := p.take()
	switch t.kind {
	case tokWord:
		return p.word(t)
	case tokPhrase:
		return p.phrase(t)
	case tokOpen:
		return p.group(t)
	case tokClose:
		return nil, p.errorf("unbalanced parenthesis: the closing parenthesis at character %d has no opening one", t.pos)
	}
	return nil, p.errorf("expected a word at character %d, found %s", t.pos, t.describe())
}

// needOperand reports an operator op that has nothing on its right.
func (p *parser) needOperand(op token) error {
	if t := p.peek(); !t.startsOperand() {
		return p.errorf("the operator %s at character %d has nothing on its right", op.text, op.pos)
	}
	return nil
}

func (p *parser) group(open token) (*node, error) {
	switch p.peek().kind {
	case tokEnd:
		return nil, p.errorf("unbalanced parenthesis: the parenthesis at character %d is never closed", open.pos)
	case tokClose:
		return nil, p.errorf("empty group: the parentheses at character %d hold nothing", open.pos)
	}
	if p.depth++; p.depth > MaxDepth {
		return nil, p.errorf("the group at character %d is nested deeper than %d levels", open.pos, MaxDepth)
	}
	n, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	p.depth--
	if p.peek().kind != tokClose {
		return nil, p.errorf("unbalanced parenthesis: the parenthesis at character %d is never closed", open.pos)
	}
	p.take()
	return n, nil
}

// word turns a bare word into a term, or into a phrase when the analyzer
// splits it ("медико-санитарной", "44-ФЗ", "21.20.10").
func (p *parser) word(t token) (*node, error) {
	text, exact := strings.CutPrefix(t.text, "=")
	if text == "" {
		return nil, p.errorf("the = at character %d is not followed by a word", t.pos)
	}
	terms := analyze(text, exact)
	if len(terms) == 0 {
		return nil, p.errorf("the word %s at character %d has no letters or digits", tenderbase.Quote(t.text), t.pos)
	}
	n, err := p.leaf(t.pos, terms)
	if err != nil {
		return nil, err
	}
	// A word of the capitals of the legal forms (OOO, AO) has no word
	// beside it here to say its script, and a record's is read by its
	// neighbours: the word is looked up as typed and in Cyrillic.
	if alt, ok := textproc.CapitalsInCyrillic(text); ok {
		m, err := p.leaf(t.pos, analyze(alt, exact))
		if err != nil {
			return nil, err
		}
		n = &node{kind: nodeOr, pos: t.pos, kids: []*node{n, m}}
	}
	return n, nil
}

// phrase turns quoted text into a phrase; "=" before a word inside the quotes
// makes that word exact. The words are analyzed together, as a record's
// text is, so that a word's neighbours count (OOO in Latin capitals beside
// a Cyrillic word is Cyrillic); how many terms each word gives tells which
// are exact.
func (p *parser) phrase(t token) (*node, error) {
	words := strings.Fields(t.text)
	var exact []bool
	for i, w := range words {
		var isExact bool
		words[i], isExact = strings.CutPrefix(w, "=")
		// The words so far are counted together: a word may join the one
		// before it ("5 000" is one number), and is then as exact as it.
		for n := countWords(strings.Join(words[:i+1], " ")); len(exact) < n; {
			exact = append(exact, isExact)
		}
	}
	var terms []tenderbase.TermQuery
	for i, tok := range textproc.Analyze(strings.Join(words, " ")) {
		terms = append(terms, tenderbase.TermQuery{Form: tok.Form, Stem: tok.Stem, Exact: i < len(exact) && exact[i]})
	}
	if len(terms) == 0 {
		return nil, p.errorf("empty phrase: the quotes at character %d hold no word", t.pos)
	}
	return p.leaf(t.pos, terms)
}

func analyze(text string, exact bool) []tenderbase.TermQuery {
	var terms []tenderbase.TermQuery
	for _, tok := range textproc.Analyze(text) {
		terms = append(terms, tenderbase.TermQuery{Form: tok.Form, Stem: tok.Stem, Exact: exact})
	}
	return terms
}

// leaf returns the term or phrase of the words at pos, counting them
// against MaxTerms.
func (p *parser) leaf(pos int, terms []tenderbase.TermQuery) (*node, error) {
	if p.terms += len(terms); p.terms > MaxTerms {
		return nil, p.errorf("the query has more than %d words; the limit is passed at character %d "+
			"(each word of a phrase and each part of a code such as 21.20.10 counts as one)", MaxTerms, pos)
	}
	if len(terms) == 1 {
		return &node{kind: nodeLeaf, pos: pos, leaf: terms[0]}, nil
	}
	return &node{kind: nodeLeaf, pos: pos, leaf: tenderbase.PhraseQuery{Terms: terms}}, nil
}
