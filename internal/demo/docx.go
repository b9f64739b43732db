package demo

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// documentation returns, for a tender version whose attached files have
// text in the demo, the folder its notice goes into and the files of that
// text beside it, as DOCX, so that an import gives the docs their text as
// it does for documentation downloaded beside real notices. A tender
// without such text has neither. written holds the files already given,
// for the tender's other versions.
func documentation(t *tenderbase.Tender, docs map[string]*tenderbase.Doc, written map[string]bool) (string, []File, error) {
	var files []File
	folder := ""
	for _, a := range t.Attachments {
		d := docs[t.PurchaseNumber+"\n"+a.URL]
		if d == nil || strings.TrimSpace(d.Text) == "" || d.FileName == "" {
			continue
		}
		folder = t.PurchaseNumber + "/"
		name := folder + d.FileName
		if written[name] {
			continue
		}
		written[name] = true
		data, err := docx(d.Text)
		if err != nil {
			return "", nil, err
		}
		files = append(files, File{Name: name, Data: data})
	}
	return folder, files, nil
}

// docxEpoch dates the members of every file the demo writes, so that the
// files are the same at every generation.
var docxEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// docx returns a minimal Office Open XML document holding text, a
// paragraph per line.
func docx(text string) ([]byte, error) {
	var body bytes.Buffer
	body.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	for _, line := range strings.Split(text, "\n") {
		body.WriteString(`<w:p><w:r><w:t xml:space="preserve">`)
		if err := xml.EscapeText(&body, []byte(line)); err != nil {
			return nil, err
		}
		body.WriteString(`</w:t></w:r></w:p>`)
	}
	body.WriteString(`</w:body></w:document>`)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, m := range []struct{ name, data string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`},
		{"word/document.xml", body.String()},
	} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: zip.Deflate, Modified: docxEpoch})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(m.data)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
