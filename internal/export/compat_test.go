package export

import (
	"testing"
	"time"
)

// TestAppendDate writes dates by the spec's conventions and by
// TenderGuru's: the day in Moscow, whatever zone the date was stored in.
func TestAppendDate(t *testing.T) {
	utc := time.UTC
	msk := time.FixedZone("", 3*60*60)
	tests := []struct {
		date     time.Time
		spec, tg string
	}{
		{time.Date(2023, 10, 25, 15, 0, 0, 0, msk), "2023-10-25T15:00:00+03:00", "25-10-2023"},
		{time.Date(2023, 10, 25, 0, 0, 0, 0, msk), "2023-10-25T00:00:00+03:00", "25-10-2023"},
		{time.Date(2025, 8, 20, 22, 0, 0, 0, msk), "2025-08-20T22:00:00+03:00", "20-08-2025"},
		// 21:30 UTC is half past midnight of the next day in Moscow.
		{time.Date(2023, 12, 31, 21, 30, 0, 0, utc), "2023-12-31T21:30:00Z", "01-01-2024"},
		{time.Date(2023, 12, 31, 20, 59, 59, 0, utc), "2023-12-31T20:59:59Z", "31-12-2023"},
		{time.Date(2024, 2, 29, 12, 0, 0, 500_000_000, msk), "2024-02-29T12:00:00.5+03:00", "29-02-2024"},
	}
	for _, tt := range tests {
		if got := string(appendDate(nil, tt.date, CompatSpec)); got != tt.spec {
			t.Errorf("%v by the spec: %s, want %s", tt.date, got, tt.spec)
		}
		if got := string(appendDate(nil, tt.date, CompatTG)); got != tt.tg {
			t.Errorf("%v by TenderGuru: %s, want %s", tt.date, got, tt.tg)
		}
	}
}

func TestFirstPage(t *testing.T) {
	if CompatSpec.FirstPage() != 0 || CompatTG.FirstPage() != 1 {
		t.Errorf("first pages %d and %d, want 0 by the spec and 1 by TenderGuru", CompatSpec.FirstPage(), CompatTG.FirstPage())
	}
}
