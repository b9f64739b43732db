package eforms

import (
	"path/filepath"
	"testing"

	"github.com/tenderbase/tenderbase/internal/source/sourcebench"
)

// BenchmarkImport measures, on the published samples of ../shared/data,
// decoding alone and a whole import into a fresh SQLite store.
func BenchmarkImport(b *testing.B) {
	sourcebench.Run(b, Format{}, sourcebench.Corpus{
		Name: "real", Roots: []string{filepath.Join("..", "..", "..", "..", "shared", "data", "eforms")},
	})
}
