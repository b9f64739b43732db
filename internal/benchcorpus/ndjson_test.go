package benchcorpus

import (
	"bytes"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
)

// TestNDJSONReadsBack checks that the reader of `tenderbase import` reads
// the written corpus back to the same records.
func TestNDJSONReadsBack(t *testing.T) {
	const n = 500
	var buf bytes.Buffer
	if err := WriteNDJSON(&buf, testSeed, n); err != nil {
		t.Fatal(err)
	}
	if !(ndjson.Format{}).Detect(buf.Bytes()[:min(buf.Len(), 64<<10)]) {
		t.Fatal("the written corpus is not detected as NDJSON")
	}
	var got []*tenderbase.Tender
	r := ndjson.NewReader(&buf)
	for r.Next() {
		rec, err := r.Record()
		if err != nil {
			t.Fatalf("line %d: %v", r.Line(), err)
		}
		got = append(got, rec.(*tenderbase.Tender))
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(slices.Collect(Tenders(testSeed, n)), got); diff != "" {
		t.Errorf("read back (-written +read):\n%s", diff)
	}
}
