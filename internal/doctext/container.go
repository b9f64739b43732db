package doctext

import (
	"archive/zip"
	"encoding/xml"
	"io"
	"path"
	"slices"
	"strings"
)

// A zip file is a DOCX or XLSX document when its [Content_Types].xml names
// a main part of WordprocessingML or SpreadsheetML, an ODT or ODS document
// when its mimetype member says so, and otherwise an archive. Only when
// neither member is there do the other members, and the file's extension,
// tell.

// container is what a zip file holds.
type container struct {
	format  Format   // DOCX, XLSX, ODT, ODS, or Zip for an archive
	parts   []string // for DOCX, the parts with text, the main one first
	notRead string   // the reason a document format is not read
}

// zip reads a zip file: a document, or else an archive of documents.
func (e *extraction) zip(f file) (Format, error) {
	zr, err := zip.NewReader(f.r, f.size)
	if err != nil {
		return Zip, damaged(Zip, err)
	}
	c, err := e.container(zr, f.name)
	if err != nil {
		return "", err
	}
	switch c.format {
	case DOCX:
		return DOCX, e.xmlParts(zr, DOCX, c.parts, &wordText{out: &e.out})
	case XLSX:
		return XLSX, e.xlsx(f, zr)
	case ODT, ODS:
		return c.format, e.xmlParts(zr, c.format, []string{"content.xml"}, &odfText{out: &e.out})
	}
	if c.notRead != "" {
		return "", invalid("%s", c.notRead)
	}
	if f.depth >= e.lim.MaxArchiveDepth {
		return Zip, tooDeep(Zip, e.lim.MaxArchiveDepth)
	}
	return Zip, e.zipArchive(f, zr)
}

// container tells what a zip file holds.
func (e *extraction) container(zr *zip.Reader, name string) (container, error) {
	files := map[string]*zip.File{}
	for _, zf := range zr.File {
		files[zf.Name] = zf
	}
	if m := files["mimetype"]; m != nil {
		b, err := e.small(m)
		if err != nil {
			return container{}, damaged("OpenDocument file", err)
		}
		return odfContainer(strings.TrimSpace(string(b))), nil
	}
	if ct := files["[Content_Types].xml"]; ct != nil {
		b, err := e.small(ct)
		if err != nil {
			return container{}, damaged("Office document", err)
		}
		if c := ooxmlContainer(b); c.format != Zip {
			return c, nil
		}
	}
	return guessContainer(files, name), nil
}

// odfContainer tells an OpenDocument file by its media type.
func odfContainer(mediaType string) container {
	base, _ := strings.CutSuffix(mediaType, "-template")
	switch base {
	case "application/vnd.oasis.opendocument.text":
		return container{format: ODT}
	case "application/vnd.oasis.opendocument.spreadsheet":
		return container{format: ODS}
	}
	if strings.HasPrefix(mediaType, "application/vnd.oasis.opendocument.") {
		return container{notRead: "an OpenDocument " + strings.TrimPrefix(base, "application/vnd.oasis.opendocument.") +
			" is not read: only texts (ODT) and spreadsheets (ODS) are"}
	}
	return container{format: Zip}
}

// ooxmlContainer tells an Office Open XML package by the content type of
// its main part, in [Content_Types].xml.
func ooxmlContainer(contentTypes []byte) container {
	var types struct {
		Overrides []struct {
			PartName    string `xml:",attr"`
			ContentType string `xml:",attr"`
		} `xml:"Override"`
	}
	if xml.Unmarshal(contentTypes, &types) != nil {
		return container{format: Zip}
	}
	c := container{format: Zip}
	var extra []string
	for _, o := range types.Overrides {
		part := strings.TrimPrefix(o.PartName, "/")
		t := o.ContentType
		word := strings.Contains(t, "wordprocessingml") || strings.Contains(t, "ms-word")
		switch {
		case word && strings.HasSuffix(t, ".main+xml"):
			c.format, c.parts = DOCX, append([]string{part}, c.parts...)
		case word && (strings.HasSuffix(t, ".header+xml") || strings.HasSuffix(t, ".footer+xml") ||
			strings.HasSuffix(t, ".footnotes+xml") || strings.HasSuffix(t, ".endnotes+xml")):
			extra = append(extra, part)
		case (strings.Contains(t, "spreadsheetml") || strings.Contains(t, "ms-excel")) && strings.HasSuffix(t, ".main+xml"):
			c.format = XLSX
		case (strings.Contains(t, "presentationml") || strings.Contains(t, "ms-powerpoint")) && strings.HasSuffix(t, ".main+xml"):
			c.notRead = "a PowerPoint presentation is not read"
		}
	}
	if c.format != DOCX {
		return container{format: c.format, notRead: c.notRead}
	}
	slices.Sort(extra)
	c.parts = append(c.parts[:1], extra...)
	return c
}

// guessContainer tells a document that lacks the member naming its format,
// as some writers' output does, by its other members and the file's
// extension.
func guessContainer(files map[string]*zip.File, name string) container {
	ext := strings.ToLower(path.Ext(name))
	switch {
	case files["word/document.xml"] != nil:
		return container{format: DOCX, parts: []string{"word/document.xml"}}
	case files["xl/workbook.xml"] != nil:
		return container{format: XLSX}
	case files["content.xml"] != nil && ext == ".odt":
		return container{format: ODT}
	case files["content.xml"] != nil && ext == ".ods":
		return container{format: ODS}
	}
	return container{format: Zip}
}

// small reads a member that is small by nature, such as a list of parts.
func (e *extraction) small(zf *zip.File) ([]byte, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(e.meter(rc, 1<<20))
}
