package textproc

import (
	"testing"
)

// The word families of the light stemmers' tests are words of published
// notices in ../shared/data: the Polish eForms notices (00665175-2023,
// 00740217-2023, 00741690-2023, 00746475-2023, 00671040-2023,
// 00739962-2023, 00745916-2023) and TED notice 097985-2019; the Greek
// eForms notices 00762961-2023 and 00497181-2023 and the Greek titles of
// the TED EXP files (ML_TI_DOC LG="EL"); the Lithuanian titles and names
// of the TED EXP files (ML_TI_DOC, ML_AA_NAME LG="LT"), there being no
// notice in Lithuanian among the samples. Beside them stand the forms a
// reader types: without diacritics, in capitals, in the nominative.

// lightStemCases are, for each language, the families whose words must
// meet under one key, and the pairs of words that must not: words of
// other meanings that begin alike.
var lightStemCases = []struct {
	lang     string
	families [][]string
	apart    [][2]string
}{
	{
		lang: "pl",
		families: [][]string{
			{"usługa", "usług", "usługi", "usługę", "usługach", "usluga", "uslug", "uslugami", "USŁUGI"},
			{"świadczenie", "świadczenia", "świadczeniu", "świadczeniem", "swiadczenie", "świadczeń"},
			{"zamówienie", "zamówienia", "zamówieniu", "zamówień", "zamowien", "zamowienia"},
			{"dostawa", "dostawy", "dostawę", "dostaw", "DOSTAWA"},
			{"oferta", "oferty", "ofert", "ofertę", "ofertą"},
			{"wykonawca", "wykonawcy", "wykonawców", "wykonawcę", "wykonawcą", "wykonawcow"},
			{"konkurs", "konkursu", "konkursem", "konkursie"},
			{"część", "części", "częścią", "czesc", "czesci"},
			{"budowa", "budowy", "budowę"},
			{"roboty", "robót", "robot"},
			{"transport", "transportu"},
			{"Warszawa", "Warszawie"},
			{"Warszawski", "Warszawskiego"},
			{"energia", "energii", "energię"},
			{"żołnierzy", "żołnierz", "zolnierzy"},
			{"medycznych", "medycznej", "medyczny", "medycznego", "medycznymi"},
			{"Łodzi", "Łódź", "lodz"},
			{"pracowników", "pracownik", "pracownikami"},
			{"panowie", "panów", "panami"},
		},
		apart: [][2]string{
			{"dostawa", "dostawców"},        // delivery, suppliers
			{"zamówienia", "zamawiającego"}, // order, contracting authority
			{"pracy", "pracowników"},        // work, employees
			{"medycyny", "medycznych"},      // medicine, medical
			{"budowa", "budowlane"},         // construction, building (adjective)
			{"wykonawca", "wykonania"},      // contractor, performance
			{"dla", "dl"},                   // a short word keeps its letters
		},
	},
	{
		lang: "lt",
		families: [][]string{
			{"paslaugos", "paslaugų", "paslauga", "paslaugas", "paslaugomis", "paslaugose", "paslaugu"},
			{"darbai", "darbų", "darbas", "darbus"},
			{"statybos", "statyba", "statybą", "statybose"},
			{"autobusai", "autobusas", "autobusų", "autobusus"},
			{"kelio", "kelias", "keliai", "kelių", "kelyje"},
			{"mėsa", "mėsos", "mesos"},
			{"produktai", "produktų", "produktas"},
			{"organizavimo", "organizavimas", "organizavimą"},
			{"kūrimas", "kūrimo", "kurimas"},
			{"tiekimas", "tiekimo", "tiekimui"},
			{"Sąjungos", "sąjunga", "sajungos"},
			{"kibernetinio", "kibernetinis", "kibernetinė"},
			{"autorių", "autorius", "autoriai"},
			{"Teisinės", "teisinė", "teisinių"},
			{"tolimojo", "tolimas", "tolimo"},
			{"Vilnius", "Vilniaus", "Vilniuje", "Vilniumi"},
			{"skaičius", "skaičiaus", "skaičių", "skaičiumi", "skaičiuje"},
			{"autoriaus", "autorius", "autoriumi"},
		},
		apart: [][2]string{
			{"susijusios", "susisiekimo"},     // related, transport
			{"organizavimo", "organizacijos"}, // organising, organisation
			{"kilmės", "kilimas"},             // origin, carpet
			{"darbai", "darbuotojai"},         // works, employees
			{"tiekimas", "tiekėjas"},          // supply, supplier
			{"ir", "irgi"},                    // and, also
		},
	},
	{
		lang: "el",
		families: [][]string{
			{"υπηρεσίες", "υπηρεσιών", "ΥΠΗΡΕΣΙΩΝ", "υπηρεσια", "υπηρεσίας"},
			{"φαρμάκων", "ΦΑΡΜΑΚΩΝ", "φάρμακα", "φαρμακο"},
			{"σύμβαση", "σύμβασης", "συμβάσεων", "ΣΥΜΒΑΣΕΩΝ", "συμβασεις"},
			{"εγκαταστάσεις", "εγκαταστάσεων", "ΕΓΚΑΤΑΣΤΑΣΕΩΝ", "εγκατασταση"},
			{"φύλαξης", "ΦΥΛΑΞΗΣ", "φυλαξη"},
			{"πανεπιστημίου", "ΠΑΝΕΠΙΣΤΗΜΙΟ", "ΠΑΝΕΠΙΣΤΗΜΙΟΥ", "πανεπιστημια"},
			{"κτιρίων", "ΚΤΙΡΙΟ", "κτίρια", "κτιριου"},
			{"οικονομικοί", "οικονομική", "οικονομικές", "οικονομικούς", "οικονομικού", "οικονομικος"},
			{"εργασίες", "εργασιών", "εργασια"},
			{"μήνες", "μηνών", "μήνα"},
			{"τεμάχια", "τεμαχίων", "τεμάχιο"},
			{"Τρίπολης", "ΤΡΙΠΟΛΗ", "τριπολη"},
			{"παροχή", "ΠΑΡΟΧΗΣ", "παροχης"},
			{"πόλεις", "πόλης", "πολη"},
			{"ανάθεση", "ανάθεσης", "αναθεσεις"},
			{"αρχής", "αρχές", "αρχη"},
			{"ΔΙΑΓΩΝΙΣΜΟΣ", "διαγωνισμού", "διαγωνισμοι"},
			{"ΣΥΣΤΗΜΑΤΩΝ", "σύστημα", "συστήματα", "συστήματος"},
			{"Κατασκευαστικές", "κατασκευαστική", "κατασκευαστικων"},
		},
		apart: [][2]string{
			{"φαρμάκων", "φαρμακοβιομηχανίας"}, // medicines, pharmaceutical industry
			{"ΚΤΙΡΙΟ", "κτιριακών"},            // building, of buildings (adjective)
			{"οικονομικοί", "ΟΙΚΟΝΟΜΙΑΣ"},      // economic, economy
			{"ανάθεση", "αναθέτουσας"},         // award, contracting
			{"της", "τη"},      // a short word keeps its letters
			{"πόλεις", "πολύ"}, // cities, much
		},
	},
}

