package xlsx_test

import (
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/xlsx"
)

// BenchmarkWrite writes tables of 10,000 to 1,000,000 rows of every kind of
// column, as an aggregate would, to io.Discard, and reports rows a second,
// bytes allocated a row and the heap the writer holds once every row is
// written, after a collection, and the size of the file: the heap must not grow with the rows once the
// sheet passes the 16 MiB the library keeps in memory.
func BenchmarkWrite(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			var held uint64
			var size counter
			for b.Loop() {
				size = 0
				held = max(held, writeRows(b, &size, n))
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(held)/(1<<20), "held-heap-MiB")
			b.ReportMetric(float64(size)/(1<<20), "file-MiB")
		})
	}
}

// counter counts the bytes written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

// writeRows writes n rows to out and returns the heap in use before Close.
func writeRows(b *testing.B, out io.Writer, n int) uint64 {
	w, err := xlsx.NewWriter(out, "aggregates", table)
	if err != nil {
		b.Fatal(err)
	}
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, moscow)
	for i := range n {
		err := w.Write(fmt.Sprintf("77%08d", i), fmt.Sprintf("0772324477524%06d", i), i, float64(i)*1.01,
			day.AddDate(0, 0, i%365), day.Add(time.Duration(i)*time.Minute), i%2 == 0, "ГБУЗ «Городская клиническая больница № 1»")
		if err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return m.HeapInuse
}
