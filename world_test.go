package tenderbase

import (
	"encoding/json"
	"strings"
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

// TestWorldTenderZeroValueAndCountry checks that a value published as 0
// (its currency given) is a value stated, which an older version does not
// fill, and that a country nobody told is not written as 0.
func TestWorldTenderZeroValueAndCountry(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2024, 1, day, 0, 0, 0, 0, time.UTC) }
	older := &WorldTender{ID: "ocds:x", Title: "Roads", Value: 100, Currency: "NGN", Updated: d(1)}
	newer := &WorldTender{ID: "ocds:x", Title: "Roads", Value: 0, Currency: "NGN", Updated: d(2)}
	m := newer.Merge(older).(*WorldTender)
	if m.Value != 0 || m.Currency != "NGN" {
		t.Errorf("merged value %v %s, want the newer's 0 NGN", m.Value, m.Currency)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"country"`) {
		t.Errorf("%s: want no country written", b)
	}
}

// TestWorldTenderMergeSameDate checks that two versions of one date merge
// alike in either order: the later stage, then the greater release id, is
// the newer.
func TestWorldTenderMergeSameDate(t *testing.T) {
	d := time.Date(2018, 1, 18, 4, 40, 20, 0, time.UTC)
	tender := &WorldTender{ID: "ocds:x", Title: "Formas", NoticeType: "tender", Stage: "tender", ReleaseID: "x-tender", Updated: d, PublishedAt: d}
	award := &WorldTender{ID: "ocds:x", Title: "Formas impresas", NoticeType: "award", Stage: "award", ReleaseID: "x-award", Updated: d, PublishedAt: d}
	a, b := award.Merge(tender), tender.Merge(award)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("merged in either order (-award last +tender last):\n%s", diff)
	}
	if got := a.(*WorldTender).NoticeType; got != "award" {
		t.Errorf("notice type %q, want the award's", got)
	}
}
