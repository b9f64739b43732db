package postings

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// partialDoc is a doc of the brute-force partial matches.
type partialDoc struct {
	RID    int64
	Held   uint
	Weight int
}

// TestPartialIsTheBruteForceOrder stores random records and compares
// Partial with the partial matches found doc by doc, as the definition
// says (partial.go): the docs admitted by the exclusions and flags that
// hold some but not all of the operands, of more than half the weight, or
// of exactly half when none holds more; heaviest first, the later operand
// first between masks of one weight, then by the score of the words held
// when ranked, then newest first.
func TestPartialIsTheBruteForceOrder(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"поставка", "бумага", "ремонт", "кровли", "школы", "мебели", "дороги", "насосов"}
	text := func(n int) string {
		w := make([]string, n)
		for i := range w {
			// Skewed, so that the words weigh apart.
			w[i] = words[min(rng.IntN(len(words)), rng.IntN(len(words)))]
		}
		return strings.Join(w, " ")
	}
	const kind = tenderbase.KindTender
	tab := table{}
	var c Changes
	held := map[uint32][]string{}
	rids := memRecords{}
	st := textproc.Stemmer{}
	for i := range 300 {
		doc := uint32(i) * 397
		o, tr := st.FieldsApart(textproc.Default, []string{text(1 + rng.IntN(3)), text(rng.IntN(6))}, nil)
		flags := []string{[]string{"r77", "r50"}[rng.IntN(2)]}
		terms := Terms(o, tr, []bool{true, false}, flags)
		c.Add(kind, doc, terms)
		held[doc] = terms
		rids[doc] = int64(rng.Uint32())
	}
	// Two rare words of one weight that no doc holds together: each
	// holds half of the query's weight.
	for i, w := range []string{"альфа поставка", "бета"} {
		doc := uint32(300+i) * 397
		o, tr := st.FieldsApart(textproc.Default, []string{w}, nil)
		terms := Terms(o, tr, []bool{true}, []string{"r77"})
		c.Add(kind, doc, terms)
		held[doc] = terms
		rids[doc] = int64(rng.Uint32())
	}
	if err := c.Flush(ctx, tab); err != nil {
		t.Fatal(err)
	}
	halves := 0
	for _, tc := range []struct {
		query  string
		groups [][]string
	}{
		{"поставка бумага", nil},
		{"ремонт кровли школы", nil},
		{"ремонт кровли школы", [][]string{{"r77"}}},
		{"ремонт кровли школы !мебель", nil},
		{"поставка бумага мебели дороги", nil},
		{"кровли школы дороги насосов", nil},
		{"поставка ремонт кровли школы мебели дороги насосов", nil},
		{"поставка нетакогослова", nil},
		{"альфа бета", nil},
	} {
		q, err := query.Parse(tc.query, query.MCP)
		if err != nil {
			t.Fatalf("parse %q: %v", tc.query, err)
		}
		m := Match{Query: q, Groups: tc.groups}
		for _, ranked := range []bool{false, true} {
			want, half := brutePartial(t, m, held, rids, ranked)
			if half {
				halves++
			}
			for _, size := range []int{1, 5, 1000} {
				p, err := Partial(ctx, tab.load(kind), rids, m, size, ranked)
				if err != nil {
					t.Fatal(err)
				}
				var got []partialDoc
				for i, rid := range p.RIDs {
					got = append(got, partialDoc{rid, p.Held[i], p.Weights[i]})
				}
				if diff := gocmp.Diff(want[:min(size, len(want))], got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%q, ranked %v, %d asked (-brute force +Partial):\n%s", tc.query, ranked, size, diff)
				}
			}
		}
	}
	if halves == 0 {
		t.Error("no query answered with half of its weight: the test does not check the rule")
	}
}

// brutePartial finds the partial matches of m doc by doc, and says
// whether they hold half of the weight.
func brutePartial(t *testing.T, m Match, held map[uint32][]string, rids memRecords, ranked bool) ([]partialDoc, bool) {
	t.Helper()
	e := evaluator{}
	and := m.Query.(tenderbase.AndQuery)
	holds := func(d uint32, terms []string) bool {
		return slices.ContainsFunc(terms, func(t string) bool { return slices.Contains(held[d], t) })
	}
	var ops, excluded [][]string
	for _, o := range and.Operands {
		if n, ok := o.(tenderbase.NotQuery); ok {
			excluded = append(excluded, e.termTerms(n.Operand.(tenderbase.TermQuery)))
		} else {
			ops = append(ops, e.termTerms(o.(tenderbase.TermQuery)))
		}
	}
	all := uint64(len(held))
	weights := make([]int, len(ops))
	total := 0
	for i, terms := range ops {
		n := uint64(0)
		for d := range held {
			if holds(d, terms) {
				n++
			}
		}
		weights[i] = idfTenths(max(n, 1), all)
		total += weights[i]
	}
	type doc struct {
		partialDoc
		score int
	}
	var more, half []doc
	for d := range held {
		if slices.ContainsFunc(excluded, func(terms []string) bool { return holds(d, terms) }) ||
			slices.ContainsFunc(m.Groups, func(g []string) bool { return !holds(d, flagTerms(g)) }) {
			continue
		}
		var mask uint
		kept, score := 0, 0
		for i, terms := range ops {
			if !holds(d, terms) {
				continue
			}
			mask |= 1 << i
			kept += weights[i]
			l := 1
			for k := 2; k <= Levels; k++ {
				if holds(d, levelTermsOf(k, terms)) {
					l = k
				}
			}
			score += weights[i] * l
		}
		if !ranked {
			score = 0
		}
		x := doc{partialDoc{rids[d], mask, kept}, score}
		switch {
		case mask == 1<<len(ops)-1:
		case 2*kept > total:
			more = append(more, x)
		case 2*kept == total:
			half = append(half, x)
		}
	}
	docs, isHalf := more, false
	if len(docs) == 0 {
		docs, isHalf = half, len(half) > 0
	}
	slices.SortFunc(docs, func(a, b doc) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), laterFirst(a.Held, b.Held, len(ops)),
			cmp.Compare(b.score, a.score), cmp.Compare(b.RID, a.RID))
	})
	out := make([]partialDoc, len(docs))
	for i, d := range docs {
		out[i] = d.partialDoc
	}
	return out, isHalf
}

// TestChooseMasks checks which sets of operands held are partial matches,
// and in which order.
func TestChooseMasks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		weights []int
		masks   []uint
		want    []uint
	}{
		{"more than half, heaviest first", []int{1, 3, 3}, []uint{0b110, 0b011, 0b101, 0b001, 0b100},
			[]uint{0b110, 0b101, 0b011}},
		{"half is left out when more is held", []int{1, 1, 2}, []uint{0b011, 0b100, 0b101},
			[]uint{0b101}},
		{"half when nothing holds more, the later operand first", []int{1, 1, 2}, []uint{0b011, 0b100, 0b001},
			[]uint{0b100, 0b011}},
		{"less than half never", []int{1, 5}, []uint{0b01}, nil},
	} {
		masks := map[uint]*Bitmap{}
		for _, m := range tc.masks {
			masks[m] = New()
		}
		var got []uint
		for _, s := range chooseMasks(masks, tc.weights) {
			got = append(got, s.mask)
		}
		if diff := gocmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
