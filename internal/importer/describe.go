package importer

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// Explainer is implemented by a Decoder that can say why a file which looks
// like its kind of file (JSON, XML) is still not in its format, such as
// "JSON without an OCDS releases or records array". The importer asks it only
// of files no Decoder detects.
type Explainer interface {
	// Explain returns why a file starting with prefix is not in the format,
	// or "" when the file is nothing like it.
	Explain(prefix []byte) string
}

// describe says what a file that no format detects looks like, so that a
// user can tell a wrong file from a format the service does not read.
func describe(prefix []byte) string {
	body := bytes.TrimLeft(bytes.TrimPrefix(prefix, utf8BOM), " \t\r\n")
	switch {
	case len(body) == 0:
		return "only white space"
	case body[0] == '{' || body[0] == '[':
		return describeJSON(body)
	case body[0] == '<':
		return describeMarkup(body)
	case bytes.HasPrefix(body, []byte("%PDF-")):
		return "a PDF document"
	case bytes.HasPrefix(body, []byte{0x1f, 0x8b}):
		return "a gzip stream: unpack it first"
	case bytes.HasPrefix(body, []byte("Rar!")), bytes.HasPrefix(body, []byte("7z\xbc\xaf\x27\x1c")):
		return "a RAR or 7z archive: unpack it first, or pack it as zip"
	case utf8.Valid(body) && !bytes.ContainsRune(body, 0):
		return "plain text, neither JSON nor XML, starting " + strings.TrimSpace(firstLine(body))
	}
	return "binary data"
}

var utf8BOM = []byte("\xef\xbb\xbf")

// firstLine returns the first line of b, quoted and cut to 60 bytes on a
// rune boundary.
func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		b = append(b[:cut:cut], "…"...)
	}
	return fmt.Sprintf("%q", bytes.TrimSpace(b))
}

// maxMembers bounds the member names a description lists.
const maxMembers = 8

// describeJSON names the top-level members of a JSON object, or says it is
// an array, as far as the prefix shows it.
func describeJSON(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return "text that starts like JSON but does not parse: " + err.Error()
	}
	if tok == json.Delim('[') {
		return "a JSON array"
	}
	var members []string
	for len(members) <= maxMembers {
		key, err := dec.Token()
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return "text that starts like JSON but does not parse: " + err.Error()
		}
		if err != nil || key == json.Delim('}') {
			break // the end of the object, or of the prefix
		}
		members = append(members, fmt.Sprintf("%q", key))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			break
		}
	}
	switch {
	case len(members) == 0:
		return "a JSON object without members"
	case len(members) > maxMembers:
		return "a JSON object with members " + strings.Join(members[:maxMembers], ", ") + ", …"
	}
	return "a JSON object with members " + strings.Join(members, ", ")
}

// describeMarkup names the root element of an XML document, with its
// namespace, or says it is HTML.
func describeMarkup(body []byte) string {
	d := xmlread.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	for {
		tok, err := d.Token()
		if err != nil {
			return "text that starts like XML but does not parse: " + err.Error()
		}
		if dir, ok := tok.(xml.Directive); ok && bytes.HasPrefix(bytes.ToLower(dir), []byte("doctype html")) {
			return "an HTML page"
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if strings.EqualFold(se.Name.Local, "html") {
			return "an HTML page"
		}
		if se.Name.Space == "" {
			return fmt.Sprintf("XML whose root element is <%s>, without a namespace", se.Name.Local)
		}
		return fmt.Sprintf("XML whose root element is <%s> in namespace %s", se.Name.Local, se.Name.Space)
	}
}
