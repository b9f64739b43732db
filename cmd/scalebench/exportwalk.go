package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"time"
)

// walk is one walk of the export: every page of it, one after another,
// as a client that downloads the whole registry does.
type walk struct {
	records, total, pages int
	bytes                 int64
	wall                  time.Duration
	peakHeap              uint64
}

// rate returns the records the walk read a second.
func (w walk) rate() float64 { return float64(w.records) / w.wall.Seconds() }

// recordMarks are what begins each complaint in a document of each format,
// and nothing else in it, by which a walk counts the records it read.
var recordMarks = map[string][]byte{
	"json": []byte(`"complaintNumber":`),
	"xml":  []byte("<complaint>"),
}

// walkExport asks for page 0, 1, 2... of the complaints of the export in
// format, exportPageSize records a page, reading every byte of every
// answer, until it has read the total the first answer gave. It samples
// the heap in use while it walks.
func walkExport(ctx context.Context, srv *exportServer, format string) (walk, error) {
	var w walk
	buf := bytes.NewBuffer(make([]byte, 0, 4<<20))
	runtime.GC()
	var peak uint64
	stop := sampleHeap(&peak)
	start := time.Now()
	err := w.read(ctx, srv, format, buf)
	w.wall = time.Since(start)
	stop()
	w.peakHeap = peak
	return w, err
}

// read reads the pages of a walk into buf, one after another.
func (w *walk) read(ctx context.Context, srv *exportServer, format string, buf *bytes.Buffer) error {
	for page := 0; page == 0 || w.records < w.total; page++ {
		buf.Reset()
		total, err := getPage(ctx, srv, format, page, buf)
		if err != nil {
			return fmt.Errorf("page %d: %w", page, err)
		}
		n := bytes.Count(buf.Bytes(), recordMarks[format])
		w.total, w.pages, w.bytes, w.records = total, w.pages+1, w.bytes+int64(buf.Len()), w.records+n
		if n == 0 {
			return nil
		}
	}
	return nil
}

// getPage reads one page of the export into buf and returns the total the
// answer gave.
func getPage(ctx context.Context, srv *exportServer, format string, page int, buf *bytes.Buffer) (int, error) {
	url := srv.ts.URL + "/api2.3/export?mode=fasEIS&dtype=" + format + "&per_page=" + strconv.Itoa(exportPageSize) + "&page=" + strconv.Itoa(page)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+srv.secret)
	resp, err := srv.ts.Client().Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return 0, fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %s: %.300s", resp.Status, buf.Bytes())
	}
	total, err := strconv.Atoi(resp.Header.Get("X-Total-Count"))
	if err != nil {
		return 0, fmt.Errorf("an answer without X-Total-Count")
	}
	return total, nil
}

// heapMetrics are the parts of the heap in use (runtime.MemStats.HeapInuse),
// read without stopping the world.
var heapMetrics = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes"}

// sampleHeap samples the heap in use every millisecond into peak until the
// returned function is called.
func sampleHeap(peak *uint64) func() {
	var done atomic.Bool
	finished := make(chan struct{})
	samples := make([]metrics.Sample, len(heapMetrics))
	for i, name := range heapMetrics {
		samples[i].Name = name
	}
	go func() {
		defer close(finished)
		for !done.Load() {
			metrics.Read(samples)
			inUse := uint64(0)
			for _, s := range samples {
				inUse += s.Value.Uint64()
			}
			*peak = max(*peak, inUse)
			time.Sleep(time.Millisecond)
		}
	}()
	return func() { done.Store(true); <-finished }
}
