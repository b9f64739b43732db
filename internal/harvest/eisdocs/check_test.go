package eisdocs

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
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

// TestSyncBoundsWhatItUnpacks syncs a day in which one archive holds a
// member past the runner's bound of one member: that member is refused
// with the bound, counted among the rejected, and the rest of the day is
// stored.
func TestSyncBoundsWhatItUnpacks(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := dayOfDocuments(t)
		s.AddRaw("77/PRIZ/epNotificationEOK2020/2026-11-20", "epNotificationEOK2020_0177200000126000001_1_X.xml",
			"<export>"+strings.Repeat("x", 300<<10))
		r.Runner.Limits = importer.Limits{MaxEntryBytes: 256 << 10}
		if err := r.Run(t, scope, source(s, "good-token")); err != nil {
			t.Fatal(err)
		}
		r.CheckRecords(t, wantKeys)
		st := r.State(t)
		if st.Rejected != 1 || !strings.Contains(st.LastRejection, "epNotificationEOK2020_0177200000126000001_1_X.xml: unpacks to 307208 bytes, more than the 256 KiB an archive member may (--max-entry-bytes)") {
			t.Errorf("rejected %d, last %q; want the member past the bound", st.Rejected, st.LastRejection)
		}
	})
}
