package textproc

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStemmerIsAnalyze checks that the memoizing analyzer returns what
// Analyze does, before and after it has seen the words.
func TestStemmerIsAnalyze(t *testing.T) {
	st := Stemmer{}
	for _, text := range []string{
		"Поставка медико-санитарной продукции по 44-ФЗ, код 21.20.10",
		"поставки ПОСТАВОК ёлочных Ёлок supply of papers",
		"Straßenbauarbeiten für Łódź",
		"Поставка медико-санитарной продукции по 44-ФЗ, код 21.20.10",
		"", "...",
	} {
		for _, lang := range []Language{Default, LanguageOf("de"), FoldedOnly} {
			if diff := cmp.Diff(lang.Analyze(text), st.Analyze(lang, text, MaxTokens)); diff != "" {
				t.Errorf("%q in %s (-Analyze +Stemmer):\n%s", text, lang, diff)
			}
		}
	}
	if got := st.Analyze(Default, "один два три", 2); len(got) != 2 {
		t.Errorf("Analyze with max 2 returned %d tokens", len(got))
	}
}

// TestFieldsCut checks that Fields cuts at MaxTokens words over all texts
// together, and leaves out texts past the cut.
func TestFieldsCut(t *testing.T) {
	first := strings.Repeat("а ", MaxTokens-1)
	got := Stemmer{}.Fields(Default, []string{first, "б в", "г"})
	if len(got) != 2 || len(got[0]) != MaxTokens-1 || len(got[1]) != 1 || got[1][0].Form != "б" {
		lens := []int{}
		for _, f := range got {
			lens = append(lens, len(f))
		}
		t.Errorf("fields of %v words, want [%d 1] ending at б", lens, MaxTokens-1)
	}
}
