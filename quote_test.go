package tenderbase_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

func TestQuote(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"short", `say "hi"`, `"say \"hi\""`},
		{"at the bound", strings.Repeat("a", 64), `"` + strings.Repeat("a", 64) + `"`},
		{"past the bound", strings.Repeat("a", 65), `"` + strings.Repeat("a", 64) + `"... (65 bytes in all)`},
		{"huge", strings.Repeat("7", 900_000), `"` + strings.Repeat("7", 64) + `"... (900000 bytes in all)`},
		// Cyrillic letters take two bytes each: 64 of them stay whole.
		{"letters", strings.Repeat("ж", 64), `"` + strings.Repeat("ж", 64) + `"`},
		{"letters past the bound", strings.Repeat("ж", 100), `"` + strings.Repeat("ж", 64) + `"... (200 bytes in all)`},
		{"not UTF-8", strings.Repeat("\xff", 70), `"` + strings.Repeat(`\xff`, 64) + `"... (70 bytes in all)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tenderbase.Quote(tt.in)); diff != "" {
				t.Errorf("Quote (-want +got):\n%s", diff)
			}
		})
	}
}
