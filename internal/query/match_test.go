package query

import (
	"testing"

	"github.com/tenderbase/tenderbase"
)

func TestMatch(t *testing.T) {
	fields := Fields([]string{
		"Поставка товаров для нужд ГБУЗ",
		"Медико-санитарной части № 44-ФЗ",
		"Ёлочные игрушки и гирлянды",
		"21.20.10 Препараты лекарственные",
		"7707083893",
	})
	tests := []struct {
		query string
		want  bool
	}{
		{"поставка", true},
		{"поставки", true},
		{"ПОСТАВКУ", true},
		{"=поставка", true},
		{"=поставки", false},
		{"=постав", false},
		{"постав", false},
		{"товар", true},
		{"=товаров", true},
		{"=товар", false},
		{"\"поставка товаров\"", true},
		{"\"товаров поставка\"", false},
		{"\"поставка для\"", false},
		{"\"=поставка товаров\"", true},
		{"\"=поставки товаров\"", false},
		{"\"нужд гбуз медико\"", false}, // not across two fields
		{"гбуз медико", true},
		{"медико-санитарной", true},
		{"санитарная", true},
		{"санитарной-медико", false},
		{"44-ФЗ", true},
		{"44", true},
		{"4", false},
		{"елочные", true},
		{"ёлочные", true},
		{"=елочные", true},
		{"21.20.10", true},
		{"21.20.11", false},
		{"7707083893", true},
		{"770708389", false},
		{"поставка | ремонт", true},
		{"ремонт | уборка", false},
		{"поставка ремонт", false},
		{"поставка & товаров & гирлянда", true},
		{"поставка !ремонт", true},
		{"поставка !товар", false},
		{"поставка !\"товаров поставка\"", true},
		{"поставка !\"поставка товаров\"", false},
		{"поставка !(ремонт | уборка)", true},
		{"поставка !(ремонт | гирлянды)", false},
		{"поставка !(ремонт гирлянды)", true},
		{"(игрушки гирлянды) | ремонт", true},
		{"(гирлянды игрушки) поставка", true},
		{"ремонт | поставка !уборка", true},
		{"ремонт поставка | уборка", false},
	}
	for _, tt := range tests {
		q, err := Parse(tt.query, MCP)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.query, err)
		}
		if got := Match(q, fields); got != tt.want {
			t.Errorf("Match(%q = %s) = %v, want %v", tt.query, Format(q), got, tt.want)
		}
	}
}

func TestMatchEdges(t *testing.T) {
	if !Match(nil, nil) {
		t.Error("Match(nil) = false, want true: no query admits everything")
	}
	term := tenderbase.TermQuery{Form: "a", Stem: "a"}
	if Match(term, nil) {
		t.Error("a term matched a record without fields")
	}
	if Match(tenderbase.PhraseQuery{}, Fields([]string{"a"})) {
		t.Error("an empty phrase matched")
	}
	if Match(tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{term, term}}, Fields([]string{"a"})) {
		t.Error("a phrase longer than the field matched")
	}
}

// TestMatchRecord checks that a search that may match only the open text
// of a record neither matches nor excludes by the text of its tariff
// fields, and that no phrase spans the two.
func TestMatchRecord(t *testing.T) {
	c := &tenderbase.Contract{RegNumber: "2770000000125000001", Subject: "Уборка помещений",
		Suppliers: []tenderbase.Party{{INN: "7701234567", Name: "Помещений чистота"}}}
	tests := []struct {
		query          string
		want, wantOpen bool
	}{
		{"уборка", true, true},
		{"чистота", true, false},
		{"7701234567", true, false},
		{"уборка !чистота", false, true},
		{`"помещений чистота"`, true, false},
		{`"уборка помещений"`, true, true},
		{`"помещений помещений"`, false, false},
	}
	for _, tt := range tests {
		q, err := Parse(tt.query, MCP)
		if err != nil {
			t.Fatal(err)
		}
		if got := MatchRecord(q, c, false); got != tt.want {
			t.Errorf("MatchRecord(%s) = %v, want %v", tt.query, got, tt.want)
		}
		if got := MatchRecord(q, c, true); got != tt.wantOpen {
			t.Errorf("MatchRecord(%s) of the open text = %v, want %v", tt.query, got, tt.wantOpen)
		}
	}
}
