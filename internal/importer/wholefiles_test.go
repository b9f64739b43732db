package importer_test

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// documents is a format whose every file is one document of three records,
// such as an EIS notice with its attachments.
type documents struct{}

func (documents) Name() string              { return "documents" }
func (documents) Detect(prefix []byte) bool { return string(prefix[:min(4, len(prefix))]) == "doc:" }
func (documents) WholeFiles() bool          { return true }

func (documents) Decode(name string, r io.Reader, emit func(int, tenderbase.Record, error) error) error {
	for i := range 3 {
		rec := &tenderbase.Doc{ID: fmt.Sprintf("%s/%d", name, i), FileName: name}
		if err := emit(0, rec, nil); err != nil {
			return err
		}
	}
	return nil
}

func TestWholeFilesAreNeverSplitBetweenTransactions(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%d.xml", i)), "doc: one document")
	}
	store := newFakeStore()
	summary, err := importer.Import(context.Background(), store, []string{dir}, importer.Options{
		Decoders:  []importer.Decoder{documents{}},
		BatchSize: 4, // smaller than two files: a batch must not cut the second
	})
	if err != nil {
		t.Fatal(err)
	}
	if summary.Inserted != 15 {
		t.Fatalf("inserted %d records, want 15", summary.Inserted)
	}
	for _, n := range store.sizes {
		if n%3 != 0 {
			t.Errorf("a transaction held %d records: a file was split (sizes %v)", n, store.sizes)
		}
	}
}

// ocdsLike detects a JSON object with a "releases" member, and explains a
// JSON file without one, as a format that can tell a near miss does.
type ocdsLike struct{}

func (ocdsLike) Name() string { return "OCDS" }
func (ocdsLike) Detect(prefix []byte) bool {
	return strings.HasPrefix(string(prefix), "{") && strings.Contains(string(prefix), `"releases"`)
}
func (ocdsLike) Explain(prefix []byte) string {
	if strings.HasPrefix(string(prefix), "{") {
		return "JSON without an OCDS releases array"
	}
	return ""
}
func (ocdsLike) Decode(string, io.Reader, func(int, tenderbase.Record, error) error) error {
	return nil
}

// TestUnrecognizedFileExplained checks that a format that knows a near miss
// says what is wrong with it, and that other files are described.
func TestUnrecognizedFileExplained(t *testing.T) {
	dir := t.TempDir()
	near := writeFile(t, filepath.Join(dir, "near.json"), `{"uri": "x", "records": []}`)
	far := writeFile(t, filepath.Join(dir, "far.xml"), `<a/>`)

	got := runImport(t, newFakeStore(), []string{near, far}, importer.Options{Decoders: []importer.Decoder{ocdsLike{}}})

	want := []importer.Skip{
		{File: near, Reason: "format not recognized (known: OCDS): JSON without an OCDS releases array"},
		{File: far, Reason: "format not recognized (known: OCDS): XML whose root element is <a>, without a namespace"},
	}
	if diff := cmp.Diff(want, got.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}
