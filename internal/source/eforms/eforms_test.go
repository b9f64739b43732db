package eforms

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/sourcetest"
)

// decodeFile reads the notice of a file.
func decodeFile(t *testing.T, path string) *tenderbase.WorldTender {
	t.Helper()
	recs, errs := sourcetest.DecodeFile(t, Format{}, path)
	return sourcetest.OneWorldTender(t, recs, errs)
}

func fixture(t *testing.T, name string) *tenderbase.WorldTender {
	t.Helper()
	return decodeFile(t, filepath.Join("testdata", name))
}

// day reads an eForms date with its zone.
func day(s string) time.Time {
	v, err := time.Parse("2006-01-02Z07:00", s)
	if err != nil {
		panic(err)
	}
	return v
}

func lotIDs(w *tenderbase.WorldTender) []string {
	var ids []string
	for _, l := range w.Lots {
		ids = append(ids, l.ID)
	}
	return ids
}

// TestAwards reads the results of award notices: per lot and contract the
// winners, the value awarded, the range and number of the tenders and the
// dates, beside the notice's total awarded and the estimate it repeats.
func TestAwards(t *testing.T) {
	hegeman := tenderbase.WorldWinner{Name: "Hegeman Bouw & Infra B.V.", ID: "70248311", IDScheme: "002", Country: 528, Town: "Nijverdal"}
	astrazeneca := tenderbase.WorldWinner{Name: "Astrazeneca Kft.", ID: "PL5263446902", Country: 348, Town: "Budapest"}
	for _, tc := range []struct {
		file                string
		estimate, total     float64
		estimateCur, totCur string
		awards              []tenderbase.WorldAward
	}{{
		// one lot, one contract; the count of electronic tenders (t-esubm)
		// is not the number of tenders received
		file: "can-29-00191536-2024.xml", estimate: 7_000_000, estimateCur: "EUR", total: 3_887_000, totCur: "EUR",
		awards: []tenderbase.WorldAward{{
			LotID: "LOT-0000", ContractID: "219964", Awarded: true, Status: "selec-w",
			Title:   "Reparatie vloeren en optimaliseren technische installatie van het hoofdkantoor van Waterschap Rivierenland te Tiel",
			Winners: []tenderbase.WorldWinner{hegeman}, Value: 3_887_000, Currency: "EUR", AwardDate: day("2024-02-14+01:00"),
		}},
	}, {
		// one contract concluded on two lots, each won by its own tender
		file: "can-29-00215550-2024.xml", estimate: 167_733_600, estimateCur: "PLN", total: 14_543_415.48, totCur: "PLN",
		awards: []tenderbase.WorldAward{{
			LotID: "LOT-0001", ContractID: "umowa nr 39/XXII/2023", Title: "dostawa produktów leczniczych", Awarded: true, Status: "selec-w",
			Winners: []tenderbase.WorldWinner{astrazeneca}, Value: 5797.2, Currency: "PLN",
			AwardDate: day("2024-01-18+01:00"), ContractDate: day("2024-01-30+01:00"),
		}, {
			LotID: "LOT-0002", ContractID: "umowa nr 39/XXII/2023", Title: "dostawa produktów leczniczych", Awarded: true, Status: "selec-w",
			Winners: []tenderbase.WorldWinner{astrazeneca}, Value: 2_144_443.98, Currency: "PLN",
			AwardDate: day("2024-01-18+01:00"), ContractDate: day("2024-01-30+01:00"),
		}},
	}, {
		// lots with the range of their tenders; one not awarded, only one
		// tender being admissible; counts without a submission type are
		// not the tenders received
		file: "can-29-00611835-2024.xml",
		awards: []tenderbase.WorldAward{{
			LotID: "LOT-0001", ContractID: "DVIT LOT1-4-6", Awarded: true, Status: "selec-w",
			Winners: []tenderbase.WorldWinner{{Name: "DVIT", ID: "0461145522", Country: 56, Town: "9420 - Erpe-Mere"}},
			Value:   4535.88, Currency: "EUR", LowestTender: 4535.88, HighestTender: 41_880, ContractDate: day("2024-10-07+02:00"),
		}, {
			LotID: "LOT-0002", ContractID: "3DC-ICT LOT2-3", Awarded: true, Status: "selec-w",
			Winners: []tenderbase.WorldWinner{{Name: "3D-ICT", ID: "0898973234", Country: 56, Town: "2000 - Antwerpen"}},
			Value:   447.97, Currency: "EUR", LowestTender: 447.97, HighestTender: 448.74, ContractDate: day("2024-10-07+02:00"),
		}, {
			LotID: "LOT-0005", Awarded: false, Status: "one-admis", Currency: "EUR", LowestTender: 16_050, HighestTender: 16_050,
		}},
	}, {
		// two contracts on one lot, one of them with a group of two
		// tenderers; sizes; tenders received and those of SMEs; a lot
		// whose tenders were all rejected
		file: "can-24-sdk-maximal.xml", estimate: 9_999_999.99, estimateCur: "EUR", total: 9_999_999.99, totCur: "EUR",
		awards: []tenderbase.WorldAward{{
			LotID: "LOT-0001", ContractID: "REF RST-678", Title: "This is the title of the contract ---", Awarded: true, Status: "selec-w",
			Winners: []tenderbase.WorldWinner{
				{Name: "Gyro Soft SA", ID: "927384203", Country: 442, Town: "Luxembourg", Size: "large"},
				{Name: "The best App Ltd.", ID: "928374653", Country: 276, Town: "Frankfurt", SME: true, Size: "micro"},
			},
			Value: 9_999_999.99, Currency: "EUR", TendersReceived: 9, TendersSME: 1,
			AwardDate: day("2023-03-23+02:00"), ContractDate: day("2023-03-24+02:00"),
		}, {
			LotID: "LOT-0001", ContractID: "KLM FGH/912", Title: "Title of second contract ---", Awarded: true, Status: "selec-w",
			Winners: []tenderbase.WorldWinner{{Name: "Competitor", ID: "1223456789", Country: 250, Town: "Paris", Size: "large"}},
			Value:   9_999_999.99, Currency: "EUR", TendersReceived: 9, TendersSME: 1,
			AwardDate: day("2023-03-23+02:00"), ContractDate: day("2023-03-24+02:00"),
		}, {
			LotID: "LOT-0002", Awarded: false, Status: "all-rej", Currency: "EUR",
			LowestTender: 999_999.99, HighestTender: 9_999_999.99, TendersReceived: 1,
		}},
	}} {
		t.Run(tc.file, func(t *testing.T) {
			w := fixture(t, tc.file)
			if w.AwardedValue != tc.total || w.AwardedCurrency != tc.totCur {
				t.Errorf("awarded %v %s, want %v %s", w.AwardedValue, w.AwardedCurrency, tc.total, tc.totCur)
			}
			if w.Value != tc.estimate || w.Currency != tc.estimateCur {
				t.Errorf("estimate %v %s, want %v %s", w.Value, w.Currency, tc.estimate, tc.estimateCur)
			}
			if diff := cmp.Diff(tc.awards, w.Awards, cmpopts.EquateApproxTime(0)); diff != "" {
				t.Errorf("awards (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAwardsFindWinners checks that an award notice's winners are found by
// their national id.
func TestAwardsFindWinners(t *testing.T) {
	w := fixture(t, "can-29-00191536-2024.xml")
	want := []tenderbase.Lookup{{Field: tenderbase.LookupWinnerID, Value: "70248311"}}
	if diff := cmp.Diff(want, w.Lookups()); diff != "" {
		t.Errorf("lookups (-want +got):\n%s", diff)
	}
}

// TestNotice reads what every notice has, as the fixtures publish it: the
// lots without the groups of lots, the address on TED, titles on one line,
// the buyer named in the notice's language.
func TestNotice(t *testing.T) {
	for _, tc := range []struct {
		file      string
		url       string
		lots      []string
		title     string
		lotTitles []string
		buyer     string
		documents []tenderbase.Attachment
	}{{
		file: "can-29-00191536-2024.xml", url: "https://ted.europa.eu/en/notice/-/detail/191536-2024", lots: []string{"LOT-0000"},
		title: "Reparatie vloeren en optimaliseren technische installatie van het hoofdkantoor van Waterschap Rivierenland te Tiel (Tender 219964 NX3)",
		buyer: "Waterschap Rivierenland",
		// the buyer profile, no longer the url, is kept as a document
		documents: []tenderbase.Attachment{{URL: "https://s2c.mercell.com/buyer/3989", Description: "buyer profile"}},
	}, {
		// names in French, then in Dutch, each in a cac:PartyName of its own
		file: "can-29-00611835-2024.xml", url: "https://ted.europa.eu/en/notice/-/detail/611835-2024",
		lots: []string{"LOT-0001", "LOT-0002", "LOT-0005"}, buyer: "Consumentenombudsdienst",
		title: "Bestek met betrekking tot ICT-diensten : Raamovereenkomst voor 4 ombudsdiensten",
	}, {
		// a group of lots (GLO-0008) gathering four for their award criteria
		file: "cn-18-00665175-2023.xml", url: "https://ted.europa.eu/en/notice/-/detail/665175-2023",
		lots: []string{"LOT-0001", "LOT-0002"}, buyer: "32 Wojskowy Oddział Gospodarczy w Zamościu",
		documents: []tenderbase.Attachment{
			{URL: "https://portal.smartpzp.pl/32wog", Description: "non-restricted-document"},
			{URL: "www.32wog.wp.mil.pl", Description: "buyer profile"},
		},
	}, {
		// titles broken over lines as typed in the buyer's form
		file: "cn-21-00740217-2023.xml", url: "https://ted.europa.eu/en/notice/-/detail/740217-2023",
		lots: []string{"LOT-0001", "LOT-0011"}, buyer: "Poczta Polska S.A.",
		title: "Świadczenie usług medycznych dla pracowników PP S.A. na terenie woj. podkarpackiego- 10 części",
		lotTitles: []string{
			"Świadczenie usług medycznych z zakresu medycyny pracy dla pracowników Poczty Polskiej S.A. przez placówki medycyny pracy zlokalizowane w Rzeszowie-część 1.",
		},
		documents: []tenderbase.Attachment{
			{URL: "https://portal.smartpzp.pl/poczta-polska/public/postepowanie?postepowanie=56832216", Description: "non-restricted-document"},
			{URL: "https://www.poczta-polska.pl", Description: "buyer profile"},
		},
	}, {
		// an example never published has no address on TED: the buyer
		// profile is its url; the group GLO-0001 is no lot
		file: "can-24-sdk-maximal.xml", url: "https://profile.example.com", lots: []string{"LOT-0001", "LOT-0002"},
		title: "Procurement Title ---",
	}} {
		t.Run(tc.file, func(t *testing.T) {
			w := fixture(t, tc.file)
			if w.URL != tc.url {
				t.Errorf("url %q, want %q", w.URL, tc.url)
			}
			if diff := cmp.Diff(tc.lots, lotIDs(w)); diff != "" {
				t.Errorf("lots (-want +got):\n%s", diff)
			}
			if tc.title != "" && w.Title != tc.title {
				t.Errorf("title %q, want %q", w.Title, tc.title)
			}
			for i, title := range tc.lotTitles {
				if w.Lots[i].Title != title {
					t.Errorf("lot %d title %q, want %q", i, w.Lots[i].Title, title)
				}
			}
			if tc.buyer != "" && w.Buyer.Name != tc.buyer {
				t.Errorf("buyer %q, want %q", w.Buyer.Name, tc.buyer)
			}
			if diff := cmp.Diff(tc.documents, w.Documents, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("documents (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"zlokalizowane \nw Rzeszowie": "zlokalizowane w Rzeszowie",
		"podkarpackiego-\n10 części":  "podkarpackiego- 10 części",
		"rivolti ai \r\n\t\tminori":   "rivolti ai minori",
		"ikääntyneille  (kohde A)":    "ikääntyneille  (kohde A)", // spaces alone as published
		"hankinta\t/ upphandling":     "hankinta / upphandling",
		"Lieferung von Öko-Strom":     "Lieferung von Öko-Strom",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTEDPage(t *testing.T) {
	for in, want := range map[string]string{
		"00309890-2023":                        "https://ted.europa.eu/en/notice/-/detail/309890-2023",
		"00001505-2024":                        "https://ted.europa.eu/en/notice/-/detail/1505-2024",
		"762961-2023":                          "https://ted.europa.eu/en/notice/-/detail/762961-2023",
		"":                                     "",
		"00000000-2024":                        "",
		"15377ca1-6cf7-4060-90f0-9290128957a3": "",
	} {
		if got := tedPage(in); got != want {
			t.Errorf("tedPage(%q) = %q, want %q", in, got, want)
		}
	}
}

// sharedSamples returns the published notices of ../shared/data/eforms, or
// skips when they are absent.
func sharedSamples(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "shared", "data", "eforms", "*", "*.xml"))
	if len(files) == 0 {
		t.Skip("no published eForms samples in ../shared/data/eforms")
	}
	return files
}

// TestSharedSamples reads every published sample: no group of lots among
// the lots, no line break in a title, the address on TED of every
// published notice; and a few notices checked by hand.
func TestSharedSamples(t *testing.T) {
	byID := map[string]*tenderbase.WorldTender{}
	for _, path := range sharedSamples(t) {
		w := decodeFile(t, path)
		byID[w.ID] = w
		titles := []string{w.Title}
		for _, l := range w.Lots {
			titles = append(titles, l.Title)
			if strings.HasPrefix(l.ID, "GLO-") {
				t.Errorf("%s: group of lots %s among the lots", w.ID, l.ID)
			}
		}
		for _, title := range titles {
			if strings.ContainsAny(title, "\n\r\t") {
				t.Errorf("%s: title %q has a line break", w.ID, title)
			}
		}
		num := strings.TrimPrefix(w.ID, "eforms:")
		if want := "https://ted.europa.eu/en/notice/-/detail/" + strings.TrimLeft(num, "0"); w.URL != want {
			t.Errorf("%s: url %q, want %q", w.ID, w.URL, want)
		}
	}
	if w := byID["eforms:00665175-2023"]; w != nil && len(w.Lots) != 4 {
		t.Errorf("eforms:00665175-2023: lots %v, want the four of group GLO-0008", lotIDs(w))
	}
	if w := byID["eforms:00740217-2023"]; w != nil && w.Title != "Świadczenie usług medycznych dla pracowników PP S.A. na terenie woj. podkarpackiego- 10 części" {
		t.Errorf("eforms:00740217-2023: title %q", w.Title)
	}
	if w := byID["eforms:00650276-2023"]; w != nil && !strings.HasPrefix(w.Title, "Gara Europea a Procedura aperta per l'Appalto di servizi educativi semiresidenziali rivolti ai minori suddiviso") {
		t.Errorf("eforms:00650276-2023: title %q", w.Title)
	}
}
