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
	"io"
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
	case "Файл":
		kind := xmlread.Attr(root, "ТипИнф")
		if strings.HasPrefix(kind, "ЕГРЮЛ") || strings.HasPrefix(kind, "ЕГРИП") {
			return "current"
		}
	}
	return ""
}

// Decode reads every subject of r, one organization each, streaming: a file
// of the open data holds thousands.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	d := xmlread.NewDecoder(r)
	root, err := xmlread.NextElement(d)
	if err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "not EGRUL/EGRIP XML: %v", err))
	}
	legacy := layoutOf(root) == "2014"
	var extracted string // the 2014 layout dates the whole file in its header
	n := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return emit(n, nil, tenderbase.Errorf(tenderbase.EINVALID, "EGRUL/EGRIP XML does not parse after subject %d: %v", n, err))
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		var org *tenderbase.Org
		var recErr error
		switch name := start.Name.Local; {
		case legacy && name == "HEADER":
			extracted = xmlread.Attr(start, "TIMESTAMP")
			continue
		case legacy && (name == "UL" || name == "IP"):
			n++
			org, recErr = decodeLegacy(d, start, extracted)
		case !legacy && (name == "СвЮЛ" || name == "СвИП"):
			n++
			org, recErr = decodeCurrent(d, start)
		default:
			continue
		}
		if recErr == nil {
			recErr = check(org)
		}
		if err := emit(n, orNil(org, recErr), recErr); err != nil {
			return err
		}
	}
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
