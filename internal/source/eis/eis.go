// Package eis reads the XML that the unified procurement information system
// (EIS, zakupki.gov.ru) publishes: 44-FZ documents inside an <export> root
// (notices, protocols, contracts, complaints, check results) and 223-FZ
// documents that are their own root (purchase notices, protocols,
// contracts). Each kind of document has a private wire struct and an adapter
// to the domain records, in a file of its own; documents.go lists them.
//
// Element names are matched by local name, whatever their namespace prefix,
// so every scheme version that keeps the names reads the same way.
package eis

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// namespacePrefix begins every namespace the EIS publishes in.
const namespacePrefix = "http://zakupki.gov.ru/"

// Format is EIS XML as a source format the importer can detect and decode.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "EIS XML" }

// WholeFiles reports that every file is one document, whose records the
// importer stores in one transaction.
func (Format) WholeFiles() bool { return true }

// Detect reports whether a file starting with prefix is an EIS document: its
// root element is in an EIS namespace.
func (Format) Detect(prefix []byte) bool {
	root, err := rootElement(xml.NewDecoder(bytes.NewReader(prefix)))
	return err == nil && strings.HasPrefix(root.Name.Space, namespacePrefix)
}

// Decode reads the EIS document of r and emits its records. A document of a
// kind that holds no record of ours (a plan, a clarification) is one
// rejection saying so; a document that does not parse is one rejection
// saying where.
func (Format) Decode(name string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	d := xml.NewDecoder(r)
	root, err := rootElement(d)
	if err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "not EIS XML: %v", err))
	}
	doc := root
	if root.Name.Local == "export" {
		if doc, err = nextElement(d); err != nil {
			return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "<export> holds no document: %v", err))
		}
	}
	recs, err := decodeDocument(d, doc, name)
	if err != nil {
		return emit(0, nil, err)
	}
	for _, rec := range recs {
		if err := emit(0, rec, nil); err != nil {
			return err
		}
	}
	return nil
}

// decodeDocument decodes the document element start with the decoder of its
// kind.
func decodeDocument(d *xml.Decoder, start xml.StartElement, fileName string) ([]tenderbase.Record, error) {
	kind := start.Name.Local
	decode, ok := documentDecoder(kind)
	if !ok {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "EIS document <%s> holds no record of ours (%s)", kind, whyNot(kind))
	}
	recs, err := decode(d, start, source{fileName: fileName, kind: kind})
	if err != nil {
		var syntax *xml.SyntaxError
		if errors.As(err, &syntax) {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "<%s> is not well-formed XML at line %d: %s", kind, syntax.Line, syntax.Msg)
		}
		return nil, fmt.Errorf("<%s>: %w", kind, err)
	}
	return recs, nil
}

// source is what a document decoder knows of where its document came from.
type source struct {
	fileName string // base name of the file or archive member
	kind     string // local name of the document element
}

// documentFunc decodes one document element into records.
type documentFunc func(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error)

// rootElement returns the first start element of d.
func rootElement(d *xml.Decoder) (xml.StartElement, error) {
	return nextElement(d)
}

// nextElement returns the next start element of d, skipping text, comments
// and processing instructions.
func nextElement(d *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return xml.StartElement{}, errors.New("no element")
			}
			return xml.StartElement{}, err
		}
		if start, ok := tok.(xml.StartElement); ok {
			return start, nil
		}
	}
}
