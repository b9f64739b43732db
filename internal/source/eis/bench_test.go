package eis

import (
	"path/filepath"
	"testing"

	"github.com/tenderbase/tenderbase/internal/source/sourcebench"
)

// BenchmarkImport measures, on the real samples of ../shared/data and on
// the project's fixtures, decoding alone and a whole import into a fresh
// SQLite store, so that the cost of storing and indexing shows beside the
// cost of reading the XML.
func BenchmarkImport(b *testing.B) {
	shared := filepath.Join("..", "..", "..", "..", "shared", "data")
	sourcebench.Run(b, Format{},
		sourcebench.Corpus{Name: "real", Roots: []string{
			filepath.Join(shared, "eis44"), filepath.Join(shared, "eis44-notices"),
			filepath.Join(shared, "eis223"), filepath.Join(shared, "eis44-unverified-templates"),
		}},
		sourcebench.Corpus{Name: "fixtures", Roots: []string{"testdata"}},
		// No entry of the register of unfair suppliers is among the real
		// samples: its figures are of the fixtures written from the schemas.
		sourcebench.Corpus{Name: "rnp-fixtures", Roots: []string{filepath.Join("testdata", "unfair")}},
	)
}
