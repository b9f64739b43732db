package docanalysis_test

import (
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// BenchmarkAnalyzeLargest measures one analysis, extraction only, on the
// largest documentation of the set, the tender whose files give the most
// text; reading the files' text (doctext) is done before and is not
// counted. docs/performance.md has the figure.
func BenchmarkAnalyzeLargest(b *testing.B) {
	var files []docanalysis.File
	chars, name := 0, ""
	dirs, _ := filepath.Glob(filepath.Join("testdata", "tenders", "*"))
	for _, dir := range dirs {
		fs, _ := readTender(b, dir)
		n := 0
		for _, f := range fs {
			n += utf8.RuneCountInString(f.Text)
		}
		if n > chars {
			files, chars, name = fs, n, filepath.Base(dir)
		}
	}
	b.Logf("largest documentation: %s, %d files, %d characters", name, len(files), chars)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		docanalysis.Analyze(files)
	}
	b.ReportMetric(float64(chars), "chars")
}
