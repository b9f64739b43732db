package versioning

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestAhead asks for the values of a write's records while the goroutine
// computes them, and checks that each is its record's, computed once by
// the goroutine or the caller, and that a record not among them, a nil
// Ahead and an Ahead stopped before its end still answer.
func TestAhead(t *testing.T) {
	var records []tenderbase.Record
	for i := range 2000 {
		records = append(records, &tenderbase.Tender{PurchaseNumber: strconv.Itoa(i)})
	}
	// A record twice in a write has one value.
	records = append(records, records[7])
	title := func(r tenderbase.Record) string { return r.(*tenderbase.Tender).PurchaseNumber }

	for _, tc := range []struct {
		name    string
		stopped bool // Stop before the first Of
	}{
		{"running", false},
		{"stopped", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var byGoroutine, byCaller atomic.Int64
			a := ComputeAhead(records, func(r tenderbase.Record) string {
				byGoroutine.Add(1)
				return title(r)
			})
			if tc.stopped {
				a.Stop()
			}
			for _, r := range records {
				got := a.Of(r, func(r tenderbase.Record) string {
					byCaller.Add(1)
					return title(r)
				})
				if got != title(r) {
					t.Fatalf("Of(%s) = %q", title(r), got)
				}
			}
			a.Stop()
			if n := byGoroutine.Load() + byCaller.Load(); n != 2000 {
				t.Errorf("computed %d values of 2,000 records (%d ahead, %d by the caller), want each once",
					n, byGoroutine.Load(), byCaller.Load())
			}
			other := &tenderbase.Tender{PurchaseNumber: "other"}
			if got := a.Of(other, title); got != "other" {
				t.Errorf("Of a record not among them = %q", got)
			}
		})
	}

	var none *Ahead[string]
	if got := none.Of(records[3], title); got != "3" {
		t.Errorf("Of of a nil Ahead = %q", got)
	}
	none.Stop()
}
