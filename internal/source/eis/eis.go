// Package eis reads the XML that the unified procurement information system
// (EIS, zakupki.gov.ru) publishes: 44-FZ documents inside an <export> root
// (notices, protocols, contracts, complaints, check results, plan-schedules)
// and 223-FZ documents that are their own root (purchase notices,
// protocols, contracts, purchase plans). Each kind of document has a private wire struct and an adapter
// to the domain records, in a file of its own; documents.go lists them.
//
// Element names are matched by local name, whatever their namespace prefix,
// so every scheme version that keeps the names reads the same way.
//
// Most of a document is read by no wire struct (signatures, print forms,
// participants' details), so Decode prunes a document before encoding/xml
// decodes it: it drops every element that no wire struct of documentWires
// maps (prune.go). What a wire struct reads is kept byte for byte, and a
// document the pruning does not follow is decoded whole, so the records are
// those of the whole document. One thing differs: a fault inside an element
// no wire struct reads that is not in the shape of its tags (a bad entity,
// a character XML does not allow, "--" in a comment), which encoding/xml
// would reject, no longer rejects the document.
package eis

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

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
// kind that holds no record of ours (a draft of a plan, a clarification) is one
// rejection saying so; a document that does not parse is one rejection
// saying where. A document up to maxPrunedSize is read into memory and
// pruned of what no wire struct maps before it is decoded (prune.go); a
// larger one is decoded whole as it streams.
func (Format) Decode(name string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	in := documentBuffers.Get().(*[]byte)
	defer putDocumentBuffer(in)
	var stream io.Reader
	if *in, stream = readDocument((*in)[:0], r); stream != nil {
		return decodeXML(name, stream, emit)
	}
	out := documentBuffers.Get().(*[]byte)
	defer putDocumentBuffer(out)
	doc := *in
	if pruned, ok := prune((*out)[:0], doc); ok {
		*out, doc = pruned, pruned
	}
	return decodeXML(name, bytes.NewReader(doc), emit)
}

// readDocument appends the document of r to buf, to be pruned, or returns
// the stream to decode it from as it is: for a document larger than
// maxPrunedSize, for one of a kind no decoder reads (a draft of a plan,
// which may be large, is then read no further than its start), and for one
// whose reader fails, so that the decoder meets the failure where it did.
func readDocument(buf []byte, r io.Reader) ([]byte, io.Reader) {
	buf, complete, err := readUpTo(buf, r, kindPrefixSize)
	if err == nil && !complete && !unreadKind(buf) {
		buf, complete, err = readUpTo(buf, r, maxPrunedSize)
	}
	switch {
	case err != nil:
		return buf, io.MultiReader(bytes.NewReader(buf), failingReader{err})
	case !complete:
		return buf, io.MultiReader(bytes.NewReader(buf), r)
	}
	return buf, nil
}

// kindPrefixSize is how much of a document is read before its kind is
// known.
const kindPrefixSize = 64 << 10

// maxPrunedSize is the size of the largest document read into memory to be
// pruned, so that memory stays bounded whatever the size of a file.
const maxPrunedSize = 64 << 20

// documentBuffers holds buffers for documents and their pruned copies,
// which Decode reuses from one document to the next.
var documentBuffers = sync.Pool{New: func() any { return new([]byte) }}

// putDocumentBuffer returns a buffer to documentBuffers, unless it grew
// for an uncommonly large document, which is better left to the collector.
func putDocumentBuffer(b *[]byte) {
	if cap(*b) <= 8<<20 {
		documentBuffers.Put(b)
	}
}

// readUpTo appends to buf what r reads, up to the end of r or until buf
// holds limit+1 bytes, and reports whether it reached the end.
func readUpTo(buf []byte, r io.Reader, limit int) ([]byte, bool, error) {
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(max(len(buf), 32<<10), limit+1-len(buf)))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), limit+1)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, true, nil
		}
		if err != nil {
			return buf, false, err
		}
	}
	return buf, false, nil
}

// failingReader fails every read with err.
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

// decodeXML decodes the EIS document of r as it streams, unpruned.
func decodeXML(name string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
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
		// A number the schema types as one, written otherwise: the
		// decoder stops at the end of its element, where pruning may have
		// put the line breaks of what it left out after it, so the value
		// stands at or before the line it reached.
		var number *strconv.NumError
		if errors.As(err, &number) {
			line, _ := d.InputPos()
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "<%s> holds %q where a number is due, by line %d", kind, number.Num, line)
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
