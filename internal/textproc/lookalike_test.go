package textproc

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWordsSpellLookAlikesInCyrillic(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"a Latin o in a Russian word", "пoставка", []string{"поставка"}},
		{"a Latin T in a Russian word", "Tехно", []string{"техно"}},
		{"Latin capitals in a Russian word", "ЗAO", []string{"зао"}},
		{"capitals M, T, H and B", "MТBH", []string{"мтвн"}},
		{"small k", "kот", []string{"кот"}},
		{"a letter with diacritics taken as its plain letter", "кафé", []string{"кафе"}},
		{"a Latin letter without a look-alike", "ТехноLab", []string{"техноlab"}},
		{"small m looks like no Cyrillic letter", "Тmин", []string{"тmин"}},
		{"a Latin word", "iPhone", []string{"iphone"}},
		{"capitals before a Russian word", "OOO Вектор", []string{"ооо", "вектор"}},
		{"capitals before a quoted Russian word", `OOO "Вектор"`, []string{"ооо", "вектор"}},
		{"capitals after a Russian word", "Вектор OOO", []string{"вектор", "ооо"}},
		{"capitals before a mixed word that becomes Russian", "OOO Bектор", []string{"ооо", "вектор"}},
		{"capitals between Latin words", "OOO VECTOR", []string{"ooo", "vector"}},
		{"capitals alone", "PAO", []string{"pao"}},
		{"a run of capitals after a Russian word", "Поставщик OOO TOO", []string{"поставщик", "ооо", "тоо"}},
		{"a run of capitals before a Russian word", "OOO AO Вектор", []string{"ооо", "ао", "вектор"}},
		{"a brand next to a Russian word", "Картридж HP", []string{"картридж", "hp"}},
		{"a Roman numeral next to a Russian word", "XX век", []string{"xx", "век"}},
		{"a run broken by other capitals", "OOO TK Вектор", []string{"ooo", "tk", "вектор"}},
		{"a run of capitals between Latin words", "Acme OOO AO Inc", []string{"acme", "ooo", "ao", "inc"}},
		{"one capital next to a Russian word", "корпус A", []string{"корпус", "а"}},
		{"small letters are not capitals", "ooo Вектор", []string{"ooo", "вектор"}},
		{"capitals with a digit", "OOO2 Вектор", []string{"ооо2", "вектор"}},
		{"a Latin capital with digits", "A4", []string{"а4"}},
		{"small Latin letters with digits", "co2", []string{"со2"}},
		{"a Latin letter without a look-alike, with digits", "mp3 4G", []string{"mp3", "4", "g"}},
		{"capitals next to a Russian word with a digit", "AO окпд2", []string{"ao", "окпд2"}},
		{"capitals next to a number", "AO 2024", []string{"ao", "2024"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, slices.Collect(Words(tt.text))); diff != "" {
				t.Errorf("Words(%q) mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// TestWordsStopWithARunOfCapitals checks that Words stops when asked
// while capitals wait for the word after them.
func TestWordsStopWithARunOfCapitals(t *testing.T) {
	var got []string
	for w := range Words("Вектор OOO AO Вектор") {
		got = append(got, w)
		if len(got) == 2 {
			break
		}
	}
	if diff := cmp.Diff([]string{"вектор", "ооо"}, got); diff != "" {
		t.Errorf("Words mismatch (-want +got):\n%s", diff)
	}
}

// TestFoldOfAFoldedWordKeepsIt checks words whose look-alikes Fold could
// decide otherwise once it has folded them: a query word is folded again
// by the parser, and must keep the key of the word it came from.
func TestFoldOfAFoldedWordKeepsIt(t *testing.T) {
	long := strings.Repeat("ж", 55) + "o" + strings.Repeat("ж", 10) + "Lab"
	tests := []struct{ word, want string }{
		{"тǾ", "то"},
		{"кæ", "кае"},
		{"тß", "тss"},
		{"ТM", "тм"},
		{"Тm", "тm"},
		{"Тk", "тк"},
		{long, strings.Repeat("ж", 55) + "о" + strings.Repeat("ж", 4)},
	}
	for _, tt := range tests {
		got := Fold(tt.word)
		if got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.word, got, tt.want)
		}
		if again := Fold(got); again != got {
			t.Errorf("Fold(%q) = %q, but Fold of that is %q", tt.word, got, again)
		}
	}
}

// TestWordsOfPlainTextDoNotAllocate checks that the look for look-alikes
// costs no allocation where there is none: lowercase Russian and English
// words and numbers.
func TestWordsOfPlainTextDoNotAllocate(t *testing.T) {
	text := "поставка медицинских изделий для нужд больницы, covid-19 test kits, 2024"
	allocs := testing.AllocsPerRun(100, func() {
		for range Words(text) {
		}
	})
	if allocs != 0 {
		t.Errorf("Words allocated %v times, want none", allocs)
	}
}

// BenchmarkWords is the cost of splitting and folding alone, where the
// look for look-alikes runs: a Russian tender's title, an English and a
// German notice's.
func BenchmarkWords(b *testing.B) {
	for _, text := range []string{
		"Поставка медицинских изделий для нужд ГБУЗ «Городская клиническая больница № 1» в 2024 году, ОКПД2 32.50.13.190",
		"Supply of medical devices for the City Clinical Hospital No. 1, Lot 2: X-ray equipment and ECG monitors",
		benchGerman,
	} {
		b.Run(text[:6], func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				for range Words(text) {
				}
			}
		})
	}
}

func TestCapitalsInCyrillic(t *testing.T) {
	tests := []struct {
		text, want string
		found      bool
	}{
		{"OOO", "ООО", true},
		{"=TOO,", "=ТОО,", true},
		{"OOO-AO", "ООО-АО", true},
		{"ООО", "ООО", false},
		{"OOO2", "OOO2", false},
		{"HP", "HP", false},
		{"ooo", "ooo", false},
	}
	for _, tt := range tests {
		got, found := CapitalsInCyrillic(tt.text)
		if got != tt.want || found != tt.found {
			t.Errorf("CapitalsInCyrillic(%q) = %q, %v; want %q, %v", tt.text, got, found, tt.want, tt.found)
		}
	}
}

func TestLookAlikeText(t *testing.T) {
	for _, c := range []struct {
		text, want string
		ok         bool
	}{
		{"TC-1", "ТС-1", true},
		{"керосин TC-1", "керосин ТС-1", true},
		{"HP", "НР", true},
		{"mp3", "", false},
		{"Hyundai", "", false},
		{"поставка", "", false},
	} {
		got, ok := LookAlikeText(c.text)
		if got != c.want || ok != c.ok {
			t.Errorf("LookAlikeText(%q) = %q, %v; want %q, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}
