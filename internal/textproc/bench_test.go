package textproc

import "testing"

// Texts of the benchmarks: a Russian tender's title, and notices' titles
// in German and in Polish, with their diacritics.
const (
	benchGerman = "Straßenbauarbeiten und Brückensanierung für die Gemeinde Großröhrsdorf, Los 2: Erdarbeiten, Entwässerung und Fahrbahndecke"
	benchPolish = "Dostawa sprzętu medycznego dla Szpitala Wojewódzkiego w Łodzi, część 3: aparaty rentgenowskie i urządzenia pomiarowe"
)

func BenchmarkAnalyzeGermanText(b *testing.B) { benchAnalyze(b, benchGerman, Analyze) }

func BenchmarkAnalyzePolishText(b *testing.B) { benchAnalyze(b, benchPolish, Analyze) }

func benchAnalyze(b *testing.B, text string, analyze func(string) []Token) {
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		analyze(text)
	}
}

func BenchmarkAnalyzeGermanInGerman(b *testing.B) {
	benchAnalyze(b, benchGerman, LanguageOf("de").Analyze)
}

func BenchmarkAnalyzePolishInPolish(b *testing.B) {
	benchAnalyze(b, benchPolish, LanguageOf("pl").Analyze)
}

// BenchmarkKeys is the query's side: the keys of a Latin word in every
// language.
func BenchmarkKeys(b *testing.B) {
	for b.Loop() {
		Keys("strassenbauarbeiten")
	}
}
