package ted

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
)

// published is the folder of real TED notices beside the project
// (../shared/data/ted-xml, see its PROVENANCE.md).
var published = filepath.Join("..", "..", "..", "..", "shared", "data", "ted-xml", "OP-TED__ted-xml-data-converter")

func publishedNotice(t *testing.T, name string) *tenderbase.WorldTender {
	t.Helper()
	path := filepath.Join(published, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("published TED notice %s absent (%v): the real-file layer of these tests needs ../shared/data", name, err)
	}
	return decode(t, path)
}

// TestPublishedAwards reads the award sections of real award notices: an
// F06 with a group of winners and two lots not awarded, an F03 of an EU
// agency, a concession award (F25) and a voluntary ex ante notice (F15).
func TestPublishedAwards(t *testing.T) {
	t.Run("F06 18-412273", func(t *testing.T) {
		w := publishedNotice(t, "18-412273-001-EXP.xml")
		if w.AwardedValue != 5530658.98 || w.AwardedCurrency != "EUR" || w.Value != 0 {
			t.Errorf("awarded %v %s, estimate %v; want 5530658.98 EUR awarded and no estimate", w.AwardedValue, w.AwardedCurrency, w.Value)
		}
		if len(w.Awards) != 5 {
			t.Fatalf("%d awards, want 5", len(w.Awards))
		}
		want := tenderbase.WorldAward{
			LotID: "1", ContractID: "18.008.1", Title: "Infrastructures", Awarded: true,
			Winners: []tenderbase.WorldWinner{
				{Name: "Eiffage route mediterranée (mandataire)", ID: "39876221100298", Country: 250, Town: "Latrinite"},
				{Name: "Gagneraud Construction (cotraitant)", ID: "40268299100102", Country: 250, Town: "Antibes Juan-les-Pins"},
			},
			Value: 4625137.40, Currency: "EUR", Estimated: 4400000, TendersReceived: 5, TendersSME: 1,
			ContractDate: ymd(2018, 8, 23),
		}
		if diff := cmp.Diff(want, w.Awards[0]); diff != "" {
			t.Errorf("lot 1 (-want +got):\n%s", diff)
		}
		if a := w.Awards[3]; a.LotID != "4" || a.Awarded || a.Status != "PROCUREMENT_UNSUCCESSFUL" {
			t.Errorf("lot 4: %+v, want not awarded, PROCUREMENT_UNSUCCESSFUL", a)
		}
		if !strings.Contains(w.Lots[0].Description, "— 33 000 m2 d'aménagement,") {
			t.Errorf("lot 1 description lost the exponent of m<FT>2</FT>: %q", w.Lots[0].Description)
		}
	})
	t.Run("F03 21-050204", func(t *testing.T) {
		w := publishedNotice(t, "21-050204-001-EXP.xml")
		want := []tenderbase.WorldAward{{
			ContractID: "ENISA F-EDO-20-C32", Title: "Production and Supply of Branded Promotional Material", Awarded: true,
			Winners: []tenderbase.WorldWinner{{Name: "Triple A and C Trading SPRL", Country: 56, Town: "Brussels", SME: true}},
			Value:   200000, Currency: "EUR", Estimated: 200000, TendersReceived: 7, TendersSME: 7,
		}}
		if diff := cmp.Diff(want, w.Awards, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("awards (-want +got):\n%s", diff)
		}
	})
	t.Run("F25 19-318420", func(t *testing.T) {
		w := publishedNotice(t, "19-318420-001-EXP.xml")
		if w.Value != 6500000 || w.AwardedValue != 6883000 {
			t.Errorf("estimate %v, awarded %v; want 6500000 and 6883000", w.Value, w.AwardedValue)
		}
		if len(w.Awards) != 1 || w.Awards[0].Value != 6883000 || w.Awards[0].Estimated != 6500000 || len(w.Awards[0].Winners) != 1 {
			t.Errorf("awards %+v, want one of 6883000 estimated 6500000 with its winner", w.Awards)
		}
	})
	t.Run("F15 21-139343", func(t *testing.T) {
		w := publishedNotice(t, "21-139343-001-EXP.xml")
		if len(w.Awards) != 2 || w.Awards[0].Winners[0].Name != "Palladium International Ltd" || w.Awards[0].LotID != "1" {
			t.Fatalf("awards %+v, want two, the first for lot 1 won by Palladium International Ltd among others", w.Awards)
		}
		if w.AwardedValue != 200000000 || w.AwardedCurrency != "GBP" {
			t.Errorf("awarded %v %s, want 200000000 GBP", w.AwardedValue, w.AwardedCurrency)
		}
	})
}

// TestPublishedValuesAndDates reads an R2.0.8 value grouped with a no-break
// space and a decimal comma, a deadline in the buyer's zone, and a
// corrigendum keyed by the notice it corrects.
func TestPublishedValuesAndDates(t *testing.T) {
	t.Run("R2.0.8 18-141127", func(t *testing.T) {
		w := publishedNotice(t, "18-141127-001-EXP.xml")
		if w.Value != 6300 || w.Currency != "RON" {
			t.Errorf("value %v %s, want 6300 RON", w.Value, w.Currency)
		}
	})
	t.Run("deadline 21-363062", func(t *testing.T) {
		d := publishedNotice(t, "21-363062-001-EXP.xml").Deadline
		prague, err := time.LoadLocation("Europe/Prague")
		if err != nil {
			t.Fatal(err)
		}
		if !d.Equal(time.Date(2021, 8, 11, 10, 0, 0, 0, prague)) {
			t.Errorf("deadline %v, want 2021-08-11 10:00 in Prague", d)
		}
	})
	t.Run("F14 23-119901", func(t *testing.T) {
		w := publishedNotice(t, "23-119901-001-EXP.xml")
		if w.ID != "ted:267307-2022" || w.NoticeType != "" || !w.Updated.Equal(ymd(2023, 2, 27)) {
			t.Errorf("corrigendum as %s (%q, updated %v), want a version of ted:267307-2022 as of 2023-02-27", w.ID, w.NoticeType, w.Updated)
		}
		if w.Deadline.Format("2006-01-02 15:04") != "2023-03-03 17:00" {
			t.Errorf("deadline %v, want the corrected 2023-03-03 17:00", w.Deadline)
		}
	})
}
