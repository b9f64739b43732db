package demo_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// TestCommittedSourcesAreCurrent checks that the committed source files of
// every format are those the generator writes, and no others.
func TestCommittedSourcesAreCurrent(t *testing.T) {
	files, err := demo.WriteSources(demo.Generate())
	if err != nil {
		t.Fatal(err)
	}
	written := map[string]bool{}
	for _, f := range files {
		written[f.Name] = true
		data, err := fs.ReadFile(demo.Sources(), f.Name)
		if err != nil || !bytes.Equal(unzipped(t, f.Name, data), unzipped(t, f.Name, f.Data)) {
			t.Errorf("sources/%s differs from the generator's output; run go generate ./internal/demo", f.Name)
		}
	}
	err = fs.WalkDir(demo.Sources(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !written[name] {
			t.Errorf("sources/%s is committed but the generator no longer writes it; run go generate ./internal/demo", name)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// unzipped returns the names and contents of the members of a zip archive,
// which say whether two archives hold the same whatever compresses them,
// and any other file as it is.
func unzipped(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	if !strings.HasSuffix(name, ".zip") || data == nil {
		return data
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out bytes.Buffer
	for _, m := range zr.File {
		rc, err := m.Open()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out.WriteString(m.Name + "\n")
		if _, err := io.Copy(&out, rc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rc.Close()
	}
	return out.Bytes()
}

// importSources imports the demo's source files of the folders dirs into a
// new SQLite store through the importer with decoders, as serve --demo
// does, and fails on any rejection.
func importSources(t *testing.T, ctx context.Context, dirs []string, decoders ...importer.Decoder) *sqlite.Store {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for _, d := range dirs {
		sub, err := fs.Sub(demo.Sources(), d)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, d)
		if err := os.CopyFS(p, sub); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	store, err := sqlite.Open(ctx, filepath.Join(dir, "demo.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	sum, err := importer.Import(ctx, store, paths, importer.Options{Decoders: decoders})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rejected != 0 || len(sum.Skipped) != 0 {
		t.Fatalf("import rejected %d records (%v) and skipped %v", sum.Rejected, sum.Rejections, sum.Skipped)
	}
	return store
}
