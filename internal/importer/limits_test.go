package importer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// sharedNotices is the folder of real EIS notices kept beside the project.
var sharedNotices = filepath.Join("..", "..", "..", "shared", "data", "eis44-notices", "ISErmakov__zakupkigovru")

// realNotice returns the real EIS notice of purchase number, skipping the
// test when the real samples are not here.
func realNotice(t *testing.T, number string) string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(sharedNotices, "epNotificationEF2020_"+number+"_*.xml"))
	if err != nil || len(matches) != 1 {
		t.Skipf("the real notice %s is not here (%s): %v", number, sharedNotices, err)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// inflated returns notice with the text of its first element el grown to
// n bytes.
func inflated(t *testing.T, notice, el string, n int) string {
	t.Helper()
	open := "<ns5:" + el + ">"
	i := strings.Index(notice, open)
	if i < 0 {
		t.Fatalf("no %s in the notice", open)
	}
	i += len(open)
	end := i + strings.Index(notice[i:], "<")
	text := notice[i:end]
	return notice[:i] + text + strings.Repeat("я", (n-len(text))/2+1) + notice[end:]
}

// padded returns notice grown past n bytes by empty elements no wire
// struct reads, each a short text.
func padded(notice string, n int) string {
	i := strings.LastIndex(notice, "</")
	return notice[:i] + strings.Repeat("<pad/>", n/6+1) + notice[i:]
}

const (
	keptNotice     = "0162100008725000054"
	inflatedNotice = "0162200009125000312"
	paddedNotice   = "0162300017925000067"
)

// eachStore runs test on a fresh SQLite store and a fresh PostgreSQL one.
func eachStore(t *testing.T, test func(t *testing.T, store tenderbase.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "store.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		test(t, s)
	})
	t.Run("postgres", func(t *testing.T) {
		s, err := postgres.Open(context.Background(), pgtest.URL(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		test(t, s)
	})
}

// TestImportRejectsOversizedDocuments imports an archive of real EIS
// notices, one with a text past the bound and one larger than a document
// may be, beside a notice and an NDJSON file as they come: the two are
// rejected alone, each with its bound, and the rest is stored.
func TestImportRejectsOversizedDocuments(t *testing.T) {
	limits := importer.Limits{MaxTextBytes: 64 << 10, MaxDocumentBytes: 256 << 10}
	archive := writeFile(t, filepath.Join(t.TempDir(), "notices.zip"), zipBytes(t,
		member{"a.xml", realNotice(t, keptNotice)},
		member{"b.xml", inflated(t, realNotice(t, inflatedNotice), "purchaseObjectInfo", 1<<20)},
		member{"c.xml", padded(realNotice(t, paddedNotice), 1<<20)},
		member{"d.ndjson", tenderLine(t, "N00001", 1)},
	))
	eachStore(t, func(t *testing.T, store tenderbase.Store) {
		s := runImport(t, store, []string{archive}, importer.Options{
			Decoders: []importer.Decoder{ndjson.Format{}, eis.Format{}}, Limits: limits})
		want := []importer.Rejection{
			{File: archive, Member: "b.xml", Reason: "the document holds a text or tag of more than 64 KiB, the bound of one XML text (--max-text-bytes): rejected whole"},
			{File: archive, Member: "c.xml", Reason: "the document is larger than 256 KiB, the bound of one document (--max-document-bytes): rejected whole"},
		}
		if diff := cmp.Diff(want, s.Rejections); diff != "" {
			t.Errorf("rejections (-want +got):\n%s", diff)
		}
		if s.Rejected != 2 || len(s.Skipped) != 0 {
			t.Errorf("rejected %d, skipped %v; want 2 rejected, none skipped", s.Rejected, s.Skipped)
		}
		for number, stored := range map[string]bool{keptNotice: true, "N00001": true, inflatedNotice: false, paddedNotice: false} {
			_, err := store.Get(t.Context(), tenderbase.KindTender, number)
			if got := err == nil; got != stored {
				t.Errorf("tender %s stored: %v (%v), want %v", number, got, err, stored)
			}
		}
	})
}

// TestImportBoundsArchiveMembers refuses, by the size its archive declares,
// a member that unpacks past the bound of one member, and the members that
// would take the archive past its bound, and reads the others.
func TestImportBoundsArchiveMembers(t *testing.T) {
	first, third := tenderLine(t, "N00001", 1), tenderLines(t, 2000)
	newlines := tenderLine(t, "N00002", 1) + strings.Repeat("\n", 2<<20)
	archive := writeFile(t, filepath.Join(t.TempDir(), "a.zip"), zipBytes(t,
		member{"1.ndjson", first},
		member{"2.ndjson", newlines},
		member{"3.ndjson", third},
		member{"4.ndjson", tenderLine(t, "N00004", 1)},
		member{"5.ndjson", tenderLine(t, "N00005", 1)},
	))
	bound := len(first) + len(third) + 1 // room for the first and third members only
	s := runImport(t, newFakeStore(), []string{archive}, importer.Options{
		Limits: importer.Limits{MaxEntryBytes: 1 << 20, MaxArchiveBytes: int64(bound)}})
	want := []importer.Skip{
		{File: archive, Member: "2.ndjson", Reason: fmt.Sprintf("unpacks to %d bytes, more than the 1 MiB an archive member may (--max-entry-bytes)", len(newlines))},
		{File: archive, Member: "4.ndjson", Reason: fmt.Sprintf("the archive unpacks to more than %d bytes, the bound of one archive (--max-archive-bytes): this member and the 1 after it are not read", bound)},
	}
	if diff := cmp.Diff(want, s.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if s.Records != 2001 {
		t.Errorf("read %d records, want 2001: the first member's and the third's", s.Records)
	}
}

// TestImportOversizedTextCostsBoundedMemory imports a real notice whose
// text unpacks to 64 MiB, from a zip of 64 KB, with the bound of a text at
// 64 KiB: what the import allocates stays within a small multiple of the
// bound, not of the text.
func TestImportOversizedTextCostsBoundedMemory(t *testing.T) {
	archive := writeFile(t, filepath.Join(t.TempDir(), "bomb.zip"), zipBytes(t,
		member{"bomb.xml", inflated(t, realNotice(t, inflatedNotice), "purchaseObjectInfo", 64<<20)}))
	opts := importer.Options{Decoders: []importer.Decoder{eis.Format{}},
		Limits: importer.Limits{MaxTextBytes: 64 << 10}}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := runImport(t, newFakeStore(), []string{archive}, opts)
	runtime.ReadMemStats(&after)
	if s.Rejected != 1 {
		t.Fatalf("rejected %d, want the notice: %v", s.Rejected, s.Rejections)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("the import allocated %d bytes for a text bound to 64 KiB, want at most 16 MiB", got)
	}
}
