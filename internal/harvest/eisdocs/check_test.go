package eisdocs

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/importer"
)

// TestCheckArchiveKeepsToTheLimits checks a download's members only within
// the importer's bounds: a member past them is not unpacked to be checked
// (here its checksum is wrong, and the check still passes), since the
// import refuses it anyway; a member within them is checked.
func TestCheckArchiveKeepsToTheLimits(t *testing.T) {
	big := strings.Repeat("\n", 2<<20)
	archive := zipWithBadChecksum(t, "big.xml", big)
	limits := importer.Limits{MaxEntryBytes: 1 << 20}
	if err := checkArchive(bytes.NewReader(archive), int64(len(archive)), limits); err != nil {
		t.Errorf("a member past the bounds was unpacked to be checked: %v", err)
	}
	limits.MaxEntryBytes = 4 << 20
	if err := checkArchive(bytes.NewReader(archive), int64(len(archive)), limits); err == nil {
		t.Error("a member within the bounds with a wrong checksum passed the check")
	}
}

// zipWithBadChecksum returns a zip archive of one member whose checksum
// does not match its content.
func zipWithBadChecksum(t *testing.T, name, content string) []byte {
	t.Helper()
	var packed bytes.Buffer
	fw, err := flate.NewWriter(&packed, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte(content))
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate,
		CRC32:              crc32.ChecksumIEEE([]byte(content)) + 1,
		CompressedSize64:   uint64(packed.Len()),
		UncompressedSize64: uint64(len(content))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(packed.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
