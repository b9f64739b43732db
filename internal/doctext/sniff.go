package doctext

import (
	"bytes"
	"mime"
	"net/http"
	"path"
	"strings"
)

// sniffLen is how much of a file sniff looks at: a PDF may have up to a
// kilobyte of anything before its header.
const sniffLen = 1024

// kind is what the first bytes of a file say it is.
type kind int

const (
	kindUnknown kind = iota
	kindPDF
	kindRTF
	kindZip // a plain archive, or an OOXML or ODF document
	kindRAR
	kind7z
	kindCFB // an OLE compound document: Word, Excel or PowerPoint 97-2003, or a locked Office file
)

// signatures are the magic numbers that begin each kind of file.
var signatures = []struct {
	kind  kind
	magic string
}{
	{kindZip, "PK\x03\x04"},
	{kindZip, "PK\x05\x06"}, // an empty archive
	{kindRAR, "Rar!\x1a\x07\x00"},
	{kindRAR, "Rar!\x1a\x07\x01\x00"},
	{kind7z, "7z\xbc\xaf\x27\x1c"},
	{kindCFB, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"},
}

// sniff tells the kind of a file from its first bytes.
func sniff(prefix []byte) kind {
	for _, s := range signatures {
		if bytes.HasPrefix(prefix, []byte(s.magic)) {
			return s.kind
		}
	}
	if pdfHeader(prefix) >= 0 {
		return kindPDF
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf")), " \t\r\n")
	if bytes.HasPrefix(text, []byte(`{\rtf`)) {
		return kindRTF
	}
	return kindUnknown
}

// pdfHeader returns the offset of the "%PDF-" header within the first
// kilobyte, where readers look for it, or -1.
func pdfHeader(prefix []byte) int {
	return bytes.Index(prefix[:min(len(prefix), sniffLen)], []byte("%PDF-"))
}

// format returns the format of a file of kind k, if it is one read here.
func (k kind) format() Format {
	return map[kind]Format{kindPDF: PDF, kindRTF: RTF, kindZip: Zip, kindRAR: RAR, kind7z: SevenZip}[k]
}

// isArchive reports whether a file of kind k may be an archive. A zip may
// also turn out to be a DOCX, XLSX, ODT or ODS document.
func (k kind) isArchive() bool { return k == kindRAR || k == kind7z }

// legacyOffice returns the error for an OLE compound document that is not
// a Word document, named by its extension where its streams did not tell:
// Excel 97-2003 files, and Office documents saved with a password.
func legacyOffice(name string) error {
	switch strings.ToLower(path.Ext(name)) {
	case ".doc", ".dot":
		return invalid("damaged DOC: it has no WordDocument stream")
	case ".xls", ".xlt":
		return invalid("an Excel 97-2003 workbook (.xls) is not read: only XLSX and ODS workbooks are")
	case ".docx", ".xlsx", ".pptx", ".docm", ".xlsm":
		return invalid("a password-protected Office document is not read")
	}
	return invalid("a legacy Office 97-2003 file (.xls or .ppt) is not read: of those, only Word documents (.doc) are")
}

// notDocument returns the error for a file of no kind read here.
func notDocument(prefix []byte) error {
	return invalid("not a PDF, DOCX, DOC, XLSX, ODT, ODS or RTF document, nor a zip, RAR or 7z archive: looks like %s",
		describe(prefix))
}

// mediaNames name the media types that http.DetectContentType tells, for
// the files most often attached in the place of documentation.
var mediaNames = map[string]string{
	"image/png":                "a PNG image",
	"image/jpeg":               "a JPEG image",
	"image/gif":                "a GIF image",
	"image/bmp":                "a BMP image",
	"image/webp":               "a WebP image",
	"image/x-icon":             "an icon",
	"application/x-gzip":       "a gzip file",
	"text/html":                "an HTML page",
	"text/xml":                 "XML",
	"text/plain":               "plain text",
	"application/octet-stream": "binary data of an unknown kind",
}

// describe says in a few words what a file that is no document looks like.
func describe(prefix []byte) string {
	switch {
	case bytes.HasPrefix(prefix, []byte("MZ")):
		return "a Windows program"
	case bytes.HasPrefix(prefix, []byte("II*\x00")), bytes.HasPrefix(prefix, []byte("MM\x00*")):
		return "a TIFF image"
	case bytes.HasPrefix(prefix, []byte("BZh")):
		return "a bzip2 file"
	}
	mediaType, _, _ := mime.ParseMediaType(http.DetectContentType(prefix))
	if name, ok := mediaNames[mediaType]; ok {
		return name
	}
	return "a file of type " + mediaType
}
