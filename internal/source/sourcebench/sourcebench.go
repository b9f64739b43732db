// Package sourcebench measures a source format the same way for every
// format: decoding alone, and a whole import into a fresh SQLite store, on
// the same files held in memory, so that the cost of storing and indexing
// shows beside the cost of reading the format. It is used by the formats'
// benchmarks only.
package sourcebench

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
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

// Corpus names a set of folders of files in one format.
type Corpus struct {
	Name  string
	Roots []string
}

// file is a file of a corpus, held in memory: a document, or a zip archive
// of documents.
type file struct {
	name    string // the path below the corpus root
	data    []byte
	members [][]byte // the documents of a zip archive
}

type loaded struct {
	files []file
	docs  int
	bytes int64
}

// Run benchmarks dec on each corpus: sub-benchmarks decode and import, each
// reporting documents/s and MB/s (of uncompressed documents), and a printed
// line with the ratio of their median times, for -count runs side by side.
func Run(b *testing.B, dec importer.Decoder, corpora ...Corpus) {
	for _, cp := range corpora {
		b.Run(cp.Name, func(b *testing.B) {
			if _, err := os.Stat(cp.Roots[0]); err != nil {
				b.Skipf("no corpus here (%s): %v", cp.Roots[0], err)
			}
			c := load(b, dec, cp.Roots...)
			var decode, store []time.Duration
			b.Run("decode", func(b *testing.B) { decode = append(decode, benchDecode(b, dec, c)) })
			b.Run("import", func(b *testing.B) { store = append(store, benchImport(b, dec, c)) })
			if d, s := median(decode), median(store); d > 0 && s > 0 {
				fmt.Printf("%s %s: %d documents, %.2f MB: import/decode = %.2f (median of %d and %d runs)\n",
					dec.Name(), cp.Name, c.docs, float64(c.bytes)/1e6, float64(s)/float64(d), len(store), len(decode))
			}
		})
	}
}

// load reads every file below the roots that dec detects, or that is a zip
// archive holding such files.
func load(b *testing.B, dec importer.Decoder, roots ...string) loaded {
	b.Helper()
	var c loaded
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			f := file{name: filepath.Join(filepath.Base(root), rel), data: data}
			if zr, zerr := zip.NewReader(bytes.NewReader(data), int64(len(data))); zerr == nil {
				f.members = detectedMembers(b, dec, zr)
			} else if detects(dec, data) {
				f.members = [][]byte{data}
			}
			if len(f.members) > 0 {
				c.files = append(c.files, f)
				for _, m := range f.members {
					c.docs++
					c.bytes += int64(len(m))
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return c
}

func detects(dec importer.Decoder, data []byte) bool {
	return len(data) > 0 && dec.Detect(data[:min(len(data), importer.PrefixSize)])
}

func detectedMembers(b *testing.B, dec importer.Decoder, zr *zip.Reader) [][]byte {
	var out [][]byte
	for _, m := range zr.File {
		rc, err := m.Open()
		if err != nil {
			b.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			b.Fatal(err)
		}
		if detects(dec, data) {
			out = append(out, data)
		}
	}
	return out
}

// benchDecode decodes every document of c, discarding the records, and
// returns the time of one pass.
func benchDecode(b *testing.B, dec importer.Decoder, c loaded) time.Duration {
	discard := func(int, tenderbase.Record, error) error { return nil }
	b.ResetTimer()
	for range b.N {
		for _, f := range c.files {
			for _, m := range f.members {
				if err := dec.Decode(filepath.Base(f.name), bytes.NewReader(m), discard); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return reportRates(b, c)
}

// benchImport imports the files of c, written once to a folder, into a
// fresh store each pass, and returns the time of one pass. Opening and
// closing the store are not timed.
func benchImport(b *testing.B, dec importer.Decoder, c loaded) time.Duration {
	dir := write(b, c)
	ctx := context.Background()
	opts := importer.Options{Decoders: []importer.Decoder{dec}}
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
		if err != nil || sum.Files != c.docs {
			b.Fatalf("import: %v; %d of %d documents read", err, sum.Files, c.docs)
		}
		store.Close()
		b.StartTimer()
	}
	return reportRates(b, c)
}

// write writes the files of c below a temporary folder.
func write(b *testing.B, c loaded) string {
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
func reportRates(b *testing.B, c loaded) time.Duration {
	elapsed := b.Elapsed()
	if elapsed <= 0 || b.N == 0 {
		return 0
	}
	seconds := elapsed.Seconds()
	b.ReportMetric(float64(c.docs*b.N)/seconds, "docs/s")
	b.ReportMetric(float64(c.bytes)*float64(b.N)/1e6/seconds, "MB/s")
	return elapsed / time.Duration(b.N)
}
