package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eforms"
	"github.com/tenderbase/tenderbase/internal/source/ocds"
	"github.com/tenderbase/tenderbase/internal/source/ted"
)

// TestWorldSearchInLanguages imports every published TED, eForms and OCDS
// sample into each store and searches them through world.search as a user
// types: words of the notice's language in another form, and without their
// diacritics. Each query's answer was read off the samples by hand.
func TestWorldSearchInLanguages(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			importWorldSamples(t, store)
			set := New(store, nil)
			for _, tt := range worldLanguageCases {
				t.Run(tt.query, func(t *testing.T) {
					if diff := cmp.Diff(tt.want, worldSearchIDs(t, set, tt.query)); diff != "" {
						t.Errorf("world.search %s (-want +got):\n%s", tt.query, diff)
					}
				})
			}
		})
	}
}

// worldLanguageCases are queries of the published samples and the ids
// they find, sorted. A word that no notice holds is corrected to a word
// that one does within two edits (internal/spelling), so that the forms
// that show a stemmer at work are further from the published ones.
var worldLanguageCases = []struct {
	query string
	want  []string
}{
	{"veitshochheim", []string{"ted:150025-2020"}}, // German, ö typed as o
	{"中油", []string{"ocds:ocid-6as3t2-51180009"}},  // Chinese, a word inside the buyer's name 台灣中油股份有限公司探採事業部
	{"事業部", []string{"ocds:ocid-6as3t2-51180009"}}, // three characters: the phrase of their two pairs
	{"φαρμακων", []string{"eforms:00497181-2023"}}, // Greek φαρμάκων typed without its accent
	{"ΦΑΡΜΆΚΩΝ", []string{"eforms:00497181-2023"}},
	{"φαρμακο", []string{"eforms:00497181-2023"}},             // φαρμάκων: Greek is stemmed
	{"ετικετα", []string{"eforms:00497181-2023"}},             // ετικετών
	{"υπηρεσια", []string{"eforms:00762961-2023"}},            // ΥΠΗΡΕΣΙΩΝ, υπηρεσιών
	{"εγκατασταση", []string{"eforms:00762961-2023"}},         // ΕΓΚΑΤΑΣΤΑΣΕΩΝ
	{"φυλάξεων", []string{"eforms:00762961-2023"}},            // ΦΥΛΑΞΗΣ, φύλαξης
	{"\"υπηρεσια φυλαξη\"", []string{"eforms:00762961-2023"}}, // ΥΠΗΡΕΣΙΩΝ ΦΥΛΑΞΗΣ, a phrase
	{"Sportplatzbauarbeit", []string{"ted:150025-2020"}},      // German stem of Sportplatzbauarbeiten
	{"sportplatzbauarbeiten", []string{"ted:150025-2020"}},
	{"oko strom", []string{"eforms:00657565-2023"}},
	{"=öko", []string{"eforms:00657565-2023"}},                                                        // the exact form, folded
	{"lieferungen", []string{"eforms:00657565-2023", "eforms:00660155-2023", "eforms:00731596-2023"}}, // Lieferung, in German or within a German notice
	{"swiadczenie", []string{"eforms:00665175-2023", "eforms:00740217-2023"}},
	{"\"swiadczenie uslug\"", []string{"eforms:00665175-2023", "eforms:00740217-2023"}}, // Świadczenie usługi, świadczenie usług: Polish is stemmed
	{"zolnierzy", []string{"eforms:00665175-2023"}},                                     // ż typed as z
	{"żołnierzami", []string{"eforms:00665175-2023"}},                                   // żołnierzy
	{"uslug", polishUslug}, // usług, usługi, Usługa
	{"usluga", polishUslug},
	{"usługami", polishUslug},
	{"=usluga", []string{"eforms:00665175-2023"}}, // the exact form is not stemmed
	{"dostawy", []string{"eforms:00739962-2023", "eforms:00740039-2023", "eforms:00741690-2023", "eforms:00745916-2023", "ted:097985-2019"}},                                                         // Dostawa, dostawy
	{"zamowienie", []string{"eforms:00671040-2023", "eforms:00739962-2023", "eforms:00740039-2023", "eforms:00740217-2023", "eforms:00741690-2023", "eforms:00745916-2023", "eforms:00746475-2023"}}, // zamówienia
	{"czesc", []string{"eforms:00665175-2023", "eforms:00671040-2023", "eforms:00739962-2023", "eforms:00740039-2023", "eforms:00740217-2023", "eforms:00745916-2023"}},                              // część, części, częścią
	{"energia", []string{"eforms:00536143-2023", "eforms:00701354-2023", "eforms:00741690-2023"}},                                                                                                    // Polish Energii; Finnish Energia, Swedish Energi
	{"wyroby", []string{"eforms:00739962-2023"}},                                                         // wyrobów
	{"medyczny", []string{"eforms:00739962-2023", "eforms:00740217-2023", "eforms:00741690-2023"}},       // medycznych, Medycznego, Medyczny
	{"medycyna", []string{"eforms:00740217-2023"}},                                                       // medycyny, not medycznych
	{"kultura", []string{"eforms:00671040-2023", "eforms:00746475-2023"}},                                // Kultury
	{"delegation", []string{"ocds:ocds-b5fd17-2c470411-adc8-11e6-9901-0019b9f3037b", "ted:315003-2019"}}, // French Délégation; English delegate
	{"delegations", []string{"ocds:ocds-b5fd17-2c470411-adc8-11e6-9901-0019b9f3037b", "ted:315003-2019"}},
	{"ministere", []string{"eforms:00643121-2023"}},
	{"travaux", []string{"eforms:00547700-2023", "eforms:00643121-2023", "ted:404080-2018"}},
	{"arrendamientos", []string{"ocds:OCDS-87SD3T-AD-SF-DRM-069-2015", "ocds:OCDS-87SD3T-SEFIN-DRM-A-006-2016", "ocds:PC-0025"}},
	{"informaticos", []string{"ocds:OCDS-87SD3T-AD-SF-DRM-069-2015"}}, // INFORMÁTICOS
	{"adquisicion", []string{"ocds:ocds-03ad3f-274231", "ocds:ocds-03ad3f-274744"}},
	{"\"secretaria de finanzas\"", []string{"ocds:OCDS-87SD3T-AD-SF-DRM-069-2015", "ocds:OCDS-87SD3T-SEFIN-DRM-A-006-2016"}}, // SECRETARÍA DE FINANZAS, a phrase
	{"ampliacion", []string{"ocds:ocds-03ad3f-280555", "ocds:ocds-03ad3f-283826"}},
	{"\"centralni zdroj chladu\"", []string{"ted:352444-2021"}}, // Czech, folded only
	{"kedelanlaeg", []string{"ted:354823-2021"}},                // Danish kedelanlæg: æ is ae
	{"fjernvarme", []string{"eforms:00665431-2023", "ted:354823-2021"}},
	{"umea", []string{"eforms:00701354-2023"}},                                                                                                     // Swedish Umeå
	{"amari", []string{"eforms:00302062-2023"}},                                                                                                    // Estonian Ämari
	{"timisoara", []string{"eforms:00775348-2023", "ted:141318-2018"}},                                                                             // Timișoara with a comma below, and Timisoara
	{"hankinta", []string{"eforms:00536143-2023", "eforms:00544961-2023", "eforms:00574413-2023", "eforms:00583624-2023", "eforms:00615708-2023"}}, // Finnish hankintaa, hankinnan... by their stem
	{"fattibilita", []string{"eforms:00675564-2023"}},                                                                                              // Italian Fattibilità
	{"servizio", []string{"eforms:00158253-2023", "eforms:00650276-2023", "eforms:00783461-2023"}},
	{"ferroviario", []string{"ted:267307-2022"}},                    // Portuguese FERROVIÁRIO
	{"вироби", []string{"ocds:ocds-be6bcu-UA-2017-01-31-001299-b"}}, // Ukrainian, by its Russian stem
}

