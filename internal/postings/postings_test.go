package postings

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// table is Chunks in memory.
type table map[tenderbase.Kind]map[Key][]byte

func (t table) Read(_ context.Context, kind tenderbase.Kind, keys []Key) (map[Key][]byte, error) {
	out := map[Key][]byte{}
	for _, k := range keys {
		if b, ok := t[kind][k]; ok {
			out[k] = b
		}
	}
	return out, nil
}

func (t table) Write(_ context.Context, kind tenderbase.Kind, chunks []ChunkBits) error {
	if t[kind] == nil {
		t[kind] = map[Key][]byte{}
	}
	for i, ch := range chunks {
		if i > 0 && !keyBefore(chunks[i-1].Key, ch.Key) {
			return fmt.Errorf("chunks out of order: %v after %v", ch.Key, chunks[i-1].Key)
		}
		if _, held := t[kind][ch.Key]; held != ch.Stored {
			return fmt.Errorf("chunk %v says Stored %v, and the table holds it: %v", ch.Key, ch.Stored, held)
		}
		if ch.Bits == nil {
			delete(t[kind], ch.Key)
		} else {
			t[kind][ch.Key] = ch.Bits
		}
	}
	return nil
}

func keyBefore(a, b Key) bool {
	return a.Term < b.Term || a.Term == b.Term && a.Chunk < b.Chunk
}

func (t table) load(kind tenderbase.Kind) Loader {
	return func(_ context.Context, terms []string) (map[string]*Bitmap, error) {
		out := map[string]*Bitmap{}
		for k, b := range t[kind] {
			if !slices.Contains(terms, k.Term) {
				continue
			}
			chunk, err := Decode(b)
			if err != nil {
				return nil, err
			}
			if out[k.Term] == nil {
				out[k.Term] = New()
			}
			out[k.Term].Or(chunk)
		}
		return out, nil
	}
}

// docTerms analyzes an open text and a tariff text as a record's.
func docTerms(open, tariff string, flags ...string) []string {
	st := textproc.Stemmer{}
	o, t := st.FieldsApart(textproc.Default, []string{open}, []string{tariff})
	return Terms(o, t, nil, flags)
}

// TestCountsFollowTheQueryLanguage stores a few docs, some far apart so
// that their chunks differ, and counts queries of every kind of node.
func TestCountsFollowTheQueryLanguage(t *testing.T) {
	ctx := context.Background()
	tab := table{}
	var c Changes
	const kind = tenderbase.KindTender
	docs := []struct {
		doc          uint32
		open, tariff string
		flags        []string
	}{
		{0, "Поставка бумаги для офиса", "", []string{"r77", "fz44"}},
		{1, "Поставка картриджей", "контакты: Иванов", []string{"r50", "fz44"}},
		{70_000, "Ремонт кровли здания школы", "", []string{"r77", "fz223"}},
		{200_000, "Охрана объектов", "поставка", []string{"r78", "fz44"}},
	}
	for _, d := range docs {
		c.Add(kind, d.doc, docTerms(d.open, d.tariff, d.flags...))
	}
	if err := c.Flush(ctx, tab); err != nil {
		t.Fatal(err)
	}
	if got := len(tab[kind]); got == 0 || c.Pending() != 0 {
		t.Fatalf("after flush: %d chunks stored, %d pending", got, c.Pending())
	}
	for _, tc := range []struct {
		query    string
		groups   [][]string
		openOnly bool
		want     int
	}{
		{"поставки", nil, false, 3},   // a form of the word in the open and the tariff text
		{"поставки", nil, true, 2},    // the open text only
		{`"поставка"`, nil, false, 3}, // one word in quotes is the word
		{"=поставка", nil, false, 3},  // the exact form
		{"=поставки", nil, false, 0},
		{"поставка & бумага", nil, false, 1},
		{"поставка & !бумага", nil, false, 2},
		{"бумага | кровля", nil, false, 2},
		{"поставка", [][]string{{"r77"}}, false, 1},
		{"поставка", [][]string{{"r77", "r50"}, {"fz44"}}, false, 2},
		{"", [][]string{{"fz223"}}, false, 1},
		{"", nil, false, 4},
		{"иванов", nil, true, 0},
		{`"поставка бумаги"`, nil, false, 1},     // side by side, in other forms
		{`"бумаги поставка"`, nil, false, 0},     // the other way round
		{`"поставка картриджей"`, nil, true, 1},  // within one text
		{`"картриджей контакты"`, nil, false, 0}, // across two texts
		{`"кровли здания"`, nil, false, 1},
		{`"ремонт здания"`, nil, false, 0}, // not side by side
	} {
		m := Match{Groups: tc.groups, OpenOnly: tc.openOnly}
		if tc.query != "" {
			q, err := query.Parse(tc.query, query.MCP)
			if err != nil {
				t.Fatalf("parse %q: %v", tc.query, err)
			}
			m.Query = q
		}
		if !m.Exact() {
			t.Fatalf("%q: postings should answer it", tc.query)
		}
		got, err := Count(ctx, tab.load(kind), m)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("count %q groups %v open only %v = %d, want %d", tc.query, tc.groups, tc.openOnly, got, tc.want)
		}
	}
}

// TestChangesApplyInOrder: a doc added and removed by one write is gone,
// one removed and added back stays, and a chunk left empty is deleted.
func TestChangesApplyInOrder(t *testing.T) {
	ctx := context.Background()
	tab := table{}
	const kind = tenderbase.KindTender
	var c Changes
	c.Add(kind, 5, []string{All, "s a"})
	c.Add(kind, 6, []string{All, "s a"})
	if err := c.Flush(ctx, tab); err != nil {
		t.Fatal(err)
	}
	c.Remove(kind, 5, []string{All, "s a"})
	c.Add(kind, 5, []string{All, "s b"})
	c.Add(kind, 7, []string{All, "s a"})
	c.Remove(kind, 7, []string{All, "s a"})
	c.Remove(kind, 6, []string{"s a"})
	if err := c.Flush(ctx, tab); err != nil {
		t.Fatal(err)
	}
	count := func(term string) int {
		bms, err := tab.load(kind)(ctx, []string{term})
		if err != nil {
			t.Fatal(err)
		}
		if bms[term] == nil {
			return 0
		}
		return int(bms[term].GetCardinality())
	}
	if got := count(All); got != 2 {
		t.Errorf("all: %d docs, want 2 (5 and 6)", got)
	}
	if got := count("s b"); got != 1 {
		t.Errorf("s b: %d docs, want 1", got)
	}
	if _, ok := tab[kind][Key{Term: "s a", Chunk: 0}]; ok {
		t.Errorf("the chunk of s a is empty and should be deleted")
	}
}

// TestLongPhrasesAreNotAnswered: postings hold pairs of words side by
// side, not positions, so a phrase of three words, or one with an exact
// form, is left to the full-text index.
func TestLongPhrasesAreNotAnswered(t *testing.T) {
	for text, want := range map[string]bool{
		`"поставка бумаги"`:               true,
		`кровля & !"поставка бумаги"`:     true,
		`кровля | "ремонт кровли здания"`: false,
		`"=поставка бумаги"`:              false,
		`кровля | (ремонт & !школа)`:      true,
		`"кровля"`: true,
	} {
		q, err := query.Parse(text, query.MCP)
		if err != nil {
			t.Fatalf("parse %q: %v", text, err)
		}
		if got := (Match{Query: q}).Exact(); got != want {
			t.Errorf("%s: exact %v, want %v", text, got, want)
		}
	}
}
