package importer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eforms"
	"github.com/tenderbase/tenderbase/internal/source/efrsb"
	"github.com/tenderbase/tenderbase/internal/source/egrul"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
	"github.com/tenderbase/tenderbase/internal/source/ocds"
	"github.com/tenderbase/tenderbase/internal/source/rsmp"
	"github.com/tenderbase/tenderbase/internal/source/ted"
	"github.com/tenderbase/tenderbase/internal/source/torgi"
)

// everyFormat is every source format, in the order the command tries them.
var everyFormat = []importer.Decoder{ndjson.Format{}, eis.Format{}, egrul.Format{}, rsmp.Format{},
	ted.Format{}, eforms.Format{}, torgi.Format{}, efrsb.Format{}, ocds.Format{}}

// fuzzSeeds are small real-shaped files, each fed as it is and inside a
// zip archive.
var fuzzSeeds = []string{
	"../source/eis/testdata/notice/epNotificationCancel_0811200000126000042_52001984.xml",
	"../source/eis/testdata/contract/contractCancel44_14_1.xml",
	"../source/efrsb/testdata/cancel-auction.xml",
	"../source/torgi/testdata/opendata-noticecancel.json",
	"../source/torgi/testdata/opendata-list-events.json",
}

// FuzzImport imports mangled files and archives in every format, with
// small bounds: whatever the bytes, the import must not panic, must end,
// and must account for what it read.
func FuzzImport(f *testing.F) {
	for _, p := range fuzzSeeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Add([]byte(tenderLine(f, "N00001", 1)+"\n\n\n"), true)
	f.Add([]byte(zipBytes(f, member{"a.ndjson", tenderLine(f, "N00002", 1)}, member{"b/c.xml", "<a>text</a>"})), false)
	limits := importer.Limits{MaxEntryBytes: 1 << 20, MaxArchiveBytes: 2 << 20, MaxDocumentBytes: 512 << 10, MaxTextBytes: 16 << 10}
	// One file, written anew for each input: a folder an input would cost
	// more than its import.
	path := filepath.Join(f.TempDir(), "input")
	f.Fuzz(func(t *testing.T, data []byte, inZip bool) {
		content := string(data)
		if inZip {
			content = zipBytes(t, member{"doc.xml", content}, member{"doc.ndjson", content})
		}
		writeFile(t, path, content)
		s, err := importer.Import(t.Context(), newFakeStore(), []string{path},
			importer.Options{Decoders: everyFormat, Limits: limits, BatchSize: 7})
		if err != nil {
			t.Fatalf("Import: %v", err)
		}
		if s.Rejected < len(s.Rejections) || s.Files < len(s.Read) {
			t.Errorf("the summary does not add up: %d rejected of %d listed, %d files of %d listed", s.Rejected, len(s.Rejections), s.Files, len(s.Read))
		}
		if stored := s.Inserted + s.Replaced + s.Older + s.Unchanged; stored+s.Rejected < s.Records {
			t.Errorf("%d records read, %d stored and %d rejected", s.Records, stored, s.Rejected)
		}
	})
}