// polishUslug are the Polish notices with a form of usługa (service):
// Usługa, usługi, usług.
var polishUslug = []string{"eforms:00665175-2023", "eforms:00671040-2023", "eforms:00740217-2023", "eforms:00741690-2023", "eforms:00746475-2023"}

// importWorldSamples imports every published TED, eForms and OCDS sample
// into store, or skips the test when the shared data folder is absent.
func importWorldSamples(t *testing.T, store tenderbase.Store) importer.Summary {
	t.Helper()
	dirs := []string{filepath.Join(sharedData, "ted-xml"), filepath.Join(sharedData, "eforms"), filepath.Join(sharedData, "ocds")}
	sum, err := importer.Import(context.Background(), store, dirs,
		importer.Options{Decoders: []importer.Decoder{ted.Format{}, eforms.Format{}, ocds.Format{}}})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if sum.Files == 0 {
		t.Skipf("no published world notice under %s: the shared data folder is not beside this checkout", sharedData)
	}
	return sum
}

// worldSearchIDs returns the sorted ids of the notices world.search finds.
func worldSearchIDs(t *testing.T, set *Set, q string) []string {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"query": q})
	res, _ := decodeCall[struct {
		Items []struct{ ID string } `json:"items"`
	}](t, set, tenderbase.PlanCorporate, "world.search", string(args))
	var ids []string
	for _, it := range res.Items {
		ids = append(ids, it.ID)
	}
	slices.Sort(ids)
	return ids
}
