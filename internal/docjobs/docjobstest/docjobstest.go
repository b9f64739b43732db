// Package docjobstest gives tests the docs of real tenders: the files of
// internal/docanalysis/testdata read with doctext, as the sync and the
// importer read them.
package docjobstest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/doctext"
)

// Tenders of the set.
const (
	// Auction has its print form and three zipped DOCX files (the EIS's
	// own packing, read as archives); Payment stands in the last one, the
	// draft contract.
	Auction = "0190200000326003928"
	// WithScan has a photograph saved as a PDF with no text layer.
	WithScan = "32615889963"
	Other    = "0165300018926000003"
)

var (
	mu    sync.Mutex
	cache = map[string][]*tenderbase.Doc{}
)

// Docs returns the docs of a tender of the set, in the order of their
// file names, each with the text doctext reads from its file; a file it
// reads none from (a scan, an Excel 97-2003 workbook) is a doc without
// text, as the sync leaves it.
func Docs(tb testing.TB, number string) []*tenderbase.Doc {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if docs, ok := cache[number]; ok {
		return docs
	}
	dir := filepath.Join(setDir(), "tenders", number)
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var docs []*tenderbase.Doc
	for i, e := range entries {
		if e.Name() == "answers.json" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		text, _ := doctext.Extract(context.Background(), e.Name(), bytes.NewReader(data), int64(len(data)), doctext.Limits{})
		id := number + "-" + string(rune('a'+i))
		docs = append(docs, &tenderbase.Doc{ID: id, PurchaseNumber: number, FileName: e.Name(),
			URL:  "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=" + id,
			Size: int64(len(data)), Text: text.Text, PublishedAt: time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)})
	}
	cache[number] = docs
	return docs
}

// Put stores docs.
func Put(tb testing.TB, st tenderbase.Store, docs []*tenderbase.Doc) {
	tb.Helper()
	var recs []tenderbase.Record
	for _, d := range docs {
		recs = append(recs, d)
	}
	if _, err := st.Put(context.Background(), recs); err != nil {
		tb.Fatal(err)
	}
}

// Tenders returns the purchase numbers of every tender of the set.
func Tenders(tb testing.TB) []string {
	tb.Helper()
	entries, err := os.ReadDir(filepath.Join(setDir(), "tenders"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// setDir is the folder of the analysis's set.
func setDir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "docanalysis", "testdata")
}
