package export

import (
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

// appendXML appends record v of kind k as an element with one child per
// field of fields, in their order; a field hidden or without a value is an
// empty element.
func (w *Writer) appendXML(buf []byte, k tenderbase.Kind, fields []Field, hidden []bool, v reflect.Value) []byte {
	el := elementOf(k)
	buf = append(buf, "  <"...)
	buf = append(buf, el...)
	buf = append(buf, ">\n"...)
	for i, f := range fields {
		buf = appendXMLField(buf, f, valueOf(v, f, hidden[i]), w.meta.Compat)
	}
	buf = append(buf, "  </"...)
	buf = append(buf, el...)
	return append(buf, ">\n"...)
}

func appendXMLField(buf []byte, f Field, val value, c Compat) []byte {
	buf = append(buf, "    <"...)
	buf = append(buf, f.Name...)
	if !val.ok {
		return append(buf, "/>\n"...)
	}
	buf = append(buf, '>')
	switch f.Type {
	case TypeInt:
		buf = strconv.AppendInt(buf, val.num, 10)
	case TypeBool:
		buf = strconv.AppendBool(buf, val.flag)
	case TypeDate:
		buf = appendDate(buf, val.date, c)
	case TypeXML:
		buf = appendFragment(buf, val.text)
	default:
		buf = appendXMLText(buf, val.text)
	}
	buf = append(buf, "</"...)
	buf = append(buf, f.Name...)
	return append(buf, ">\n"...)
}

// appendFragment appends an XML fragment as XML when it is well formed, and
// as escaped text otherwise, so that a malformed stored value never makes
// the document malformed.
func appendFragment(buf []byte, fragment string) []byte {
	if body, ok := wellFormed(fragment); ok {
		return append(buf, body...)
	}
	return appendXMLText(buf, fragment)
}

// appendXMLText appends s as XML character data. Characters XML 1.0 cannot
// hold, and invalid UTF-8, become U+FFFD.
func appendXMLText(buf []byte, s string) []byte { return appendEscaped(buf, s, false) }

// appendXMLAttr appends s as the value of an attribute in double quotes.
func appendXMLAttr(buf []byte, s string) []byte { return appendEscaped(buf, s, true) }

// appendEscaped appends s escaped. Runs of bytes that need no escape are
// copied at once, as most text needs none: in valid UTF-8 only a rune that
// 0xEF begins (U+F000 to U+FFFF) can be one XML does not allow, U+FFFE or
// U+FFFF, so the other bytes of multi-byte runes are copied without
// decoding them.
func appendEscaped(buf []byte, s string, attr bool) []byte {
	valid := utf8.ValidString(s)
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plainByte(c, attr) || c >= utf8.RuneSelf && valid && c != 0xEF {
			i++
			continue
		}
		buf = append(buf, s[start:i]...)
		var size int
		buf, size = appendEscapedRune(buf, s[i:], attr)
		i += size
		start = i
	}
	return append(buf, s[start:]...)
}

// appendEscapedRune appends the first rune of s escaped, and returns its
// size in s.
func appendEscapedRune(buf []byte, s string, attr bool) ([]byte, int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == '&':
		buf = append(buf, "&amp;"...)
	case r == '<':
		buf = append(buf, "&lt;"...)
	case r == '>':
		buf = append(buf, "&gt;"...)
	case r == '"' && attr:
		buf = append(buf, "&quot;"...)
	case r == '\r':
		buf = append(buf, "&#xD;"...)
	case !xmlChar(r) || (r == utf8.RuneError && size == 1):
		buf = append(buf, "\uFFFD"...)
	default:
		buf = append(buf, s[:size]...)
	}
	return buf, size
}

// plainByte reports whether the ASCII byte c stands for itself in XML
// text, or in an attribute's value when attr is set.
func plainByte(c byte, attr bool) bool {
	return c >= 0x20 && c < utf8.RuneSelf && c != '&' && c != '<' && c != '>' && (c != '"' || !attr)
}

// xmlChar reports whether XML 1.0 allows r in a document.
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}
