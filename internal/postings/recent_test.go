package postings

import (
	"context"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// countingTable is a table that counts the chunks asked of it.
type countingTable struct {
	table
	asked []Key
}

func (t *countingTable) Read(ctx context.Context, kind tenderbase.Kind, keys []Key) (map[Key][]byte, error) {
	t.asked = append(t.asked, keys...)
	return t.table.Read(ctx, kind, keys)
}

// TestRecent writes postings as Put does, one write a generation, and
// checks which chunks each write reads from the table, and that the
// counts read back are those of every write, whichever way its chunks
// came.
func TestRecent(t *testing.T) {
	ctx := context.Background()
	kind := tenderbase.KindTender
	tab := &countingTable{table: table{}}
	recent := &Recent{}
	// write adds doc to terms and removes the docs of gone from theirs,
	// through recent at generation gen, and returns the keys read from
	// the table and the write, not yet committed.
	write := func(gen int64, doc uint32, terms []string, gone map[uint32][]string) ([]Key, *RecentWrite) {
		t.Helper()
		var c Changes
		c.Add(kind, doc, terms)
		for d, ts := range gone {
			c.Remove(kind, d, ts)
		}
		tab.asked = nil
		w := recent.Write(tab, gen)
		if err := c.Flush(ctx, w); err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(tab.asked, compareKeys)
		return tab.asked, w
	}
	count := func(term string) uint64 {
		t.Helper()
		bms, err := tab.load(kind)(ctx, []string{term})
		if err != nil {
			t.Fatal(err)
		}
		if bms[term] == nil {
			return 0
		}
		return bms[term].GetCardinality()
	}
	keys := func(terms ...string) []Key {
		var ks []Key
		for _, term := range terms {
			ks = append(ks, Key{Term: term})
		}
		return ks
	}

	// The first write knows nothing: it reads every chunk.
	asked, w := write(1, 1, []string{"a", "b"}, nil)
	if want := keys("a", "b"); !slices.Equal(asked, want) {
		t.Errorf("first write read %v, want %v", asked, want)
	}
	w.Committed(2)

	// The next, at the generation the first left, reads only what the
	// first did not write; it also takes doc 1 out of b, emptying it.
	asked, w = write(2, 2, []string{"a", "c"}, map[uint32][]string{1: {"b"}})
	if want := keys("c"); !slices.Equal(asked, want) {
		t.Errorf("second write read %v, want %v", asked, want)
	}
	w.Committed(3)

	// A write that fails (never committed) leaves Recent as it was: the
	// next write at generation 3 still reads nothing of a, b, c, and knows
	// b is gone from the table.
	write(3, 3, []string{"d"}, nil)
	asked, w = write(3, 4, []string{"a", "b", "c"}, nil)
	if len(asked) != 0 {
		t.Errorf("the write after a failed one read %v, want nothing", asked)
	}
	w.Committed(4)
	for term, want := range map[string]uint64{"a": 3, "b": 1, "c": 2} {
		if got := count(term); got != want {
			t.Errorf("after three writes, %s holds %d docs, want %d", term, got, want)
		}
	}

	// Another process wrote generation 5: everything is read again.
	asked, w = write(5, 5, []string{"a", "c"}, nil)
	if want := keys("a", "c"); !slices.Equal(asked, want) {
		t.Errorf("the write after another process's read %v, want %v", asked, want)
	}
	w.Committed(6)

	// Without a Recent, every chunk is read.
	recent = nil
	asked, w = write(6, 6, []string{"a"}, nil)
	if want := keys("a"); !slices.Equal(asked, want) {
		t.Errorf("a write without Recent read %v, want %v", asked, want)
	}
	w.Committed(7)
	if got := count("a"); got != 5 {
		t.Errorf("a holds %d docs, want 5", got)
	}
}
