package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/spelling"
)

// testWords checks that a store's vocabulary (spelling.Source) holds the
// forms of the words of its current records, and loses those only a
// withdrawn or replaced version held.
func testWords(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	src, ok := st.(spelling.Source)
	if !ok {
		t.Skip("the store lists no vocabulary")
	}
	held := func(want, gone []string) {
		t.Helper()
		words, err := src.Words(context.Background(), tenderbase.KindTender)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !slices.Contains(words, w) {
				t.Errorf("the words lack %q", w)
			}
		}
		for _, w := range gone {
			if slices.Contains(words, w) {
				t.Errorf("the words hold %q, which no current record holds", w)
			}
		}
		slices.Sort(words)
		if len(slices.Compact(words)) != len(words) {
			t.Errorf("the words hold repeats")
		}
	}
	other := tender("0373200041524000700", tenderbase.Law44, 77, 12, "Поставка мебели", polyclinic())
	wantPut(t, st, tenderbase.PutResult{Inserted: 2}, version(1, 10, "Поставка бумаги"), other)
	held([]string{"поставка", "бумаги", "мебели"}, []string{"бумага", "поставк"})
	wantPut(t, st, tenderbase.PutResult{Inserted: 1}, withdrawal("w1", vKey))
	held([]string{"поставка", "мебели"}, []string{"бумаги"})
	newer := tender(other.PurchaseNumber, tenderbase.Law44, 77, 12, "Поставка стульев", polyclinic())
	newer.Version = 2
	wantPut(t, st, tenderbase.PutResult{Replaced: 1}, newer)
	held([]string{"поставка", "стульев"}, []string{"мебели"})
	if words, err := src.Words(context.Background(), tenderbase.KindContract); err != nil || len(words) != 0 {
		t.Errorf("the words of contracts, none stored: %q, %v", words, err)
	}
}

// BenchWords reads the vocabulary of the tenders of src, the corpus of a
// store's benchmarks, and reads it into an index, as the first correction
// of a query does, reporting how many words each holds: the index keeps
// the words of letters alone.
func BenchWords(b *testing.B, src spelling.Source) {
	ctx := context.Background()
	b.Run("read", func(b *testing.B) {
		var words []string
		for b.Loop() {
			var err error
			if words, err = src.Words(ctx, tenderbase.KindTender); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(words)), "words")
	})
	b.Run("index", func(b *testing.B) {
		var idx *spelling.Index
		for b.Loop() {
			var err error
			if idx, err = spelling.NewVocabulary(src, nil).Index(ctx, tenderbase.KindTender, 0); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(idx.Len()), "words")
		b.ReportMetric(float64(idx.Size())/(1<<20), "MB")
	})
}
