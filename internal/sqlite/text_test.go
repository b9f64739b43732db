package sqlite

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/textproc"
)

// TestStemmerIsAnalyze checks that the memoizing analyzer returns what
// textproc.Analyze does, before and after it has seen the words.
func TestStemmerIsAnalyze(t *testing.T) {
	st := stemmer{}
	for _, text := range []string{
		"Поставка медико-санитарной продукции по 44-ФЗ, код 21.20.10",
		"поставки ПОСТАВОК ёлочных Ёлок supply of papers",
		"Поставка медико-санитарной продукции по 44-ФЗ, код 21.20.10",
		"", "...",
	} {
		if diff := cmp.Diff(textproc.Analyze(text), st.analyze(text, MaxTokens)); diff != "" {
			t.Errorf("%q (-Analyze +stemmer):\n%s", text, diff)
		}
	}
	if got := st.analyze("один два три", 2); len(got) != 2 {
		t.Errorf("analyze with max 2 returned %d tokens", len(got))
	}
}
