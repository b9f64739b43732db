package tenderbase_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

func TestParseFilters(t *testing.T) {
	tests := []struct {
		name    string
		raw     map[string]any
		want    tenderbase.Filters
		wantErr string
	}{
		{name: "empty", raw: nil, want: tenderbase.Filters{}},
		{
			name: "regions countries laws",
			raw:  map[string]any{"r77": 1.0, "r50": "1", "cr276": true, "fz44": 1},
			want: tenderbase.Filters{Regions: []int{50, 77}, Countries: []int{276}, Laws: []string{"44"}},
		},
		{name: "unknown key", raw: map[string]any{"x1": 1.0}, wantErr: `unknown filter "x1": filters are r<region code>, cr<country code>, fz44, fz223`},
		{name: "region out of range", raw: map[string]any{"r100": 1.0}, wantErr: `unknown filter "r100": r must be followed by a code from 1 to 99`},
		{name: "region not a number", raw: map[string]any{"rx": 1.0}, wantErr: `unknown filter "rx": r must be followed by a code from 1 to 99`},
		{name: "value not 1", raw: map[string]any{"r77": 0.0}, wantErr: `filter "r77": value must be 1, got "0"`},
		{name: "value a list", raw: map[string]any{"r77": []any{1.0}}, wantErr: `filter "r77": value must be 1, got "[1]"`},
		{name: "law unknown", raw: map[string]any{"fz94": 1.0}, wantErr: `unknown filter "fz94": filters are r<region code>, cr<country code>, fz44, fz223`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tenderbase.ParseFilters(tt.raw)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || tenderbase.ErrorCode(err) != tenderbase.EINVALID {
					t.Fatalf("ParseFilters(%v) error = %v (%s), want %q (invalid)", tt.raw, err, tenderbase.ErrorCode(err), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseFilters(%v): %v", tt.raw, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseFilters(%v) mismatch (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
}

func TestFiltersGroupsAndMerge(t *testing.T) {
	f := tenderbase.Filters{Regions: []int{77}}.Merge(tenderbase.Filters{Regions: []int{77, 50}, Laws: []string{"223"}})
	want := [][]string{{"r77", "r50"}, {"fz223"}}
	if diff := cmp.Diff(want, f.Groups()); diff != "" {
		t.Errorf("Groups mismatch (-want +got):\n%s", diff)
	}
	if (tenderbase.Filters{}).IsZero() != true || f.IsZero() {
		t.Error("IsZero is wrong")
	}
}

// No store sees a flag twice, whoever built the filters: a list of 5,000
// copies of one region costs what one region costs.
func TestFiltersDistinct(t *testing.T) {
	many := make([]int, 5000)
	for i := range many {
		many[i] = 77
	}
	tests := []struct {
		name string
		f    tenderbase.Filters
		want [][]string
	}{
		{"one region many times", tenderbase.Filters{Regions: many}, [][]string{{"r77"}}},
		{"repeats kept in first order", tenderbase.Filters{Regions: []int{50, 77, 50, 78, 77}}, [][]string{{"r50", "r77", "r78"}}},
		{"every list", tenderbase.Filters{Countries: []int{276, 276}, Laws: []string{"44", "44", "223"}}, [][]string{{"cr276"}, {"fz44", "fz223"}}},
		{"merged with repeats on both sides", tenderbase.Filters{Regions: []int{77, 77}}.Merge(tenderbase.Filters{Regions: []int{50, 50, 77}}), [][]string{{"r77", "r50"}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.f.Groups()); diff != "" {
			t.Errorf("%s: Groups mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	got := tenderbase.Filters{Regions: many, Laws: []string{"44", "44"}}.Normalize()
	if diff := cmp.Diff(tenderbase.Filters{Regions: []int{77}, Laws: []string{"44"}}, got); diff != "" {
		t.Errorf("Normalize mismatch (-want +got):\n%s", diff)
	}
}

func TestResourceKind(t *testing.T) {
	for _, r := range tenderbase.Resources {
		k, err := tenderbase.ResourceKind(string(r.Name))
		if err != nil || k != r.Kind {
			t.Errorf("ResourceKind(%q) = %q, %v; want %q", r.Name, k, err, r.Kind)
		}
	}
	_, err := tenderbase.ResourceKind("orgs")
	if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
		t.Errorf("ResourceKind(orgs) error = %v, want invalid", err)
	}
}

func TestSearchValidate(t *testing.T) {
	for _, s := range []tenderbase.Search{{Page: -1}, {PageSize: -1}, {PageSize: tenderbase.MaxPageSize + 1}} {
		if tenderbase.ErrorCode(s.Validate()) != tenderbase.EINVALID {
			t.Errorf("Validate(%+v) accepted a bad search", s)
		}
	}
	if err := (tenderbase.Search{Page: 3, PageSize: 50}).Validate(); err != nil {
		t.Errorf("Validate rejected a good search: %v", err)
	}
	if got := (tenderbase.Search{}).Size(); got != tenderbase.DefaultPageSize {
		t.Errorf("Size() = %d, want %d", got, tenderbase.DefaultPageSize)
	}
}

// TestAndQuerySplit checks that an AND splits into its positive operands
// and its exclusions, each in order.
func TestAndQuerySplit(t *testing.T) {
	a := tenderbase.TermQuery{Form: "ремонт"}
	b := tenderbase.PhraseQuery{Terms: []tenderbase.TermQuery{{Form: "кровли"}, {Form: "школы"}}}
	not := tenderbase.NotQuery{Operand: tenderbase.TermQuery{Form: "окна"}}
	positive, excluded := tenderbase.AndQuery{Operands: []tenderbase.Query{a, not, b}}.Split()
	if diff := cmp.Diff([]tenderbase.Query{a, b}, positive); diff != "" {
		t.Errorf("positive operands (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]tenderbase.Query{not}, excluded); diff != "" {
		t.Errorf("exclusions (-want +got):\n%s", diff)
	}
}
