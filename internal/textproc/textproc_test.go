package textproc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnalyze(t *testing.T) {
	tests := []struct {
		text string
		want []Token
	}{
		{"Поставка", []Token{{"поставка", "поставк"}}},
		{"поставки", []Token{{"поставки", "поставк"}}},
		{"ЁЛКА ёлки", []Token{{"елка", "елк"}, {"елки", "елк"}}},
		{"медико-санитарной", []Token{{"медико", "медик"}, {"санитарной", "санитарн"}}},
		{"44-ФЗ", []Token{{"44", "44"}, {"фз", "фз"}}},
		{"ИНН 7707083893, ОКПД2 21.20.10.191", []Token{
			{"инн", "ин"}, {"7707083893", "7707083893"}, {"окпд2", "окпд2"},
			{"21", "21"}, {"20", "20"}, {"10", "10"}, {"191", "191"},
		}},
		{"Construction works", []Token{{"construction", "construct"}, {"works", "work"}}},
		{"covid-19", []Token{{"covid", "covid"}, {"19", "19"}}},
		{"Бумага A4, 10кг, 2,5л", []Token{
			{"бумага", "бумаг"}, {"а4", "а4"}, {"10", "10"}, {"кг", "кг"},
			{"2", "2"}, {"5", "5"}, {"л", "л"},
		}},
		{"44ФЗ", []Token{{"44", "44"}, {"фз", "фз"}}},
		{"5 000 листов", []Token{{"5000", "5000"}, {"листов", "лист"}}},
		{"1 000 000,50", []Token{{"1000000", "1000000"}, {"50", "50"}}},
		{"5 000кг", []Token{{"5000", "5000"}, {"кг", "кг"}}},
		{"ИНН 7707083893 000", []Token{{"инн", "ин"}, {"7707083893", "7707083893"}, {"000", "000"}}},
		{"5 0000 5 00 12 345 6789", []Token{
			{"5", "5"}, {"0000", "0000"}, {"5", "5"}, {"00", "00"}, {"12345", "12345"}, {"6789", "6789"},
		}},
		{"5  000 5-000", []Token{{"5000", "5000"}, {"5", "5"}, {"000", "000"}}},
		// A run of ideographs is its overlapping pairs of characters; a
		// character alone is a word, and a number before a run is cut off.
		{"北京市政府采购", []Token{{"北京", "北京"}, {"京市", "京市"}, {"市政", "市政"}, {"政府", "政府"}, {"府采", "府采"}, {"采购", "采购"}}},
		{"Lot 1 北京市 supply", []Token{{"lot", "lot"}, {"1", "1"}, {"北京", "北京"}, {"京市", "京市"}, {"supply", "suppli"}}},
		{"2024年 市", []Token{{"2024", "2024"}, {"年", "年"}, {"市", "市"}}},
		{"入札公告", []Token{{"入札", "入札"}, {"札公", "札公"}, {"公告", "公告"}}},
		{"  ,.;  ", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Analyze(tt.text)); diff != "" {
				t.Errorf("Analyze(%q) mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// TestAnalyzeLookAlikesAsRussian checks that Russian words typed with
// Latin look-alikes are stemmed as Russian, and that a mix of scripts
// that is meant is kept whole.
func TestAnalyzeLookAlikesAsRussian(t *testing.T) {
	tests := []struct{ text, russian string }{
		{"пoставка", "поставка"},
		{"пOСТAВКИ", "поставки"},
		{`OOO "Вектор"`, "ООО Вектор"},
		{"Поставка TOO", "Поставка ТОО"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(Analyze(tt.russian), Analyze(tt.text)); diff != "" {
			t.Errorf("Analyze(%q) differs from Analyze(%q) (-russian +got):\n%s", tt.text, tt.russian, diff)
		}
	}
	want := []Token{{"техноlab", "техноlab"}}
	if diff := cmp.Diff(want, Analyze("ТехноLab")); diff != "" {
		t.Errorf("Analyze(ТехноLab) mismatch (-want +got):\n%s", diff)
	}
}

func TestStemMixedScriptsStaysWhole(t *testing.T) {
	for _, w := range []string{"x5", "окпд2", "aбв", "12345"} {
		if got := Stem(w); got != w {
			t.Errorf("Stem(%q) = %q, want the word itself", w, got)
		}
	}
}

func TestFoldCutsLongWordsOnRuneBoundary(t *testing.T) {
	long := ""
	for range 100 {
		long += "ж"
	}
	got := Fold(long)
	if len(got) > MaxWordLen {
		t.Fatalf("Fold kept %d bytes, want at most %d", len(got), MaxWordLen)
	}
	for _, r := range got {
		if r != 'ж' {
			t.Fatalf("Fold split a rune: %q", got)
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	text := "Поставка медицинских изделий для нужд ГБУЗ «Городская клиническая больница № 1» в 2024 году, ОКПД2 32.50.13.190"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Analyze(text)
	}
}
