package ocds

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/sourcetest"
)

// samples is where the published OCDS files of ../shared/data are.
var samples = filepath.Join("..", "..", "..", "..", "shared", "data", "ocds", "open-contracting__sample-data")

// sample returns the path of a published sample, skipping the test where
// ../shared/data is absent.
func sample(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(samples, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("published OCDS sample %s not here (../shared/data holds them): %v", name, err)
	}
	return path
}

// decodeFile returns the one world tender of an OCDS file.
func decodeFile(t *testing.T, path string) *tenderbase.WorldTender {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeOne(t, b)
}

func decodeOne(t *testing.T, b []byte) *tenderbase.WorldTender {
	t.Helper()
	recs, errs := sourcetest.Decode(t, Format{}, b)
	return sourcetest.OneWorldTender(t, recs, errs)
}

func at(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
