package spelling

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

func TestOtherLayout(t *testing.T) {
	for _, c := range []struct {
		word, want string
		ok         bool
	}{
		{"gjcnfdrf", "поставка", true},
		{"ktrfhcndf", "лекарства", true},
		{"зфзук", "paper", true},
		{"поставка", "gjcnfdrf", true},
		{"", "", false},
		{"gjcnfdrf2", "", false}, // a digit is no letter key
		{"бумага", "", false},    // б types a comma on the Latin layout
		{"gjcтfdrf", "", false},  // scripts mixed
		{"škoda", "", false},     // a letter of no key
	} {
		got, ok := OtherLayout(c.word)
		if got != c.want || ok != c.ok {
			t.Errorf("OtherLayout(%q) = %q, %v; want %q, %v", c.word, got, ok, c.want, c.ok)
		}
	}
}

func TestMaxDistance(t *testing.T) {
	got := []int{MaxDistance(4), MaxDistance(5), MaxDistance(8), MaxDistance(9), MaxDistance(20)}
	if diff := cmp.Diff([]int{0, 1, 1, 2, 2}, got); diff != "" {
		t.Error(diff)
	}
}

func TestNear(t *testing.T) {
	idx, err := Build([]string{"поставка", "поставки", "поставку", "лекарства", "лекарство", "бумага", "бумаги", "поставка", "охрана"})
	if err != nil {
		t.Fatal(err)
	}
	if idx.Len() != 8 {
		t.Errorf("Len = %d, want 8 (a repeat counts once)", idx.Len())
	}
	for _, c := range []struct {
		word string
		want []Near
	}{
		// 9 letters: two edits.
		{"поставака", []Near{{"поставка", 1}, {"поставки", 2}, {"поставку", 2}}},
		// A transposition is one edit.
		{"лекраства", []Near{{"лекарства", 1}, {"лекарство", 2}}},
		// 6 letters: one edit, and never the word itself.
		{"бумаги", []Near{{"бумага", 1}}},
		{"бумагм", []Near{{"бумага", 1}, {"бумаги", 1}}},
		// Under 5 letters: none.
		{"бума", nil},
		{"трансцендентность", nil},
	} {
		got, err := idx.Near(c.word)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Near(%q) (-want +got):\n%s", c.word, diff)
		}
	}
	if !idx.Has("охрана") || idx.Has("охран") {
		t.Error("Has: want охрана known, охран not")
	}
	empty, err := Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := empty.Near("поставака"); err != nil || got != nil {
		t.Errorf("Near in no words = %v, %v", got, err)
	}
}

// words is a Source whose words a test sets, counting its reads.
type words struct {
	list  []string
	reads int
}

func (w *words) Words(context.Context, tenderbase.Kind) ([]string, error) {
	w.reads++
	return w.list, nil
}

func TestVocabularyRebuild(t *testing.T) {
	src := &words{list: []string{"поставка", "0373200041525000010", "окпд2"}}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	v := NewVocabulary(src, func() time.Time { return now })
	ctx := context.Background()
	known := func(gen int64, word string) bool {
		t.Helper()
		idx, err := v.Index(ctx, tenderbase.KindTender, gen)
		if err != nil {
			t.Fatal(err)
		}
		return idx.Has(word)
	}
	if !known(1, "поставка") || src.reads != 1 {
		t.Fatalf("first index: reads %d", src.reads)
	}
	if known(1, "0373200041525000010") || known(1, "окпд2") {
		t.Error("the index holds words with digits, which are never offered")
	}
	src.list = []string{"поставка", "бумага"}
	// The same generation, or another one within RebuildAfter, keeps it.
	if known(1, "бумага") || known(2, "бумага") || src.reads != 1 {
		t.Errorf("rebuilt within RebuildAfter: reads %d", src.reads)
	}
	now = now.Add(RebuildAfter)
	// The kept index serves while the new one is built.
	if known(2, "бумага") {
		t.Error("a build in the background was waited for")
	}
	v.Wait()
	if !known(2, "бумага") || src.reads != 2 {
		t.Errorf("not rebuilt for a new generation after RebuildAfter: reads %d", src.reads)
	}
	now = now.Add(time.Hour)
	if !known(2, "бумага") || src.reads != 2 {
		t.Errorf("rebuilt for the same generation: reads %d", src.reads)
	}
	// Each kind has its own.
	if _, err := v.Index(ctx, tenderbase.KindContract, 2); err != nil || src.reads != 3 {
		t.Errorf("kinds share an index: reads %d, %v", src.reads, err)
	}
}

func TestCorrectPrefersMostHeld(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		held map[string]int
		want string
	}{
		{map[string]int{"paper": 5, "pager": 2}, "paper"},
		{map[string]int{"paper": 2, "pager": 5}, "pager"},
	} {
		count := func(_ context.Context, q tenderbase.TermQuery) (int, int64, error) { return c.held[q.Form], 1, nil }
		v := NewVocabulary(&words{list: []string{"pager", "paper"}}, nil)
		q, fixes, err := Corrector{Count: count, Vocab: v, Kind: tenderbase.KindTender}.Correct(ctx, tenderbase.TermQuery{Form: "paxer", Stem: "paxer"})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]Correction{{Word: "paxer", Instead: c.want}}, fixes); diff != "" {
			t.Errorf("held %v (-want +got):\n%s", c.held, diff)
		}
		if got := q.(tenderbase.TermQuery).Form; got != c.want {
			t.Errorf("held %v: searched for %s, want %s", c.held, got, c.want)
		}
	}
}

func TestOtherLayoutText(t *testing.T) {
	for _, c := range []struct {
		text, want string
		ok         bool
	}{
		{"vjynf; j,jheljdfybz", "монтаж оборудования", true},
		{"Gjcnfdrf 10 RU", "поставка 10 кг", true},
		{"\"ctkmcrjt [jpzqcndj\"", "\"сельское хозяйство\"", true},
		{"`krf", "ёлка", true},
		{"поставка", "", false},
		{"gjcnfdrf бумаги", "", false},
		{"2025-10", "", false},
	} {
		got, ok := OtherLayoutText(c.text)
		if got != c.want || ok != c.ok {
			t.Errorf("OtherLayoutText(%q) = %q, %v; want %q, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}