// TestLightStemmers checks that each family of words of the published
// notices meets under one key in its language's analysis, and that words
// of other meanings keep apart.
func TestLightStemmers(t *testing.T) {
	for _, tc := range lightStemCases {
		lang := LanguageOf(tc.lang)
		key := func(w string) string { return lang.Key(Fold(w)) }
		for _, family := range tc.families {
			want := key(family[0])
			for _, w := range family[1:] {
				if got := key(w); got != want {
					t.Errorf("%s: %q is keyed %q, %q %q", tc.lang, w, got, family[0], want)
				}
			}
		}
		for _, p := range tc.apart {
			if a, b := key(p[0]), key(p[1]); a == b {
				t.Errorf("%s: %q and %q meet under %q", tc.lang, p[0], p[1], a)
			}
		}
	}
}

// TestGreekStemInEveryLanguage checks that a Greek word has its Greek key
// whatever the language of its text, as a Cyrillic word has its Russian
// one, so that a query, which does not know the language, needs one key.
func TestGreekStemInEveryLanguage(t *testing.T) {
	want := LanguageOf("el").Key(Fold("υπηρεσιών"))
	if want == Fold("υπηρεσιών") {
		t.Fatalf("υπηρεσιών is not stemmed: %q", want)
	}
	for _, l := range Languages() {
		if got := l.Key(Fold("υπηρεσιών")); got != want {
			t.Errorf("%s: υπηρεσιών is keyed %q, want %q", l, got, want)
		}
	}
	if keys := Keys(Fold("υπηρεσίες")); len(keys) != 1 || keys[0] != want {
		t.Errorf("keys of υπηρεσίες: %q, want [%q]", keys, want)
	}
}

// TestLightStemKeysApart checks that a Polish or Lithuanian key never
// meets another language's key of the same word.
func TestLightStemKeysApart(t *testing.T) {
	pl, lt := LanguageOf("pl"), LanguageOf("lt")
	if pl == FoldedOnly || lt == FoldedOnly || pl == lt {
		t.Fatalf("Polish is %s, Lithuanian %s: want analyses of their own", pl, lt)
	}
	for _, l := range Languages() {
		if l != pl && l.Key("uslugi") == pl.Key("uslugi") {
			t.Errorf("%s keys uslugi as Polish does: %q", l, l.Key("uslugi"))
		}
		if l != lt && l.Key("paslaugos") == lt.Key("paslaugos") {
			t.Errorf("%s keys paslaugos as Lithuanian does: %q", l, l.Key("paslaugos"))
		}
	}
}
