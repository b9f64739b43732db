package importer_test

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// shortFile is a format whose files say, after their one record, that
// their header counted two: a note of the file, as a register file's
// header count is.
type shortFile struct{}

func (shortFile) Name() string              { return "short" }
func (shortFile) Detect(prefix []byte) bool { return string(prefix[:min(6, len(prefix))]) == "short:" }

func (shortFile) Decode(name string, r io.Reader, emit func(int, tenderbase.Record, error) error) error {
	if err := emit(1, &tenderbase.Doc{ID: name, FileName: name}, nil); err != nil {
		return err
	}
	return emit(0, nil, countNote{})
}

type countNote struct{}

func (countNote) Error() string  { return "the header declares 2 documents, the file holds 1" }
func (countNote) FileNote() bool { return true }

// TestFileNotesRejectNothing checks that a note of a file goes to the
// summary's Noted, and that the record the file held is stored, not
// rejected.
func TestFileNotesRejectNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.xml")
	writeFile(t, path, "short: one record")
	summary, err := importer.Import(context.Background(), newFakeStore(), []string{dir}, importer.Options{
		Decoders: []importer.Decoder{shortFile{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if summary.Inserted != 1 || summary.Rejected != 0 || len(summary.Skipped) != 0 {
		t.Errorf("inserted %d, rejected %d, skipped %v; want 1 inserted, nothing rejected or skipped",
			summary.Inserted, summary.Rejected, summary.Skipped)
	}
	want := []importer.Note{{File: path, Reason: "the header declares 2 documents, the file holds 1"}}
	if diff := cmp.Diff(want, summary.Noted); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if len(summary.Noted) == 1 && summary.Noted[0].String() != path+": the header declares 2 documents, the file holds 1" {
		t.Errorf("note reads %q", summary.Noted[0].String())
	}
}
