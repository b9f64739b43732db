// Package sourcetest holds what the tests of the source formats share:
// decoding a fixture the way the importer does, detection first.
package sourcetest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// DecodeFile decodes the file at path with dec, after checking that dec
// detects it as the importer would, and returns its records and the
// reasons of its refusals.
func DecodeFile(t *testing.T, dec importer.Decoder, path string) ([]tenderbase.Record, []error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !dec.Detect(data[:min(len(data), importer.PrefixSize)]) {
		t.Fatalf("%s is not detected as %s", path, dec.Name())
	}
	return Decode(t, dec, data)
}

// Decode decodes data with dec and returns its records and the reasons of
// its refusals; an error that stops decoding fails the test.
func Decode(t *testing.T, dec importer.Decoder, data []byte) ([]tenderbase.Record, []error) {
	t.Helper()
	var recs []tenderbase.Record
	var errs []error
	err := dec.Decode("test", bytes.NewReader(data), func(_ int, rec tenderbase.Record, err error) error {
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		recs = append(recs, rec)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs, errs
}

// Lots returns the records as lots.
func Lots(t *testing.T, recs []tenderbase.Record) []*tenderbase.Lot {
	t.Helper()
	lots := make([]*tenderbase.Lot, len(recs))
	for i, r := range recs {
		l, ok := r.(*tenderbase.Lot)
		if !ok {
			t.Fatalf("record %d is a %s, not a lot", i, r.Kind())
		}
		lots[i] = l
	}
	return lots
}

// OneWorldTender returns the one record of a decoding, a world tender,
// and fails the test when it holds another number of records or any
// refusal.
func OneWorldTender(t *testing.T, recs []tenderbase.Record, errs []error) *tenderbase.WorldTender {
	t.Helper()
	if len(errs) > 0 || len(recs) != 1 {
		t.Fatalf("decode: %d records, refusals %v; want one world tender", len(recs), errs)
	}
	w, ok := recs[0].(*tenderbase.WorldTender)
	if !ok {
		t.Fatalf("the record is a %s, not a world tender", recs[0].Kind())
	}
	return w
}

// Store imports files with dec, one by one in the order given, into a
// fresh SQLite store, closed when the test ends, and returns it.
func Store(t *testing.T, dec importer.Decoder, files ...string) tenderbase.Store {
	t.Helper()
	ctx := t.Context()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "store.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	for _, f := range files {
		if _, err := importer.Import(ctx, store, []string{f}, importer.Options{Decoders: []importer.Decoder{dec}}); err != nil {
			t.Fatalf("import %s: %v", f, err)
		}
	}
	return store
}
