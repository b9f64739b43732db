package postings

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// memRecords is postings.Records over a map of docs to rids.
type memRecords map[uint32]int64

func (m memRecords) RIDsOf(_ context.Context, docs []uint32, before int64) ([]int64, error) {
	var out []int64
	for _, d := range docs {
		if rid, ok := m[d]; ok && rid < before {
			out = append(out, rid)
		}
	}
	return out, nil
}

func (m memRecords) Walk(_ context.Context, before int64, step int) ([]int64, []uint32, error) {
	type row struct {
		rid int64
		doc uint32
	}
	var rows []row
	for d, rid := range m {
		if rid < before {
			rows = append(rows, row{rid, d})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.rid, a.rid) })
	var rids []int64
	var docs []uint32
	for _, r := range rows[:min(step, len(rows))] {
		rids, docs = append(rids, r.rid), append(docs, r.doc)
	}
	return rids, docs, nil
}

// rankedDoc is a doc of the brute-force ranking.
type rankedDoc struct {
	rid   int64
	score int
}

// bruteRank scores every doc of docs alone from the terms it holds, as
// the definition of the score says (rank.go), and sorts them.
func bruteRank(t *testing.T, m Match, docs *Bitmap, held map[uint32][]string, rids memRecords) []rankedDoc {
	t.Helper()
	e := evaluator{openOnly: m.OpenOnly}
	words := e.scoredWords(m.Query)
	all := len(held)
	weights := make([]int, len(words))
	for i, w := range words {
		n := 0
		for _, terms := range held {
			if slices.ContainsFunc(w, func(t string) bool { return slices.Contains(terms, t) }) {
				n++
			}
		}
		idf := math.Log(1 + (float64(all)-float64(n)+0.5)/(float64(n)+0.5))
		weights[i] = max(1, int(math.Round(idf*10)))
	}
	var out []rankedDoc
	for _, d := range docs.ToArray() {
		score := 0
		for i, w := range words {
			l := 0
			for _, term := range w {
				if slices.Contains(held[d], term) {
					l = max(l, 1)
				}
				for k := 2; k <= Levels; k++ {
					if slices.Contains(held[d], levelTerm(k, term)) {
						l = max(l, k)
					}
				}
			}
			score += weights[i] * l
		}
		out = append(out, rankedDoc{rids[d], score})
	}
	slices.SortFunc(out, func(a, b rankedDoc) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.rid, a.rid)) })
	return out
}

// TestRankIsTheBruteForceOrder stores random records and compares every
// page of Rank, by number and by place, with the order of a score computed
// record by record.
func TestRankIsTheBruteForceOrder(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"поставка", "поставки", "бумага", "бумаги", "ремонт", "кровли", "школы", "мебели", "для", "нужд"}
	text := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	const kind = tenderbase.KindTender
	tab := table{}
	var c Changes
	held := map[uint32][]string{}
	rids := memRecords{}
	st := textproc.Stemmer{}
	for i := range 400 {
		// Docs far apart, so that several chunks hold a term; rids in
		// another order than docs, with ties of score among them.
		doc := uint32(i) * 397
		open := []string{text(1 + rng.IntN(4)), text(rng.IntN(30))}
		var tariff []string
		if rng.IntN(4) == 0 {
			tariff = []string{text(1 + rng.IntN(5))}
		}
		o, tr := st.FieldsApart(textproc.Default, open, tariff)
		flags := []string{[]string{"r77", "r50", "r78"}[rng.IntN(3)]}
		terms := Terms(o, tr, []bool{rng.IntN(2) == 0, false}, flags)
		c.Add(kind, doc, terms)
		held[doc] = terms
		rids[doc] = int64(rng.Uint32())
	}
	if err := c.Flush(ctx, tab); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query    string
		groups   [][]string
		openOnly bool
	}{
		{"поставка", nil, false},
		{"поставка", nil, true},
		{"бумага", [][]string{{"r77", "r50"}}, false},
		{"поставка & бумага", nil, false},
		{"поставка | кровля", nil, false},
		{"ремонт & !мебель", nil, false},
		{`"поставка бумаги"`, nil, false},
		{"=поставки & школа", nil, false},
		{"поставка & бумага & ремонт & школа", nil, false},
		{"нет_такого_слова", nil, false},
	} {
		q, err := query.Parse(tc.query, query.MCP)
		if err != nil {
			t.Fatalf("parse %q: %v", tc.query, err)
		}
		m := Match{Query: q, Groups: tc.groups, OpenOnly: tc.openOnly}
		docs, err := Docs(ctx, tab.load(kind), m)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteRank(t, m, docs, held, rids)
		scores := map[int]bool{}
		for _, d := range want {
			scores[d.score] = true
		}
		if len(want) > 50 && len(scores) < 3 {
			t.Errorf("%q: %d matches of %d scores: the test does not rank", tc.query, len(want), len(scores))
		}
		for _, size := range []int{1, 3, 20, 1000} {
			var byNumber, byPlace []rankedDoc
			for page := 0; page*size <= len(want); page++ {
				r, err := Rank(ctx, tab.load(kind), rids, m, page*size, size, nil)
				if err != nil {
					t.Fatal(err)
				}
				if r.Total != len(want) {
					t.Fatalf("%q: total %d, want %d", tc.query, r.Total, len(want))
				}
				byNumber = append(byNumber, pageOf(r)...)
			}
			var after *Place
			for range len(want) + 1 {
				r, err := Rank(ctx, tab.load(kind), rids, m, 0, size, after)
				if err != nil {
					t.Fatal(err)
				}
				byPlace = append(byPlace, pageOf(r)...)
				if !r.More {
					break
				}
				n := len(r.RIDs) - 1
				after = &Place{Score: r.Scores[n], RID: r.RIDs[n]}
			}
			for name, got := range map[string][]rankedDoc{"by number": byNumber, "by place": byPlace} {
				if diff := gocmp.Diff(want, got, gocmp.AllowUnexported(rankedDoc{})); diff != "" {
					t.Errorf("%q, %s, pages of %d (-brute force +Rank):\n%s", tc.query, name, size, diff)
				}
			}
		}
	}
}

