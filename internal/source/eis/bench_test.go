package eis

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// benchFile is a document of a benchmark corpus, held in memory.
type benchFile struct {
	name string // the path below the corpus root
	data []byte
}

// benchCorpus is a set of EIS documents read into memory once.
type benchCorpus struct {
	files []benchFile
	bytes int64
}

// loadCorpus reads every file below the roots that Format detects, as the
// importer would keep it: the decode and the import see the same files.
func loadCorpus(b *testing.B, roots ...string) benchCorpus {
	b.Helper()
	var c benchCorpus
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil || !(Format{}).Detect(data[:min(len(data), importer.PrefixSize)]) {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			c.files = append(c.files, benchFile{name: filepath.Join(filepath.Base(root), rel), data: data})
			c.bytes += int64(len(data))
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return c
}

// BenchmarkImport measures, on the real samples of ../shared/data and on
// the project's fixtures, decoding alone and a whole import into a fresh
// SQLite store, so that the cost of storing and indexing shows beside the
// cost of reading the XML. Each reports documents/s and MB/s; the ratio of
// the two times is printed.
func BenchmarkImport(b *testing.B) {
	shared := filepath.Join("..", "..", "..", "..", "shared", "data")
	corpora := []struct {
		name  string
		roots []string
	}{
		{"real", []string{
			filepath.Join(shared, "eis44"), filepath.Join(shared, "eis44-notices"),
			filepath.Join(shared, "eis223"), filepath.Join(shared, "eis44-unverified-templates"),
		}},
		{"fixtures", []string{"testdata"}},
	}
	for _, cp := range corpora {
		b.Run(cp.name, func(b *testing.B) {
			if _, err := os.Stat(cp.roots[0]); err != nil {
				b.Skipf("no corpus here (%s): %v", cp.roots[0], err)
			}
			c := loadCorpus(b, cp.roots...)
			// With -count, each b.Run runs its function once a round:
			// the ratio is of the median times of all rounds.
			var decode, store []time.Duration
			b.Run("decode", func(b *testing.B) { decode = append(decode, benchDecode(b, c)) })
			b.Run("import", func(b *testing.B) { store = append(store, benchStoreImport(b, c)) })
			if d, s := median(decode), median(store); d > 0 && s > 0 {
				fmt.Printf("%s: %d documents, %.2f MB: import/decode = %.2f (median of %d and %d runs)\n",
					cp.name, len(c.files), float64(c.bytes)/1e6, float64(s)/float64(d), len(store), len(decode))
			}
		})
	}
}

// benchDecode decodes every file of c, discarding the records, and returns
// the time of one pass.
func benchDecode(b *testing.B, c benchCorpus) time.Duration {
	discard := func(int, tenderbase.Record, error) error { return nil }
	b.ResetTimer()
	for range b.N {
		for _, f := range c.files {
			if err := (Format{}).Decode(filepath.Base(f.name), bytes.NewReader(f.data), discard); err != nil {
				b.Fatal(err)
			}
		}
	}
	return reportRates(b, c)
}

// benchStoreImport imports the files of c, written once to a folder, into
// a fresh store each pass, and returns the time of one pass. Opening and
// closing the store are not timed.
func benchStoreImport(b *testing.B, c benchCorpus) time.Duration {
	dir := writeCorpus(b, c)
	ctx := context.Background()
	opts := importer.Options{Decoders: []importer.Decoder{Format{}}}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "tenderbase.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sum, err := importer.Import(ctx, store, []string{dir}, opts)
		b.StopTimer()
		if err != nil || sum.Files != len(c.files) {
			b.Fatalf("import: %v; %d of %d files read", err, sum.Files, len(c.files))
		}
		store.Close()
		b.StartTimer()
	}
	return reportRates(b, c)
}

// writeCorpus writes the files of c below a temporary folder.
func writeCorpus(b *testing.B, c benchCorpus) string {
	b.Helper()
	dir := b.TempDir()
	for _, f := range c.files {
		path := filepath.Join(dir, f.name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// median returns the median of ds, or 0 when there is none.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

// reportRates reports documents/s and MB/s of the benchmark's passes over
// c and returns the time of one pass.
func reportRates(b *testing.B, c benchCorpus) time.Duration {
	elapsed := b.Elapsed()
	if elapsed <= 0 || b.N == 0 {
		return 0
	}
	seconds := elapsed.Seconds()
	b.ReportMetric(float64(len(c.files)*b.N)/seconds, "docs/s")
	b.ReportMetric(float64(c.bytes)*float64(b.N)/1e6/seconds, "MB/s")
	return elapsed / time.Duration(b.N)
}
