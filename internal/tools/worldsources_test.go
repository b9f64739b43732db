package tools

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// worldCard is what the test reads of world.detail.
type worldCard struct {
	ID          string                        `json:"id"`
	Source      string                        `json:"source"`
	Country     int                           `json:"country"`
	Title       string                        `json:"title"`
	Buyer       struct{ Name, RegNum string } `json:"buyer"`
	Value       float64                       `json:"value"`
	Currency    string                        `json:"currency"`
	CPVCodes    []string                      `json:"cpv_codes"`
	PublishedAt string                        `json:"published_at"`
	Deadline    string                        `json:"deadline"`
	Language    string                        `json:"language"`
	Lots        []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"lots"`
}

// TestWorldSourcesThroughTheStores imports every published TED, eForms and
// OCDS sample into each store, reads notices chosen by hand back through
// world.detail, and searches them by country.
func TestWorldSourcesThroughTheStores(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			sum := importWorldSamples(t, store)
			want := map[string]int{"TED XML": 17, "eForms XML": 68, "OCDS JSON": 45}
			if sum.Rejected != 0 || len(sum.Skipped) != 0 || !cmp.Equal(sum.Formats, want) {
				t.Fatalf("import: formats %v, %d rejected, skipped %v; want every file read: %v", sum.Formats, sum.Rejected, sum.Skipped, sum.Rejections)
			}
			set := New(store, nil)
			checkWorldCards(t, set)
			checkWorldCountries(t, store, set)
		})
	}
}

func checkWorldCards(t *testing.T, set *Set) {
	detail := func(id string) worldCard {
		t.Helper()
		v, _ := decodeCall[worldCard](t, set, tenderbase.PlanStandard, "world.detail", `{"id": "`+id+`"}`)
		return v
	}
	motol := detail("ted:352444-2021") // TED F02, Czech
	if motol.Country != 203 || motol.Language != "cs" || motol.Title != "FN Motol - centrální zdroj chladu pro objekt A - VZT a chlazení" ||
		motol.Buyer.Name != "Fakultní nemocnice v Motole" || motol.Value != 60730111.73 || motol.Currency != "CZK" ||
		!cmp.Equal(motol.CPVCodes, []string{"45000000", "42500000"}) || motol.Deadline != "2021-08-11T10:00:00+02:00" ||
		motol.PublishedAt != "2021-07-13T00:00:00Z" {
		t.Errorf("TED notice: %+v", motol)
	}
	if uk := detail("ted:140295-2021"); uk.Country != 826 || uk.Title != "Global Evaluation Framework" {
		t.Errorf("TED notice of the United Kingdom (UK in the source): %+v", uk)
	}
	jrc := detail("eforms:00309890-2023") // eForms subtype 16, English, buyer in Italy
	if jrc.Country != 380 || jrc.Language != "en" || jrc.Buyer.Name != "Joint Research Centre" || jrc.Value != 460000 ||
		jrc.Currency != "EUR" || jrc.Deadline != "2023-07-11T16:00:00+02:00" || len(jrc.Lots) != 1 || jrc.Lots[0].ID != "LOT-0001" ||
		!slices.Contains(jrc.CPVCodes, "73210000") || !strings.HasPrefix(jrc.Title, "EU public Artificial Intelligence") {
		t.Errorf("eForms notice: %+v", jrc)
	}
	if bb := detail("eforms:00657565-2023"); bb.Country != 276 || bb.Language != "de" || bb.Title != "Lieferung von Öko-Strom für die Bundesbank im Zeitraum 01/2024 bis 12/2026" {
		t.Errorf("eForms notice in German: %+v", bb)
	}
	uganda := detail("ocds:ocds-rdvc92-1508162377") // a single OCDS release
	if uganda.Country != 800 || uganda.Title != "Rehabilitation of the High Court Parking Yard" || uganda.Value != 371049525 ||
		uganda.Currency != "UGX" || uganda.Buyer.Name != "Courts of Judicature" || uganda.Language != "en" {
		t.Errorf("OCDS release: %+v", uganda)
	}
	if ua := detail("ocds:ocds-be6bcu-UA-2017-01-31-001299-b"); ua.Country != 804 || ua.Title != "Хлібобулочні вироби" {
		t.Errorf("OCDS record of ProZorro, placed by its publisher's prefix: %+v", ua)
	}
}

// checkWorldCountries lists the notices of a country, as the countries filter
// selects them in a store: each country's notices of every source, and no
// other; and searches one by a word and its country through world.search.
func checkWorldCountries(t *testing.T, store tenderbase.Store, set *Set) {
	for _, tt := range []struct {
		country int
		want    []string // ids that must be found
	}{
		{203, []string{"ted:352444-2021"}},
		{276, []string{"ted:150025-2020", "ted:599593-2020", "eforms:00657565-2023"}},
		{484, []string{"ocds:ocds-xs1qbl-SSEG-16-0253-00-2017", "ocds:PC-0025"}},
		{826, []string{"ted:140295-2021", "ocds:ocds-b5fd17-2c470411-adc8-11e6-9901-0019b9f3037b"}},
	} {
		page, err := store.Search(context.Background(), tenderbase.Search{
			Kind: tenderbase.KindWorldTender, Filters: tenderbase.Filters{Countries: []int{tt.country}}, PageSize: 100,
		})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range page.Items {
			w := r.(*tenderbase.WorldTender)
			if w.Country != tt.country {
				t.Errorf("countries [%d] found %s of country %d", tt.country, w.ID, w.Country)
			}
			ids = append(ids, w.ID)
		}
		for _, id := range tt.want {
			if !slices.Contains(ids, id) {
				t.Errorf("countries [%d]: %s not found among %v", tt.country, id, ids)
			}
		}
	}
	search := func(countries string) []string {
		t.Helper()
		res, _ := decodeCall[struct {
			Items []struct{ ID string } `json:"items"`
		}](t, set, tenderbase.PlanCorporate, "world.search", `{"query": "Lieferung", "countries": `+countries+`}`)
		var ids []string
		for _, it := range res.Items {
			ids = append(ids, it.ID)
		}
		return ids
	}
	if ids := search("[276]"); !slices.Contains(ids, "eforms:00657565-2023") {
		t.Errorf("world.search Lieferung in Germany: %v", ids)
	}
	if ids := search("[40]"); slices.Contains(ids, "eforms:00657565-2023") {
		t.Errorf("world.search Lieferung in Austria found the German notice: %v", ids)
	}
}
