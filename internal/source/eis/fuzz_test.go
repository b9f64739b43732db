package eis

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// FuzzDecode feeds the decoder mangled documents, seeded with every fixture
// under testdata: whatever the bytes, it must not panic, every error is a
// rejection of the invalid kind, and every record it emits has a key and
// survives its canonical JSON.
func FuzzDecode(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		err := (Format{}).Decode(name, bytes.NewReader(data), func(_ int, rec tenderbase.Record, err error) error {
			if err != nil {
				if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
					t.Errorf("rejection %v is not invalid input (%s)", err, tenderbase.ErrorCode(err))
				}
				return nil
			}
			if rec.Key() == "" {
				t.Errorf("%s record without a key", rec.Kind())
			}
			body, err := tenderbase.MarshalRecord(rec)
			if err != nil {
				t.Fatalf("%s %s does not encode: %v", rec.Kind(), rec.Key(), err)
			}
			if _, err := tenderbase.DecodeRecord(rec.Kind(), body); err != nil {
				t.Errorf("%s %s does not decode from its JSON: %v\n%s", rec.Kind(), rec.Key(), err, body)
			}
			return nil
		})
		if err != nil {
			t.Errorf("Decode: %v", err)
		}
	})
}

// FuzzPruning decodes mangled documents, seeded with every fixture under
// testdata, pruned as Decode does and unpruned: whenever the unpruned
// decode reads a document without a rejection, the pruned one must emit the
// same records. (A fault in a part no wire struct reads may reject the
// unpruned document only.)
func FuzzPruning(f *testing.F) {
	addFixtureSeeds(f)
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		whole := decodeWhole(t, name, bytes.NewReader(data))
		if whole.Rejected {
			return
		}
		kept := decodePruned(t, name, bytes.NewReader(data))
		if diff := cmp.Diff(whole, kept); diff != "" {
			t.Errorf("pruned (+) and unpruned (-) differ:\n%s", diff)
		}
	})
}

// addFixtureSeeds seeds f with the name and the content of every fixture
// under testdata.
func addFixtureSeeds(f *testing.F) {
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".xml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil {
			f.Add(filepath.Base(path), data)
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
}
