package ted

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/sourcetest"
)

// decode reads the one notice of a file.
func decode(t *testing.T, path string) *tenderbase.WorldTender {
	t.Helper()
	recs, errs := sourcetest.DecodeFile(t, Format{}, path)
	return sourcetest.OneWorldTender(t, recs, errs)
}

func ymd(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestAwards(t *testing.T) {
	tests := []struct {
		file         string
		awarded      float64
		currency     string
		estimate     float64
		awards       []tenderbase.WorldAward
		country      int
		title, descr string
	}{
		{
			file: "f06-award.xml", awarded: 1250400.50, currency: "EUR", country: 250,
			title: "Aménagement d'un pôle d'échanges de 4 000 m2 et de ses abords",
			descr: "Travaux de voirie du pôle d'échanges, conformément à l'arrêté no 2016-360.\nDeux lots.",
			awards: []tenderbase.WorldAward{{
				LotID: "1", ContractID: "18.012.1", Title: "Voirie", Awarded: true,
				Winners: []tenderbase.WorldWinner{
					{Name: "Routes du Sud (mandataire)", ID: "12345678900011", Country: 250, Town: "Antibes"},
					{Name: "Pavages Riviera (cotraitant)", Country: 380, Town: "Sanremo", SME: true},
				},
				Value: 1250400.50, Currency: "EUR", Estimated: 1300000, TendersReceived: 5, TendersSME: 2,
				ContractDate: ymd(2018, 8, 23),
			}, {
				LotID: "2", ContractID: "18.012.2", Title: "Auvent", Status: "PROCUREMENT_UNSUCCESSFUL",
			}},
		},
		{
			file: "f03-range.xml", estimate: 90000, currency: "EUR", country: 900, title: "Supply of electricity",
			awards: []tenderbase.WorldAward{{
				ContractID: "WB-19-04", Awarded: true,
				Winners:  []tenderbase.WorldWinner{{Name: "Energy Supply LLC", Country: 900, Town: "Pristina"}},
				Currency: "EUR", Estimated: 90000, LowestTender: 63000, HighestTender: 77000, TendersReceived: 3,
				ContractDate: ymd(2019, 6, 14),
			}, {
				ContractID: "WB-19-05", Status: "PROCUREMENT_DISCONTINUED",
			}},
		},
		{
			file: "f03-s02.xml", awarded: 415000, currency: "EUR", country: 250, title: "Fourniture d'un cryostat",
			awards: []tenderbase.WorldAward{{
				ContractID: "4000780446", Title: "Fourniture d'un cryostat", Awarded: true,
				Winners: []tenderbase.WorldWinner{{Name: "Cryo Systèmes SAS", ID: "98765432100017", Country: 250, Town: "Lyon", SME: true}},
				Value:   415000, Currency: "EUR", TendersReceived: 3, ContractDate: ymd(2017, 12, 20),
			}},
		},
		{
			file: "r208-award.xml", awarded: 1234567.89, currency: "EUR", country: 276,
			title: "Messplatz für Spektroskopie.", descr: "Messplatz Spektroskopie in zwei Losen.",
			awards: []tenderbase.WorldAward{{
				LotID: "1", ContractID: "138-16", Title: "Femtosekunden Lasersystem", Awarded: true,
				Winners: []tenderbase.WorldWinner{{Name: "Laser Optik GmbH", Country: 276, Town: "Dieburg"}},
				Value:   374900, Currency: "EUR", Estimated: 690000, TendersReceived: 2, AwardDate: ymd(2017, 4, 25),
			}, {
				LotID: "2", ContractID: "138-16", Title: "Kryostat", Awarded: true,
				Winners: []tenderbase.WorldWinner{{Name: "Kälte Instruments GmbH", Country: 276, Town: "Wiesbaden"}},
				Value:   859667.89, Currency: "EUR", TendersReceived: 10, AwardDate: ymd(2017, 4, 25),
			}},
		},
		{
			file: "f20-modification.xml", country: 246, title: "Asiakastietojärjestelmän ylläpito",
			awards: []tenderbase.WorldAward{{
				ContractID: "TH-2017-4", Awarded: true, Status: "modified",
				Winners: []tenderbase.WorldWinner{{Name: "Ohjelmistotalo Oy", ID: "1234567-8", Country: 246, Town: "Helsinki", SME: true}},
				Value:   520000, PreviousValue: 400000, Currency: "EUR",
				ContractDate: ymd(2017, 9, 1),
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			w := decode(t, filepath.Join("testdata", tt.file))
			if diff := cmp.Diff(tt.awards, w.Awards, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("awards (-want +got):\n%s", diff)
			}
			got := []any{w.AwardedValue, w.Value, w.Country, w.Title, w.Description}
			want := []any{tt.awarded, tt.estimate, tt.country, tt.title, tt.descr}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("awarded, estimate, country, title, description (-want +got):\n%s", diff)
			}
			if tt.awarded != 0 && w.AwardedCurrency != tt.currency || tt.estimate != 0 && w.Currency != tt.currency {
				t.Errorf("currencies %q (awarded) %q (estimate), want %q", w.AwardedCurrency, w.Currency, tt.currency)
			}
		})
	}
}

// TestMixedContent reads the texts TED writes with formatting elements
// inside: the lot's m3 and m2 keep their exponent, a title broken over
// lines and indented reads on one line.
func TestMixedContent(t *testing.T) {
	w := decode(t, filepath.Join("testdata", "f06-award.xml"))
	want := []tenderbase.WorldLot{
		{ID: "1", Title: "Voirie", Description: "— 1 500 m3 de déblais,\n— 2 900 m2 de revêtement.", CPVCodes: []string{"45233200"}},
		{ID: "2", Title: "Auvent", Description: "Auvent métallique des quais.", CPVCodes: []string{"45223210"}},
	}
	if diff := cmp.Diff(want, w.Lots); diff != "" {
		t.Errorf("lots (-want +got):\n%s", diff)
	}
}

func TestDeadlineZone(t *testing.T) {
	tests := []struct {
		file, zone string
		clock      string
	}{
		{"f02-original.xml", "Europe/Lisbon", "2023-02-28 17:00"}, // Portugal by its mainland NUTS region
		{"f14-corrigendum.xml", "UTC", "2023-03-03 17:00"},        // Portugal without a region: several zones
	}
	for _, tt := range tests {
		d := decode(t, filepath.Join("testdata", tt.file)).Deadline
		if d.Location().String() != tt.zone || d.Format("2006-01-02 15:04") != tt.clock {
			t.Errorf("%s: deadline %v, want %s in %s", tt.file, d, tt.clock, tt.zone)
		}
	}
}

// TestCorrigendumAmendsItsNotice checks that a corrigendum becomes a version
// of the notice it corrects, which merged with that notice in either order
// gives the corrected deadline and keeps everything else.
func TestCorrigendumAmendsItsNotice(t *testing.T) {
	original := decode(t, filepath.Join("testdata", "f02-original.xml"))
	corr := decode(t, filepath.Join("testdata", "f14-corrigendum.xml"))
	if corr.ID != original.ID {
		t.Fatalf("corrigendum keyed %q, want the corrected notice's %q", corr.ID, original.ID)
	}
	if want := "https://ted.europa.eu/udl?uri=TED:NOTICE:905678-2022:TEXT:PT:HTML"; corr.URL != want {
		t.Errorf("corrigendum url %q, want %q", corr.URL, want)
	}
	for _, m := range []tenderbase.Record{corr.Merge(original), original.Merge(corr)} {
		w := m.(*tenderbase.WorldTender)
		if !w.Deadline.Equal(time.Date(2023, 3, 3, 17, 0, 0, 0, time.UTC)) {
			t.Errorf("deadline %v, want the corrected 2023-03-03 17:00", w.Deadline)
		}
		if w.NoticeType != "Contract notice" || w.Value != 4500000 || len(w.CPVCodes) != 2 || len(w.Documents) != 1 {
			t.Errorf("merged notice lost the original's fields: %+v", w)
		}
		if !w.PublishedAt.Equal(ymd(2022, 5, 20)) || !w.Updated.Equal(ymd(2023, 2, 27)) {
			t.Errorf("published %v, updated %v, want 2022-05-20 and 2023-02-27", w.PublishedAt, w.Updated)
		}
	}
}

func TestAmount(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"200000.00", 200000}, {"1 234 567,89", 1234567.89}, {"6 300,00", 6300}, {"374 900", 374900},
		{"1.234.567,89", 1234567.89}, {"189\u202f945\u202f844,15", 189945844.15}, {"", 0},
	}
	for _, tt := range tests {
		if got := amount(tt.in); got != tt.want {
			t.Errorf("amount(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
