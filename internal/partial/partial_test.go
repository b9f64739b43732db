package partial

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// TestPlans checks which sets of words the dropped-word searches keep, and
// in which order: the lightest drop first, never below half the weight,
// never a word no record holds, at most maxSearches of them.
func TestPlans(t *testing.T) {
	for _, c := range []struct {
		name    string
		weights []float64
		held    []bool
		want    [][]bool
		half    [][]bool
	}{
		{"the common word dropped, never the rare one", []float64{1, 3}, []bool{true, true},
			[][]bool{{false, true}}, nil},
		{"two light words dropped one by one, then together", []float64{1, 1.5, 4}, []bool{true, true, true},
			[][]bool{{false, true, true}, {true, false, true}, {false, false, true}}, nil},
		{"a word no record holds is always dropped", []float64{2, 2, 1}, []bool{true, true, false},
			[][]bool{{true, true, false}}, nil},
		{"a word no record holds, and the lighter of the rest", []float64{1, 4, 1}, []bool{true, true, false},
			[][]bool{{true, true, false}, {false, true, false}}, nil},
		{"a word no record holds outweighs the rest", []float64{1, 1, 3}, []bool{true, true, false},
			[][]bool{}, nil},
		{"two words of one weight: each kept alone, the later first, on an empty answer only", []float64{2, 2}, []bool{true, true},
			[][]bool{}, [][]bool{{false, true}, {true, false}}},
		{"three equal words: two kept, never one", []float64{1, 1, 1}, []bool{true, true, true},
			[][]bool{{true, true, false}, {true, false, true}, {false, true, true}}, nil},
		{"six equal words: the drops of one, then of two, bounded", []float64{1, 1, 1, 1, 1, 1}, []bool{true, true, true, true, true, true},
			nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ops := make([]operand, len(c.weights))
			for i, w := range c.weights {
				ops[i] = operand{weight: w, held: c.held[i]}
			}
			got, half := plans(ops)
			if c.want == nil {
				if len(got) != maxSearches {
					t.Fatalf("%d searches, want %d", len(got), maxSearches)
				}
				for i, keep := range got {
					drops := 0
					for _, k := range keep {
						if !k {
							drops++
						}
					}
					if want := 1 + min(i/6, 1); drops != want {
						t.Errorf("search %d drops %d words, want %d", i, drops, want)
					}
				}
				return
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("plans (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.half, half); diff != "" {
				t.Errorf("plans of half the weight (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLabel checks that the words a match lacks are written as the query
// language reads them.
func TestLabel(t *testing.T) {
	q, err := query.Parse(`поставки =бумаги "офисной техники" (А4 | А3) !ремонт`, query.MCP)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range q.(tenderbase.AndQuery).Operands {
		got = append(got, Label(o))
	}
	want := []string{"поставки", "=бумаги", `"офисной техники"`, "а4 | а3", "!ремонт"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}

// TestWithin checks that a set keeping a word every record of which is in
// the strict set is not searched, and another is.
func TestWithin(t *testing.T) {
	ops := []operand{{df: 2, held: true}, {df: 500, held: true}, {df: 900, held: true}}
	for _, c := range []struct {
		keep []bool
		want bool
	}{
		{[]bool{true, true, false}, true},
		{[]bool{true, false, true}, true},
		{[]bool{false, true, true}, false},
	} {
		if got := within(ops, c.keep, 2); got != c.want {
			t.Errorf("within(%v) = %t, want %t", c.keep, got, c.want)
		}
	}
}
