// Package egrul reads the registers of the Federal Tax Service: EGRUL (legal
// entities) and EGRIP (individual entrepreneurs), as their open-data files
// are published in windows-1251: the current layout (a <Файл> of
// <Документ>s holding <СвЮЛ> or <СвИП>, format versions 4.0x, files
// VO_RUGFO_* and VO_RIGFO_*, and the single-subject <ЕГРЮЛ>/<ЕГРИП>
// extracts of the same elements) and the 2014 layout (<EGRUL_UL_DATA> of
// <UL>, <EGRIP_IP_DATA> of <IP>). Each subject becomes the register part of
// a tenderbase.Org; current.go and legacy.go map the two layouts.
package egrul

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// Format is the EGRUL and EGRIP XML as a source format.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "EGRUL/EGRIP XML" }

// Detect reports whether a file starting with prefix is a register file: its
// root is one of the layouts' roots, and a <Файл> says it holds EGRUL or
// EGRIP data (the tax service names other files <Файл> too).
func (Format) Detect(prefix []byte) bool {
	root, err := xmlread.NextElement(xmlread.NewDecoder(strings.NewReader(string(prefix))))
	if err != nil {
		return false
	}
	return layoutOf(root) != ""
}

// layoutOf names the layout a root element opens, or "".
func layoutOf(root xml.StartElement) string {
	switch root.Name.Local {
	case "EGRUL_UL_DATA", "EGRIP_IP_DATA":
		return "2014"
	case "ЕГРЮЛ", "ЕГРИП":
		return "current"
	case "EGRUL", "EGRIP":
		// The full extract the tax service delivers to other agencies
		// (EGRUL_FULL_*.xml): the elements of the current layout, dated
		// by the root.
		if xmlread.Attr(root, "ДатаВыг") != "" {
			return "current"
		}
	case "Файл":
		kind := xmlread.Attr(root, "ТипИнф")
		if strings.HasPrefix(kind, "ЕГРЮЛ") || strings.HasPrefix(kind, "ЕГРИП") {
			return "current"
		}
	}
	return ""
}

// Decode reads every subject of r, one organization each, streaming: a file
// of the open data holds thousands. A file whose header counts its
// documents (<Файл КолДок>, 2014: <HEADER CNT_DOK>) and holds another
// number of them is read whole, and the difference is noted.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	d := xmlread.NewDecoder(r)
	root, err := xmlread.NextElement(d)
	if err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "not EGRUL/EGRIP XML: %v", err))
	}
	legacy := layoutOf(root) == "2014"
	f := file{root: root.Name.Local, declared: -1, extracted: xmlread.Attr(root, "ДатаВыг")}
	if kol := xmlread.Attr(root, "КолДок"); kol != "" {
		f.declared = atoiOr(kol, -1)
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return f.end(emit)
		}
		if err != nil {
			return emit(f.subjects, nil, tenderbase.Errorf(tenderbase.EINVALID, "EGRUL/EGRIP XML does not parse after subject %d: %v", f.subjects, err))
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		var org *tenderbase.Org
		var recErr error
		switch name := start.Name.Local; {
		case legacy && name == "HEADER":
			f.extracted = xmlread.Attr(start, "TIMESTAMP")
			f.declared = atoiOr(xmlread.Attr(start, "CNT_DOK"), -1)
			continue
		case legacy && (name == "UL" || name == "IP"):
			f.subjects++
			f.documents++
			org, recErr = decodeLegacy(d, start, f.extracted)
		case !legacy && name == "Документ":
			f.documents++
			continue
		case !legacy && (name == "СвЮЛ" || name == "СвИП"):
			f.subjects++
			org, recErr = decodeCurrent(d, start, f.extracted)
		default:
			continue
		}
		if recErr == nil {
			recErr = check(org)
		}
		if err := emit(f.subjects, orNil(org, recErr), recErr); err != nil {
			return err
		}
	}
}

// file is what Decode keeps of the file it reads: its root, the date its
// root or header gives, the documents its header declares (-1 when it
// declares none) and those it holds.
type file struct {
	root      string
	extracted string
	declared  int
	documents int
	subjects  int
}

// end notes, once the file is read, a header whose count of documents
// disagrees with the documents the file holds.
func (f file) end(emit func(line int, rec tenderbase.Record, err error) error) error {
	if f.declared < 0 || f.declared == f.documents {
		return nil
	}
	return emit(0, nil, countMismatch{root: f.root, declared: f.declared, found: f.documents})
}

// countMismatch is a file whose header counts other documents than it
// holds: a file cut short or put together by hand. It costs no record (each
// subject read is kept), so it is a note of the file, not a rejection:
// FileNote tells the importer so.
type countMismatch struct {
	root            string
	declared, found int
}

func (e countMismatch) Error() string {
	return fmt.Sprintf("the header of <%s> declares %d documents, the file holds %d", e.root, e.declared, e.found)
}

// FileNote marks the error as a note of the file as a whole.
func (countMismatch) FileNote() bool { return true }

func atoiOr(s string, or int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return or
	}
	return n
}

// orNil returns no record when there is an error, so that emit gets one or
// the other.
func orNil(org *tenderbase.Org, err error) tenderbase.Record {
	if err != nil {
		return nil
	}
	return org
}

// check refuses a subject without what identifies it.
func check(o *tenderbase.Org) error {
	if o.INN == "" {
		return tenderbase.Errorf(tenderbase.EINVALID, "%s subject %s %q has no INN", strings.ToUpper(o.RegisterSource), o.OGRN, o.Name)
	}
	return nil
}
