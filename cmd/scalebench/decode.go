package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// decodeRuns is how many times the samples are decoded; the median run is
// reported.
const decodeRuns = 7

// decoding is the rate at which EIS XML decodes, on the published samples.
type decoding struct {
	Folder    string  `json:"folder"`
	Documents int     `json:"documents"`
	Bytes     int64   `json:"bytes"`
	Records   int     `json:"records"`
	MBPerSec  float64 `json:"mb_per_second"` // of documents, median of decodeRuns
	DocsPerS  float64 `json:"documents_per_second"`
	Skipped   string  `json:"skipped,omitempty"` // why it was not measured
}

// measureDecoding decodes every EIS XML document under dir, held in
// memory, decodeRuns times, and reports the median rate: the decoding of
// an import without its store.
func measureDecoding(dir string) decoding {
	d := decoding{Folder: dir}
	var docs [][]byte
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.EqualFold(filepath.Ext(path), ".xml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && (eis.Format{}).Detect(data[:min(len(data), 4096)]) {
			docs = append(docs, data)
			d.Bytes += int64(len(data))
		}
		return err
	})
	if err != nil || len(docs) == 0 {
		d.Skipped = fmt.Sprintf("no EIS XML under %s (%v)", dir, err)
		return d
	}
	d.Documents = len(docs)
	var runs []time.Duration
	for range decodeRuns {
		records := 0
		emit := func(_ int, rec tenderbase.Record, _ error) error {
			if rec != nil {
				records++
			}
			return nil
		}
		start := time.Now()
		for _, doc := range docs {
			if err := (eis.Format{}).Decode("sample.xml", bytes.NewReader(doc), emit); err != nil && err != io.EOF {
				d.Skipped = fmt.Sprintf("decode: %v", err)
				return d
			}
		}
		runs = append(runs, time.Since(start))
		d.Records = records
	}
	slices.Sort(runs)
	median := runs[len(runs)/2].Seconds()
	d.MBPerSec = float64(d.Bytes) / 1e6 / median
	d.DocsPerS = float64(d.Documents) / median
	return d
}

func (d decoding) print(w io.Writer) {
	if d.Skipped != "" {
		fmt.Fprintf(w, "EIS XML decoding: not measured: %s\n", d.Skipped)
		return
	}
	fmt.Fprintf(w, "EIS XML decoding: %d documents of %s, %.1f MB, %d records: %.1f MB/s, %.0f documents/s (median of %d)\n",
		d.Documents, d.Folder, float64(d.Bytes)/1e6, d.Records, d.MBPerSec, d.DocsPerS, decodeRuns)
}
