package export

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
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
	if !plainFragment(body) && !tokenized(body) {
		return "", false
	}
	return body, true
}

// tokenized reports whether the tokens of a fragment are well formed.
func tokenized(body string) bool {
	c := fragmentChecker{dec: xml.NewDecoder(strings.NewReader(body))}
	c.dec.Strict = true
	return c.check()
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

// plainFragment reports whether a fragment is of the plain shape that
// nearly every stored one has, and well formed: elements without
// attributes or prefixes, whose end tags match their start tags, and text
// of characters XML allows, without references, "]]>", comments or
// anything else. It is a tenth of the cost of the tokenizer, which checks
// every other fragment; a fragment it takes, the tokenizer takes too.
func plainFragment(body string) bool {
	if !utf8.ValidString(body) || strings.Contains(body, "]]>") {
		return false
	}
	var open []string
	for i := 0; i < len(body); {
		switch c := body[i]; {
		case c == '<':
			var ok bool
			if open, i, ok = plainTag(body, i, open); !ok {
				return false
			}
		case c == '&' || c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			return false
		case c == 0xEF:
			// U+FFFE and U+FFFF are the runes XML does not allow that
			// valid UTF-8 can hold, besides the controls.
			r, size := utf8.DecodeRuneInString(body[i:])
			if !xmlChar(r) {
				return false
			}
			i += size
		default:
			i++
		}
	}
	return len(open) == 0
}

// plainTag reads the tag at body[i], "<name>", "<name/>" or "</name>",
// against the open elements, and returns them, with the index past the
// tag, and whether it is such a tag and, if an end tag, the last open
// element's.
func plainTag(body string, i int, open []string) ([]string, int, bool) {
	end := i+1 < len(body) && body[i+1] == '/'
	from := i + 1
	if end {
		from++
	}
	to := from
	for to < len(body) && nameByte(body[to], to == from) {
		to++
	}
	name := body[from:to]
	switch {
	case name == "" || to >= len(body):
		return open, i, false
	case end && body[to] == '>' && len(open) > 0 && open[len(open)-1] == name:
		return open[:len(open)-1], to + 1, true
	case !end && body[to] == '>':
		return append(open, name), to + 1, true
	case !end && body[to] == '/' && to+1 < len(body) && body[to+1] == '>':
		return open, to + 2, true
	}
	return open, i, false
}

// nameByte reports whether c may stand in a plain element name: an ASCII
// letter or _, and past the first byte a digit, - or . too.
func nameByte(c byte, first bool) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		return true
	case first:
		return false
	}
	return '0' <= c && c <= '9' || c == '-' || c == '.'
}
