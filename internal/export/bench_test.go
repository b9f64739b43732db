package export

import (
	"fmt"
	"io"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

// BenchmarkWriter streams synthetic complaints through the writer to
// io.Discard in each format, 1,000 (a page at most), 10,000 and 100,000 a run, and reports records a
// second, bytes allocated a record and the peak of the heap in use, sampled
// while it runs: the peak must not grow with the number of records. XLSX
// holds up to 16 MiB of its sheet in memory and the rest in a temporary
// file (internal/xlsx), so that its peak grows to that bound and no further.
func BenchmarkWriter(b *testing.B) {
	for _, f := range []struct {
		name   string
		format Format
	}{{"xml", XML}, {"json", JSON}, {"csv", CSV}, {"xlsx", XLSX}} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/%d", f.name, n), func(b *testing.B) {
				var peak uint64
				var elapsed time.Duration
				for b.Loop() {
					runtime.GC()
					stop := samplePeak(&peak)
					start := time.Now()
					streamComplaints(b, f.format, n)
					elapsed += time.Since(start)
					stop()
				}
				b.ReportMetric(float64(n*b.N)/elapsed.Seconds(), "records/s")
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			})
		}
	}
}

// BenchmarkComplaints generates the complaints BenchmarkWriter writes, and
// nothing else: the share of its time that is not the writer's.
func BenchmarkComplaints(b *testing.B) {
	for b.Loop() {
		for range demo.Complaints(1, 100_000) {
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "records/s")
}

// streamComplaints writes n generated complaints for a free caller; CSV
// under TenderGuru's conventions, the only ones it comes with.
func streamComplaints(b *testing.B, f Format, n int) {
	m := Meta{Mode: ModeFasEIS, PerPage: n, Total: n, Kind: tenderbase.KindComplaint}
	if f == CSV {
		m.Compat = CompatTG
	}
	w := NewWriter(io.Discard, f, tenderbase.PlanFree, m)
	for c := range demo.Complaints(1, n) {
		if err := w.Write(c); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// samplePeak samples the heap in use every millisecond into peak until the
// returned function is called.
func samplePeak(peak *uint64) func() {
	var done atomic.Bool
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for !done.Load() {
			runtime.ReadMemStats(&m)
			*peak = max(*peak, m.HeapInuse)
			time.Sleep(time.Millisecond)
		}
	}()
	return func() { done.Store(true); <-finished }
}
