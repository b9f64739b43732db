package benchcorpus

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

const testSeed = 2026

func TestTendersAreDeterministic(t *testing.T) {
	first := slices.Collect(Tenders(testSeed, 300))
	if diff := cmp.Diff(first, slices.Collect(Tenders(testSeed, 300))); diff != "" {
		t.Fatalf("a second run differs (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(first[:100], slices.Collect(Tenders(testSeed, 100))); diff != "" {
		t.Errorf("the first 100 of 300 differ from 100 (-of 300 +of 100):\n%s", diff)
	}
	other := slices.Collect(Tenders(testSeed+1, 300))
	if same := countSame(first, other); same > 0 {
		t.Errorf("%d titles of seed %d are those of seed %d", same, testSeed+1, testSeed)
	}
}

func countSame(a, b []*tenderbase.Tender) int {
	n := 0
	for i := range a {
		if a[i].Title == b[i].Title {
			n++
		}
	}
	return n
}

func TestTendersLookReal(t *testing.T) {
	const n = 20_000
	numbers := map[string]bool{}
	heads, moscow := 0, 0
	for tn := range Tenders(testSeed, n) {
		if numbers[tn.PurchaseNumber] {
			t.Fatalf("purchase number %s twice", tn.PurchaseNumber)
		}
		numbers[tn.PurchaseNumber] = true
		if len(tn.Lots) != 1 || len(tn.Lots[0].Objects) < 1 || len(tn.Lots[0].Objects) > 3 {
			t.Fatalf("tender %s has lots %+v, want one lot of 1 to 3 objects", tn.PurchaseNumber, tn.Lots)
		}
		if tn.PublishedAt.Before(corpusFrom) || !tn.PublishedAt.Before(corpusFrom.AddDate(6, 0, 0)) {
			t.Fatalf("tender %s published at %s, outside the six years", tn.PurchaseNumber, tn.PublishedAt)
		}
		if len(tn.Title) > 9 && tn.Title[:len("Поставка ")] == "Поставка " {
			heads++
		}
		if tn.Region == 77 {
			moscow++
		}
	}
	if share := float64(heads) / n; share < 0.55 || share > 0.60 {
		t.Errorf("%.1f%% of the titles begin with Поставка, want 55-60%%", 100*share)
	}
	if share := float64(moscow) / n; share < 0.12 || share > 0.20 {
		t.Errorf("%.1f%% of the tenders are in Moscow, want 12-20%%", 100*share)
	}
}

// TestZipfShape checks that a few words are in many tenders and thousands
// in hardly any.
func TestZipfShape(t *testing.T) {
	const n = 20_000
	c := Count(testSeed, n)
	common, rare := 0, 0
	for k, df := range c.keys {
		switch {
		case !isWord(k):
		case float64(df) > 0.3*n:
			common++
		case float64(df) < 0.001*n:
			rare++
		}
	}
	if common < 3 || common > 30 {
		t.Errorf("%d words in more than 30%% of %d tenders, want a handful", common, n)
	}
	if rare < 2000 {
		t.Errorf("%d words in fewer than 0.1%% of %d tenders, want thousands", rare, n)
	}
}

// TestClasses checks that each class has its queries, that the words of
// the classes of one word or one phrase are in their bands, and that the
// reference matcher counts a word's tenders as the counting does.
func TestClasses(t *testing.T) {
	const n = 20_000
	c := Count(testSeed, n)
	classes := c.Classes()
	var names []string
	for _, cl := range classes {
		names = append(names, cl.Name)
		if len(cl.Queries) != perClass {
			t.Errorf("class %s has %d queries, want %d", cl.Name, len(cl.Queries), perClass)
		}
	}
	want := []string{"common", "and", "not", "mid", "rare", "short", "phrase", "region", "relevance", "page"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("classes (-want +got):\n%s", diff)
	}
	bands := map[string]band{"common": commonBand, "mid": midBand, "rare": rareBand, "phrase": phraseBand, "region": commonBand}
	byName := map[string]Class{}
	for _, cl := range classes {
		byName[cl.Name] = cl
		b, ok := bands[cl.Name]
		for _, q := range cl.Queries {
			share := q.Share
			if q.Region != 0 {
				share = float64(q.Hits) / float64(c.regionTenders)
			}
			if ok && (share < b.low || share > b.high) {
				t.Errorf("class %s: %s is in %.4f%% of the tenders, out of %.4f-%.4f%%", cl.Name, q.Text, 100*share, 100*b.low, 100*b.high)
			}
			if len(q.Words) == 1 && q.Region == 0 && q.Not == "" && q.Hits != c.keys[textproc.Stem(q.Words[0])] {
				t.Errorf("class %s: the matcher finds %s in %d tenders, the counting in %d", cl.Name, q.Text, q.Hits, c.keys[textproc.Stem(q.Words[0])])
			}
		}
	}
	for i, q := range byName["and"].Queries {
		if one := byName["common"].Queries[i].Hits; q.Hits == 0 || q.Hits >= one {
			t.Errorf("%s has %d hits, want some and fewer than the %d of its first word", q.Text, q.Hits, one)
		}
	}
	for i, q := range byName["not"].Queries {
		if one := byName["common"].Queries[i].Hits; q.Hits == 0 || q.Hits >= one {
			t.Errorf("%s has %d hits, want some and fewer than the %d of its word", q.Text, q.Hits, one)
		}
	}
	for i, q := range byName["short"].Queries {
		if rare := byName["rare"].Queries[i].Hits; q.Hits >= 20 || q.Hits > rare {
			t.Errorf("%s has %d hits, want fewer than a page and no more than the %d of its rare word", q.Text, q.Hits, rare)
		}
	}
	for _, q := range byName["page"].Queries {
		if q.Page < 1 || q.Page*20 >= q.Hits {
			t.Errorf("page %d of %s, of %d hits, is not a page of its results", q.Page, q.Text, q.Hits)
		}
	}
}

// TestVocabulary checks that 100,000 tenders hold tens of thousands of
// distinct words.
func TestVocabulary(t *testing.T) {
	if testing.Short() {
		t.Skip("counts 100,000 tenders")
	}
	v := Count(testSeed, 100_000).Vocabulary()
	if v.Lexemes < 15_000 || v.Keys < 15_000 || v.Forms < 20_000 {
		t.Errorf("vocabulary %+v, want 15,000 lexemes and keys and 20,000 forms at least", v)
	}
}
