package storetest

import (
	"strings"
	"testing"
	"unicode"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Keys of the records of LanguageRecords, each in the language it is named
// by, newest first.
const (
	wEnglish = "ocds:ocds-b5fd17-language-en"
	wGerman  = "ted:100001-2024"
	wFrench  = "ted:100002-2024"
	wPolish  = "eforms:100003-2024"
	// The Lithuanian and Greek titles are those of TED notice 318420-2019
	// in its Lithuanian translation and 141127-2018 in its Greek one
	// (ML_TI_DOC of the TED EXP files), there being no notice published
	// in Lithuanian among the samples.
	wLithuanian = "ted:100004-2024"
	wGreek      = "eforms:100005-2024"
	wRussian    = "ocds:ocds-language-ru"
	tSkoda      = "0373100000124000777" // a Russian tender with a Latin brand name
)

// LanguageRecords returns world tenders in English, German, French, Polish,
// Lithuanian, Greek and Russian, and a Russian tender whose text has a Latin word with a
// diacritic, which the Languages part of the suite searches.
func LanguageRecords() []tenderbase.Record {
	world := func(id, lang, title, description, buyer string, d int) *tenderbase.WorldTender {
		return &tenderbase.WorldTender{ID: id, Source: strings.Split(id, ":")[0], Language: lang, Title: title,
			Description: description, Buyer: tenderbase.Party{Name: buyer}, PublishedAt: day(d)}
	}
	return []tenderbase.Record{
		world(wRussian, "ru", "Поставка медицинских изделий", "", "ГБУЗ Городская больница № 1", 1),
		world(wPolish, "pl", "Dostawa samochodów Škoda dla Urzędu Miasta Łodzi", "", "Urząd Miasta Łodzi", 2),
		world(wFrench, "fr", "Travaux d'entretien des bâtiments scolaires", "", "Ville de Besançon", 3),
		world(wGerman, "de", "Straßenbauarbeiten Großröhrsdorf", "Erneuerung der Fahrbahndecke und Brückensanierung",
			"Gemeinde Großröhrsdorf", 4),
		world(wEnglish, "en", "Cleaning services for council buildings", "Provision of cleaning services",
			"Borough Council of King's Lynn", 5),
		&tenderbase.Tender{PurchaseNumber: tSkoda, Law: "44", Version: 1, Title: "Поставка автомобилей Škoda Octavia",
			Customer: tenderbase.Party{INN: "7701000001", Name: "ГБУ Автобаза"}, Region: 77, PublishedAt: day(6)},
		world(wLithuanian, "lt", "Parodų, mugių ir kongresų organizavimo paslaugos", "", "", 7),
		world(wGreek, "el", "Υπηρεσίες επαλήθευσης του σχεδιασμού φερουσών δομών", "", "", 8),
	}
}

// languageCase is a search of records of kind and the keys it finds.
type languageCase struct {
	kind  tenderbase.Kind
	query string
	want  []string
}

// languageCases are searches of LanguageRecords as users of each language
// type them: words in other forms, with and without diacritics, exact
// forms and phrases.
func languageCases() []languageCase {
	world, tenders := tenderbase.KindWorldTender, tenderbase.KindTender
	return []languageCase{
		{world, "service", []string{wEnglish}},
		{world, "Buildings", []string{wEnglish}},
		{world, `"cleaning service"`, []string{wEnglish}},
		{world, `"services cleaning"`, nil},
		{world, "Straßenbauarbeiten", []string{wGerman}},
		{world, "strassenbauarbeit", []string{wGerman}},
		{world, "=strassenbauarbeiten", []string{wGerman}},
		{world, "=strassenbauarbeit", nil},
		{world, "grossrohrsdorf", []string{wGerman}},
		{world, "=Großröhrsdorf", []string{wGerman}},
		{world, `"erneuerung der fahrbahndecke"`, []string{wGerman}},
		{world, `"=erneuerung der fahrbahndecke"`, []string{wGerman}},
		{world, "batiment", []string{wFrench}},
		{world, "bâtiments", []string{wFrench}},
		{world, "besancon", []string{wFrench}},
		{world, `"entretien des batiments"`, []string{wFrench}},
		{world, `"entretien batiments"`, nil},
		{world, "skoda", []string{wPolish}},
		{world, "=Škoda", []string{wPolish}},
		{world, "lodzi", []string{wPolish}},
		{world, "=łodzi", []string{wPolish}},
		{world, "lodz", []string{wPolish}}, // Łodzi: Polish is stemmed
		{world, "=lodz", nil},
		{world, "miasto", []string{wPolish}},
		{world, "samochod", []string{wPolish}},
		{world, `"dostawy samochodu"`, []string{wPolish}},
		{world, "paslauga", []string{wLithuanian}},
		{world, "organizavimas", []string{wLithuanian}},
		{world, `"kongresu organizavimo paslaugu"`, []string{wLithuanian}},
		{world, "=paslauga", nil},
		{world, "υπηρεσια", []string{wGreek}},
		{world, "ΣΧΕΔΙΑΣΜΟΣ", []string{wGreek}},
		{world, `"υπηρεσιών επαλήθευσης"`, []string{wGreek}},
		{world, "σχεδιο", nil}, // a plan is not a design
		{world, `"samochodow skoda"`, []string{wPolish}},
		{world, `"=samochodów Škoda"`, []string{wPolish}},
		{world, "поставки", []string{wRussian}},
		{world, `"медицинское изделие"`, []string{wRussian}},
		{world, "service | travaux", []string{wEnglish, wFrench}},
		{world, "gemeinde !skoda", []string{wGerman}},
		{world, `miasta !"samochodow skoda"`, nil},
		{tenders, "автомобиль", []string{tSkoda}},
		{tenders, "skoda", []string{tSkoda}},
		{tenders, "octavias", []string{tSkoda}},
	}
}

// CheckLanguages runs the searches of the Languages part of the suite
// against st, which holds LanguageRecords, however they came there: a
// store test also runs them on a database it made in an older layout.
func CheckLanguages(t *testing.T, st tenderbase.Store) {
	checkCases(t, st, LanguageRecords(), languageCases())
}

// checkCases runs each search of cases against st, which holds records,
// as a subtest named by its query.
func checkCases(t *testing.T, st tenderbase.Store, records []tenderbase.Record, cases []languageCase) {
	c := &corpusStore{st: st, records: records}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			c.check(t, tenderbase.Search{Kind: tc.kind, Query: mustParse(t, tc.query, query.MCP)}, tc.want...)
		})
	}
}

// UnfoldedFields analyzes the search texts of r as every store did before
// texts were analyzed in their language and Latin letters folded: each word
// lowercased, ё folded to е, and keyed in the Default language. A store
// test writes them to make a database of that layout.
func UnfoldedFields(r tenderbase.Record) [][]textproc.Token {
	var fields [][]textproc.Token
	for _, text := range tenderbase.MatchedText(r, false) {
		var toks []textproc.Token
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			form := strings.ReplaceAll(strings.ToLower(w), "ё", "е")
			toks = append(toks, textproc.Token{Form: form, Stem: textproc.Stem(form)})
		}
		fields = append(fields, toks)
	}
	return fields
}
