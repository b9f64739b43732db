package textproc

import "testing"

// Texts of the benchmarks: a Russian tender's title, and notices' titles
// in German, in Polish and in Greek, with their diacritics (the Greek
// title is that of eForms notice 00762961-2023).
const (
	benchGerman = "Straßenbauarbeiten und Brückensanierung für die Gemeinde Großröhrsdorf, Los 2: Erdarbeiten, Entwässerung und Fahrbahndecke"
	benchPolish = "Dostawa sprzętu medycznego dla Szpitala Wojewódzkiego w Łodzi, część 3: aparaty rentgenowskie i urządzenia pomiarowe"
	benchGreek  = "Ανοικτός ηλεκτρονικός διαγωνισμός παροχής υπηρεσιών φύλαξης κτιριακών εγκαταστάσεων Πανεπιστημίου Πελοποννήσου"
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

func BenchmarkAnalyzeGreekInGreek(b *testing.B) {
	benchAnalyze(b, benchGreek, LanguageOf("el").Analyze)
}

// BenchmarkKeys is the query's side: the keys of a Latin word in every
// language.
func BenchmarkKeys(b *testing.B) {
	for b.Loop() {
		Keys("strassenbauarbeiten")
	}
}
