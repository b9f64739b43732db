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
	// at holds, for each child, the length of the element's own text
	// before it, so that mixed content (TED's <P>text <FT>2</FT> more</P>)
	// reads back in document order.
	at []int
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
			n.at = append(n.at, n.text.Len())
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

// Content returns all the text inside the element, its own and that of the
// elements within it, in document order and untrimmed: "" for a nil node.
func (n *Node) Content() string {
	if n == nil {
		return ""
	}
	if len(n.Children) == 0 {
		return n.text.String()
	}
	var b strings.Builder
	n.writeContent(&b)
	return b.String()
}

func (n *Node) writeContent(b *strings.Builder) {
	own, from := n.text.String(), 0
	for i, c := range n.Children {
		b.WriteString(own[from:n.at[i]])
		from = n.at[i]
		c.writeContent(b)
	}
	b.WriteString(own[from:])
}

// Paragraphs returns the content of the element's <P> children, or its
// whole content when it has none, a line each: each line trimmed, empty
// ones dropped, so that indentation and blank lines of the file do not
// become text. TED writes long texts so, with formatting elements (<FT>)
// inside the paragraphs.
func (n *Node) Paragraphs() string {
	if n == nil {
		return ""
	}
	ps := n.All("P")
	if len(ps) == 0 {
		ps = []*Node{n}
	}
	var lines []string
	for _, p := range ps {
		for _, l := range strings.Split(p.Content(), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
	}
	return strings.Join(lines, "\n")
}

// Line returns the element's content on one line: runs of white space,
// line breaks among them, become one space. Titles are read so.
func (n *Node) Line() string {
	return strings.Join(strings.Fields(n.Content()), " ")
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
