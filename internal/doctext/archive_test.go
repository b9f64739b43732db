package doctext

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// TestZipName reads member names in each encoding that zip writers use.
func TestZipName(t *testing.T) {
	const name = "Техзадание.docx"
	oem, err := charmap.CodePage866.NewEncoder().String(name)
	if err != nil {
		t.Fatal(err)
	}
	infoZIP := binary.LittleEndian.AppendUint16(nil, 0x7075)
	infoZIP = binary.LittleEndian.AppendUint16(infoZIP, uint16(5+len(name)))
	infoZIP = append(infoZIP, 1)
	infoZIP = binary.LittleEndian.AppendUint32(infoZIP, crc32.ChecksumIEEE([]byte(oem)))
	infoZIP = append(infoZIP, name...)
	stale := bytes.Clone(infoZIP)
	stale[5]++ // the CRC of another name: the field is out of date
	tests := []struct {
		desc  string
		name  string
		extra []byte
		want  string
	}{
		{"UTF-8", name, nil, name},
		{"code page 866", oem, nil, name},
		{"Unicode Path field", oem, infoZIP, name},
		{"stale Unicode Path field", "x.docx", stale, "x.docx"},
		{"ASCII", "spec.pdf", nil, "spec.pdf"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		w := zip.NewWriter(&b)
		if _, err := w.CreateHeader(&zip.FileHeader{Name: tt.name, NonUTF8: tt.name != name, Extra: tt.extra}); err != nil {
			t.Fatal(err)
		}
		w.Close()
		zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if got := zipName(zr.File[0]); got != tt.want {
			t.Errorf("%s: name %q, want %q", tt.desc, got, tt.want)
		}
	}
}
