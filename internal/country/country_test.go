package country

import "testing"

func TestNumeric(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"CZ", 203}, {"cz", 203}, {"UK", 826}, {"EL", 300}, {"1A", 900}, {"XK", 900}, {"GB", 826}, {"DEU", 276}, {"FRA", 250},
		{"Uganda", 800}, {"México", 484}, {"Moldova, Republic of", 498}, {"Paraguay", 600},
		// Names in the publishers' own languages, as ProZorro writes
		// Ukraine in Ukrainian and in Russian.
		{"Україна", 804}, {"Украина", 804}, {"УКРАЇНА", 804}, {"Росія", 643}, {"España", 724}, {"Deutschland", 276},
		{"Polska", 616}, {"Ελλάδα", 300}, {"台灣", 158},
		{"", 0}, {"Atlantis", 0},
	}
	for _, tt := range tests {
		if got := Numeric(tt.in); got != tt.want {
			t.Errorf("Numeric(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
