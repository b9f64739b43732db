package xmlread

import (
	"encoding/xml"
	"io"
	"strings"
)

// Node is an element read whole, for formats whose documents come in many
// forms sharing element names (TED's F01-F25, eForms' subtypes): a reader
// asks for what it needs by local name instead of declaring a struct per
// form.
type Node struct {
	Name     string
	Attrs    []xml.Attr
	text     strings.Builder
	Children []*Node
}

// ReadTree reads the element that start opens, with everything inside it.
func ReadTree(d *xml.Decoder, start xml.StartElement) (*Node, error) {
	n := &Node{Name: start.Name.Local, Attrs: start.Attr}
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			c, err := ReadTree(d, t)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, c)
		case xml.CharData:
			n.text.Write(t)
		case xml.EndElement:
			return n, nil
		}
	}
}

// Attr returns the value of the attribute with local name name, or "".
func (n *Node) Attr(name string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return strings.TrimSpace(a.Value)
		}
	}
	return ""
}

// Text returns the element's own text, trimmed: "" for a nil node.
func (n *Node) Text() string {
	if n == nil {
		return ""
	}
	return strings.TrimSpace(n.text.String())
}

// Child returns the first child on the path of local names, or nil: a nil
// node has no children, so paths chain safely.
func (n *Node) Child(path ...string) *Node {
	for _, name := range path {
		if n == nil {
			return nil
		}
		var next *Node
		for _, c := range n.Children {
			if c.Name == name {
				next = c
				break
			}
		}
		n = next
	}
	return n
}

// All returns the children named name.
func (n *Node) All(name string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// Find returns the first element named name below n, depth first, or nil.
func (n *Node) Find(name string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
		if f := c.Find(name); f != nil {
			return f
		}
	}
	return nil
}

// FindAll returns every element named name below n, in document order, not
// looking inside those it finds.
func (n *Node) FindAll(name string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.Name == name {
			out = append(out, c)
			continue
		}
		out = append(out, c.FindAll(name)...)
	}
	return out
}

// Paragraphs returns the texts of the element's <P> children joined by new
// lines, or its own text when it has none: TED writes long texts so.
func (n *Node) Paragraphs() string {
	if n == nil {
		return ""
	}
	ps := n.All("P")
	if len(ps) == 0 {
		return n.Text()
	}
	parts := make([]string, 0, len(ps))
	for _, p := range ps {
		if t := p.Text(); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// ReadDocument reads the root element of r whole.
func ReadDocument(r io.Reader) (*Node, error) {
	d := NewDecoder(r)
	start, err := NextElement(d)
	if err != nil {
		return nil, err
	}
	return ReadTree(d, start)
}
