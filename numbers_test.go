package tenderbase

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestAmount checks that an amount of whole kopecks, up to a trillion
// roubles, is written as its decimal without float noise, and that Kopecks
// reads it back.
func TestAmount(t *testing.T) {
	for k := int64(1); k <= 100_000_000_000_000; k = k*7 + 3 {
		for _, k := range []int64{k, -k} {
			b, err := json.Marshal(Amount(k))
			if err != nil {
				t.Fatal(err)
			}
			abs, sign := max(k, -k), ""
			if k < 0 {
				sign = "-"
			}
			want := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%s%d.%02d", sign, abs/100, abs%100), "0"), ".")
			if string(b) != want {
				t.Errorf("Amount(%d) is written %s, want %s", k, b, want)
			}
			if got := Kopecks(Amount(k)); got != k {
				t.Errorf("Kopecks(Amount(%d)) = %d", k, got)
			}
		}
	}
	for amount, want := range map[float64]int64{640.79: 64079, 0.01: 1, 1281.57: 128157, 99999999999.99: 9999999999999} {
		if got := Kopecks(amount); got != want {
			t.Errorf("Kopecks(%v) = %d, want %d", amount, got, want)
		}
	}
}
