// Package xmlread holds what every XML source format needs before its own
// wire structs: a decoder that reads the encodings publishers declare
// (windows-1251 at the Federal Tax Service, UTF-8 elsewhere), and the root
// element of a document.
package xmlread

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"

	"golang.org/x/text/encoding/htmlindex"
)

// NewDecoder returns an XML decoder of r that reads any encoding the WHATWG
// encoding list names, as declared in the XML declaration.
func NewDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.CharsetReader = charsetReader
	return d
}

func charsetReader(label string, r io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, fmt.Errorf("encoding %q is not known", label)
	}
	return enc.NewDecoder().Reader(r), nil
}

// NextElement returns the next start element of d, skipping text, comments,
// directives and processing instructions.
func NextElement(d *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return xml.StartElement{}, errors.New("no element")
		}
		if err != nil {
			return xml.StartElement{}, err
		}
		if start, ok := tok.(xml.StartElement); ok {
			return start, nil
		}
	}
}

// Attr returns the value of the attribute of start with local name name, or
// "".
func Attr(start xml.StartElement, name string) string {
	for _, a := range start.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
