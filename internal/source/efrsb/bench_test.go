package efrsb

import (
	"path/filepath"
	"testing"

	"github.com/tenderbase/tenderbase/internal/source/sourcebench"
)

// BenchmarkImport measures, on the fixtures (no sample of this publisher is
// in ../shared/data), decoding alone and a whole import into a fresh SQLite
// store.
func BenchmarkImport(b *testing.B) {
	sourcebench.Run(b, Format{}, sourcebench.Corpus{Name: "fixtures", Roots: []string{filepath.Join("testdata")}})
}
