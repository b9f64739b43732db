package query

import "github.com/tenderbase/tenderbase"

type nodeKind int

const (
	nodeLeaf nodeKind = iota
	nodeAnd
	nodeOr
	nodeNot
)

// node is the parser's tree: the root package's tree plus the position each
// part was typed at, so that errors found after parsing can point at it.
type node struct {
	kind nodeKind
	pos  int
	kids []*node
	leaf tenderbase.Query // a TermQuery or a PhraseQuery
}

// normalize flattens nested AND and OR of one kind, drops single-operand AND
// and OR, and cancels double negation.
func normalize(n *node) *node {
	switch n.kind {
	case nodeAnd, nodeOr:
		var kids []*node
		for _, k := range n.kids {
			k = normalize(k)
			if k.kind == n.kind {
				kids = append(kids, k.kids...)
			} else {
				kids = append(kids, k)
			}
		}
		if len(kids) == 1 {
			return kids[0]
		}
		n.kids = kids
	case nodeNot:
		k := normalize(n.kids[0])
		if k.kind == nodeNot {
			return k.kids[0]
		}
		n.kids[0] = k
	}
	return n
}

// checkExclusions rejects a NotQuery that is not an operand of an AndQuery
// with a positive operand: a lone exclusion would mean "every record without
// this word", which no index can answer cheaply and no user means.
func (p *parser) checkExclusions(n, parent *node) error {
	if n.kind == nodeNot && !hasPositive(parent) {
		if parent != nil && parent.kind == nodeOr {
			return p.errorf("the exclusion at character %d is a whole OR branch; put a word to find beside it in the same branch (as in \"a | c !b\")", n.pos)
		}
		return p.errorf("the exclusion at character %d has no word to find beside it; a query, group or OR branch of exclusions alone cannot be searched (write e.g. \"поставка !ремонт\")", n.pos)
	}
	for _, k := range n.kids {
		if err := p.checkExclusions(k, n); err != nil {
			return err
		}
	}
	return nil
}

func hasPositive(and *node) bool {
	if and == nil || and.kind != nodeAnd {
		return false
	}
	for _, k := range and.kids {
		if k.kind != nodeNot {
			return true
		}
	}
	return false
}

// query converts the tree to the root package's types.
func (n *node) query() tenderbase.Query {
	switch n.kind {
	case nodeAnd:
		return tenderbase.AndQuery{Operands: queries(n.kids)}
	case nodeOr:
		return tenderbase.OrQuery{Operands: queries(n.kids)}
	case nodeNot:
		return tenderbase.NotQuery{Operand: n.kids[0].query()}
	}
	return n.leaf
}

func queries(nodes []*node) []tenderbase.Query {
	qs := make([]tenderbase.Query, len(nodes))
	for i, n := range nodes {
		qs[i] = n.query()
	}
	return qs
}