func pageOf(r Ranked) []rankedDoc {
	var out []rankedDoc
	for i, rid := range r.RIDs {
		out = append(out, rankedDoc{rid, int(r.Scores[i])})
	}
	return out
}

// TestLevels checks what the levels say: a word of the title weighs more
// than the same word elsewhere, a word said more often more than a word
// said once, and a word of a short record more than one of a long record.
func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		name          string
		higher, lower int
	}{
		{"title over the rest", level(titleWeight, 40), level(1, 40)},
		{"three times over once", level(3, 40), level(1, 40)},
		{"a short record over a long one", level(1, 8), level(1, 200)},
	} {
		if tc.higher <= tc.lower {
			t.Errorf("%s: level %d, not above %d", tc.name, tc.higher, tc.lower)
		}
	}
	for count := 1.0; count <= 30; count++ {
		for _, length := range []int{1, 5, 40, 1000} {
			if l := level(count, length); l < 1 || l > Levels {
				t.Errorf("level(%v, %d) = %d, out of 1 to %d", count, length, l, Levels)
			}
		}
	}
	if l := level(1, referenceLength); l != 1 {
		t.Errorf("a word said once in a record of the reference length is at level %d, want 1: most docs of a word need no level term", l)
	}
}

// BenchmarkRank ranks the first page of a word held by 55% of 1,000,000
// docs, its levels spread as a common word's of the scale corpus, from
// bitmaps in memory: what Rank costs beside the store's reads.
func BenchmarkRank(b *testing.B) {
	ctx := context.Background()
	const docs = 1_000_000
	q, err := query.Parse("поставка", query.MCP)
	if err != nil {
		b.Fatal(err)
	}
	m := Match{Query: q}
	e := evaluator{}
	word := e.scoredWords(q)[0][0]
	bitmaps := map[string]*Bitmap{All: New(), word: New()}
	rng := rand.New(rand.NewPCG(3, 4))
	rids := memRecords{}
	for d := range uint32(docs) {
		bitmaps[All].Add(d)
		rids[d] = int64(d)<<8 | int64(rng.IntN(256))
		if rng.Float64() >= 0.55 {
			continue
		}
		bitmaps[word].Add(d)
		if l := 1 + int(rng.ExpFloat64()*1.5); l > 1 {
			t := levelTerm(min(l, Levels), word)
			if bitmaps[t] == nil {
				bitmaps[t] = New()
			}
			bitmaps[t].Add(d)
		}
	}
	for _, bm := range bitmaps {
		bm.RunOptimize()
	}
	load := func(_ context.Context, terms []string) (map[string]*Bitmap, error) {
		out := map[string]*Bitmap{}
		for _, t := range terms {
			if bm := bitmaps[t]; bm != nil {
				out[t] = bm
			}
		}
		return out, nil
	}
	recs := walkOnly{rids}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Rank(ctx, load, recs, m, 0, 20, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// walkOnly is memRecords whose rids run with docs, walked from a sorted
// list instead of sorting the map at every walk.
type walkOnly struct{ memRecords }

func (w walkOnly) Walk(_ context.Context, before int64, step int) ([]int64, []uint32, error) {
	var rids []int64
	var docs []uint32
	d := uint32(len(w.memRecords))
	for d > 0 && len(rids) < step {
		d--
		if rid := w.memRecords[d]; rid < before {
			rids, docs = append(rids, rid), append(docs, d)
		}
	}
	return rids, docs, nil
}
