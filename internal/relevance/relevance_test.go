package relevance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func result(query string, relevant []string, shown ...string) Result {
	j := Judgment{Tool: "ru.search", Query: query, Kind: "exact", Relevant: map[string]string{}}
	for _, key := range relevant {
		j.Relevant[key] = "wanted"
	}
	return Result{Judgment: j, Shown: shown}
}

func TestMeasure(t *testing.T) {
	// Two found of two, shown with one unwanted; one of four; none of one
	// with an unwanted record shown; an empty answer; a query that wants
	// nothing and shows one record.
	results := []Result{
		result("a", []string{"1", "2"}, "1", "x", "2"),
		result("b", []string{"1", "2", "3", "4"}, "4"),
		result("c", []string{"1"}, "x"),
		result("d", []string{"1"}),
		result("e", nil, "x"),
	}
	f := Measure(results)
	type figures struct {
		Queries, Judged, Shown, Right int
		Recall, Precision, Macro      float64
		Empty, Missed                 []string
	}
	got := figures{f.Queries, f.Judged, f.Shown, f.Right, f.Recall, f.Precision, f.MacroPrecision, queries(f.Empty), queries(f.Missed)}
	want := figures{
		Queries: 5, Judged: 4, Shown: 6, Right: 3,
		Recall:    (1 + 0.25 + 0 + 0) / 4,
		Precision: 3.0 / 6,
		Macro:     (2.0/3 + 1 + 0 + 0) / 4,
		Empty:     []string{"d"}, Missed: []string{"c", "d"},
	}
	if d := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); d != "" {
		t.Errorf("Measure (-want +got):\n%s", d)
	}
	if got, want := results[0].Unwanted(), []string{"x"}; !cmp.Equal(got, want) {
		t.Errorf("Unwanted = %v, want %v", got, want)
	}
	if got, want := results[1].Missing(), []string{"1", "2", "3"}; !cmp.Equal(got, want) {
		t.Errorf("Missing = %v, want %v", got, want)
	}
}

// A query wanting more records than a page holds is measured against a
// page's worth.
func TestRecallOfAPage(t *testing.T) {
	var relevant, shown []string
	for i := range 30 {
		relevant = append(relevant, string(rune('A'+i)))
	}
	shown = relevant[:20]
	if got := result("many", relevant, shown...).Recall(); got != 1 {
		t.Errorf("recall of a full page of 30 wanted = %v, want 1", got)
	}
}

func queries(rs []Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Query)
	}
	return out
}

func TestShownKeys(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		want       []string
	}{
		{"items", `{"total": 2, "items": [{"id": "a", "title": "x"}, {"id": "b"}]}`, []string{"a", "b"}},
		{"empty", `{"total": 0, "items": []}`, nil},
		{"other lists after the items, each record once",
			`{"items": [{"id": "a"}], "partial": [{"id": "c"}, {"id": "a"}], "expansions": ["кровля"], "hidden": ["contact"]}`,
			[]string{"a", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ShownKeys(json.RawMessage(tc.page))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("ShownKeys (-want +got):\n%s", d)
			}
		})
	}
	if _, err := ShownKeys(json.RawMessage(`[1]`)); err == nil {
		t.Error("ShownKeys of a list: no error")
	}
}

func TestLoad(t *testing.T) {
	for _, tc := range []struct{ name, set, err string }{
		{"sound", `{"queries": [{"tool": "ru.search", "query": "кофе", "kind": "exact", "relevant": {"1": "coffee"}}]}`, ""},
		{"unknown field", `{"queries": [{"tool": "ru.search", "query": "кофе", "kind": "exact", "relevent": {}}]}`, "unknown field"},
		{"no reason", `{"queries": [{"tool": "ru.search", "query": "кофе", "kind": "exact", "relevant": {"1": " "}}]}`, "record 1 has no reason"},
		{"no query", `{"queries": [{"tool": "ru.search", "query": "", "kind": "exact"}]}`, "lacks its tool, query or kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(tc.set))
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("Load: %v, want an error saying %q", err, tc.err)
			}
		})
	}
}
