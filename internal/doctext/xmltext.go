package doctext

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
)

// DOCX and ODT are zip files of XML, and need no library: their text is
// taken out of the XML as it is unpacked, element by element, so that a
// document of any size takes little memory. The Go DOCX libraries are made
// to write and edit documents, and read them whole.

// xmlHandler takes the text out of the tokens of a document's XML.
type xmlHandler interface {
	start(xml.StartElement)
	end(xml.EndElement)
	text(xml.CharData) error
}

// xmlParts reads the text of the named parts of a zip package, in order;
// the first must be there.
func (e *extraction) xmlParts(zr *zip.Reader, format Format, parts []string, h xmlHandler) error {
	for i, name := range parts {
		zf := findPart(zr, name)
		if zf == nil {
			if i == 0 {
				return invalid("damaged %s: it has no %s", format, name)
			}
			continue
		}
		if err := e.xmlPart(zf, h); err != nil {
			return partError(format, name, err)
		}
		e.out.Break()
	}
	return nil
}

// findPart returns the member of zr of the given name, which packages
// written on Windows may give in another case.
func findPart(zr *zip.Reader, name string) *zip.File {
	for _, zf := range zr.File {
		if strings.EqualFold(zf.Name, name) {
			return zf
		}
	}
	return nil
}

// xmlPart streams one part's XML through h.
func (e *extraction) xmlPart(zf *zip.File, h xmlHandler) error {
	rc, err := zf.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	d := xml.NewDecoder(e.meter(rc, 0))
	d.CharsetReader = charsetReader
	for {
		// Raw tokens are enough: elements are told by their local names,
		// and their nesting needs no check to take the text out. They cost
		// a third less than namespace-resolved ones.
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			h.start(t)
		case xml.EndElement:
			h.end(t)
		case xml.CharData:
			if err := h.text(t); err != nil {
				return err
			}
		}
	}
}

// partError is the error of a part that could not be read to its end.
func partError(format Format, name string, err error) error {
	var large errTooLarge
	var budget errBudget
	switch {
	case errors.Is(err, errTextFull):
		return err
	case errors.As(err, &large) || errors.As(err, &budget):
		return invalid("%v", err)
	}
	return invalid("damaged %s: %s: %v", format, name, err)
}

// charsetReader decodes XML declared in an encoding other than UTF-8.
func charsetReader(label string, r io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, fmt.Errorf("unknown encoding %q", label)
	}
	return enc.NewDecoder().Reader(r), nil
}

// wordText takes the text out of WordprocessingML: runs of text, tabs and
// breaks, paragraphs and table cells. Deleted text and field codes are in
// elements of their own names, and so left out; so is the fallback of
// markup-compatibility blocks, which repeats their first choice.
type wordText struct {
	out      *textBuilder
	inText   bool
	fallback int
	cells    int // depth inside table cells, whose paragraphs a row keeps on a line
}

func (w *wordText) start(el xml.StartElement) {
	switch el.Name.Local {
	case "t":
		w.inText = true
	case "tab", "ptab":
		w.out.Space()
	case "br", "cr":
		w.out.Break()
	case "noBreakHyphen":
		if w.fallback == 0 {
			w.out.WriteRune('-')
		}
	case "Fallback":
		w.fallback++
	case "tc":
		w.cells++
	}
}

func (w *wordText) end(el xml.EndElement) {
	switch el.Name.Local {
	case "t":
		w.inText = false
	case "p":
		paragraphEnd(w.out, w.cells)
	case "tr":
		w.out.Break()
	case "tc":
		w.cells--
		w.out.Space()
	case "Fallback":
		w.fallback--
	}
}

func (w *wordText) text(c xml.CharData) error {
	if !w.inText || w.fallback > 0 {
		return nil
	}
	return w.out.WriteString(string(c))
}

// odfText takes the text out of the body of an OpenDocument's content.xml:
// paragraphs and headings, spaces, tabs and line breaks, table cells and
// rows. Tracked changes hold deleted text and are left out.
type odfText struct {
	out     *textBuilder
	body    int // depth inside office:body
	tracked int // depth inside text:tracked-changes
	cells   int // depth inside table cells
}

func (o *odfText) start(el xml.StartElement) {
	switch el.Name.Local {
	case "body":
		o.body++
	case "tracked-changes":
		o.tracked++
	case "s", "tab":
		o.out.Space()
	case "line-break":
		o.out.Break()
	case "table-cell", "covered-table-cell":
		o.cells++
	}
}

func (o *odfText) end(el xml.EndElement) {
	switch el.Name.Local {
	case "body":
		o.body--
	case "tracked-changes":
		o.tracked--
	case "p", "h":
		paragraphEnd(o.out, o.cells)
	case "table-row":
		o.out.Break()
	case "table-cell", "covered-table-cell":
		o.cells--
		o.out.Space()
	}
}

func (o *odfText) text(c xml.CharData) error {
	if o.body <= 0 || o.tracked > 0 {
		return nil
	}
	return o.out.WriteString(string(c))
}

// paragraphEnd ends a paragraph: with a line break, or inside a table cell
// with a space, so that a row of a table stays on one line.
func paragraphEnd(out *textBuilder, cells int) {
	if cells > 0 {
		out.Space()
		return
	}
	out.Break()
}
