package doctext

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"strings"
	"testing"
)

// pngImage returns a small PNG picture.
func pngImage(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zipOf returns a zip archive of the given members, deflated.
func zipOf(t testing.TB, members map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for name, data := range members {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lyingZip returns a zip archive whose one member, zeros.pdf, unpacks to n
// zero bytes but declares a size of 100.
func lyingZip(t testing.TB, n int) []byte {
	t.Helper()
	var packed bytes.Buffer
	fw, _ := flate.NewWriter(&packed, flate.BestCompression)
	zeros := make([]byte, n)
	fw.Write(zeros)
	fw.Close()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.CreateRaw(&zip.FileHeader{
		Name: "zeros.pdf", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(zeros[:100]),
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: 100,
	})
	if err != nil {
		t.Fatal(err)
	}
	f.Write(packed.Bytes())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// docxBomb returns a DOCX whose document.xml unpacks to about n bytes, a
// thousandth of that packed.
func docxBomb(t testing.TB, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	write := func(name string, r io.Reader) {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, r); err != nil {
			t.Fatal(err)
		}
	}
	write("[Content_Types].xml", strings.NewReader(`<?xml version="1.0"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`))
	para := "<w:p><w:r><w:t>гидроизоляция</w:t></w:r></w:p>"
	body := strings.Repeat(para, n/len(para))
	write("word/document.xml", strings.NewReader(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`+
		body+`</w:body></w:document>`))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
