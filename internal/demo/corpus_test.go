package demo

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

func collectTenders(seed int64, n int) []*tenderbase.Tender {
	var out []*tenderbase.Tender
	for t := range Tenders(seed, n) {
		out = append(out, t)
	}
	return out
}

func TestTendersDeterministic(t *testing.T) {
	if diff := cmp.Diff(collectTenders(7, 200), collectTenders(7, 200)); diff != "" {
		t.Errorf("same seed, different tenders (-first +second):\n%s", diff)
	}
	if cmp.Equal(collectTenders(7, 5), collectTenders(8, 5)) {
		t.Error("different seeds gave the same tenders")
	}
}

func TestTendersShape(t *testing.T) {
	const n = 20000
	keys := map[string]bool{}
	forms := map[string]int{}
	letters := 0
	words, years, laws := 0, map[int]bool{}, map[string]int{}
	for tn := range Tenders(1, n) {
		if keys[tn.Key()] {
			t.Fatalf("duplicate purchase number %s", tn.Key())
		}
		keys[tn.Key()] = true
		years[tn.PublishedAt.Year()] = true
		laws[tn.Law]++
		if !validINN(tn.Customer.INN) {
			t.Fatalf("invalid INN %s", tn.Customer.INN)
		}
		for _, s := range tenderbase.MatchedText(tn, false) {
			for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == ',' || r == '«' || r == '»' }) {
				words++
				if forms[w] == 0 && strings.Trim(w, "0123456789.-/") != "" {
					letters++
				}
				forms[w]++
			}
		}
	}
	t.Logf("%d words a tender, %d distinct forms (%d not numbers) in %d tenders", words/n, len(forms), letters, n)
	if avg := words / n; avg < 35 || avg > 60 {
		t.Errorf("%d words a tender, want about 45", avg)
	}
	if letters < 2000 {
		t.Errorf("%d distinct word forms, want a few thousand", letters)
	}
	rare := 0
	for _, c := range forms {
		if c < n/1000 {
			rare++
		}
	}
	if rare < len(forms)/2 {
		t.Errorf("%d of %d forms are rare, want most", rare, len(forms))
	}
	if len(years) < 10 || laws["44"] == 0 || laws["223"] == 0 {
		t.Errorf("years %v, laws %v", years, laws)
	}
}

func TestComplaintsUnique(t *testing.T) {
	keys := map[string]bool{}
	for c := range Complaints(3, 5000) {
		if keys[c.Key()] || c.DatePubl.IsZero() {
			t.Fatalf("duplicate or undated complaint %s", c.Key())
		}
		keys[c.Key()] = true
	}
	if len(keys) != 5000 {
		t.Errorf("%d complaints, want 5000", len(keys))
	}
}

func BenchmarkTenders(b *testing.B) {
	for b.Loop() {
		for range Tenders(1, 100_000) {
		}
	}
}

func BenchmarkComplaints(b *testing.B) {
	for b.Loop() {
		for range Complaints(1, 100_000) {
		}
	}
}
