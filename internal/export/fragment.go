package export

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// wellFormed reports whether an XML fragment can stand as the content of an
// element of the export document, and returns it without a leading XML
// declaration, which may only open a document. A fragment may hold several
// elements and text. Beyond what the strict encoding/xml tokenizer checks, it
// checks what that tokenizer leaves to the caller: that end tags match start
// tags, that no attribute is given twice, that every prefix is declared
// within the fragment (the document declares none), and that no declaration,
// document type or "]]>" appears in it.
func wellFormed(fragment string) (string, bool) {
	body := fragment
	if strings.HasPrefix(body, "<?xml") {
		end := strings.Index(body, "?>")
		if end < 0 {
			return "", false
		}
		body = body[end+2:]
	}
	if strings.Contains(body, "]]>") && !strings.Contains(body, "<![CDATA[") {
		return "", false
	}
	c := fragmentChecker{dec: xml.NewDecoder(strings.NewReader(body))}
	c.dec.Strict = true
	if !c.check() {
		return "", false
	}
	return body, true
}

// fragmentChecker walks a fragment's raw tokens with the open elements and
// the prefixes each declares.
type fragmentChecker struct {
	dec   *xml.Decoder
	open  []xml.Name
	scope []map[string]bool
}

func (c *fragmentChecker) check() bool {
	for {
		tok, err := c.dec.RawToken()
		if errors.Is(err, io.EOF) {
			return len(c.open) == 0
		}
		if err != nil || !c.token(tok) {
			return false
		}
	}
}

func (c *fragmentChecker) token(tok xml.Token) bool {
	switch t := tok.(type) {
	case xml.StartElement:
		return c.start(t)
	case xml.EndElement:
		n := len(c.open)
		if n == 0 || c.open[n-1] != t.Name {
			return false
		}
		c.open, c.scope = c.open[:n-1], c.scope[:n-1]
	case xml.ProcInst:
		return !strings.EqualFold(t.Target, "xml")
	case xml.Directive:
		return false
	}
	return true
}

func (c *fragmentChecker) start(t xml.StartElement) bool {
	declared := map[string]bool{}
	seen := map[xml.Name]bool{}
	for _, a := range t.Attr {
		if seen[a.Name] {
			return false
		}
		seen[a.Name] = true
		if a.Name.Space == "xmlns" {
			declared[a.Name.Local] = true
		}
	}
	c.open, c.scope = append(c.open, t.Name), append(c.scope, declared)
	if !c.declared(t.Name.Space) {
		return false
	}
	for _, a := range t.Attr {
		if a.Name.Space != "xmlns" && !c.declared(a.Name.Space) {
			return false
		}
	}
	return true
}

// declared reports whether prefix is declared on an open element, or needs
// no declaration.
func (c *fragmentChecker) declared(prefix string) bool {
	if prefix == "" || prefix == "xml" || (prefix == "xmlns") {
		return true
	}
	for _, d := range c.scope {
		if d[prefix] {
			return true
		}
	}
	return false
}
