package tenderbase

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestWorldTenderMerge checks that releases of one process merge alike in
// either order: the newer gives its fields, the older fills the rest.
func TestWorldTenderMerge(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2024, 1, day, 0, 0, 0, 0, time.UTC) }
	tender := &WorldTender{ID: "ocds:x", Source: "ocds", Title: "Roads", Value: 100, Currency: "UAH", PublishedAt: d(1), Updated: d(1),
		Deadline: d(20), CPVCodes: []string{"45233000"}}
	award := &WorldTender{ID: "ocds:x", Source: "ocds", Title: "Roads, lot 1", NoticeType: "award", PublishedAt: d(25), Updated: d(25)}
	want := &WorldTender{ID: "ocds:x", Source: "ocds", Title: "Roads, lot 1", NoticeType: "award", Value: 100, Currency: "UAH",
		PublishedAt: d(1), Updated: d(25), Deadline: d(20), CPVCodes: []string{"45233000"}}
	for name, got := range map[string]Record{"in order": award.Merge(tender), "older last": tender.Merge(award)} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
