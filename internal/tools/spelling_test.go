package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/spelling"
)

// correctedPage is the part of a search's answer the correction tests read.
type correctedPage struct {
	Total     int                   `json:"total"`
	Corrected []spelling.Correction `json:"corrected"`
	Items     []struct {
		PurchaseNumber string `json:"purchase_number"`
	} `json:"items"`
}

// spellingTenders are tenders whose titles are the EIS's: words of them
// are what the queries of TestCorrection mistype.
func spellingTenders() []tenderbase.Record {
	titles := []string{
		"Поставка лекарственного препарата для медицинского применения",
		"Поставка бумаги для офисной техники",
		"Закупка лекарства для обеспечения граждан",
		"Оказание услуг по охране объектов",
	}
	var recs []tenderbase.Record
	for i, title := range titles {
		recs = append(recs, &tenderbase.Tender{PurchaseNumber: fmt.Sprintf("037320004152500001%d", i), Law: "44", Version: 1,
			Title: title, PublishedAt: time.Date(2025, 3, 1+i, 9, 0, 0, 0, time.UTC)})
	}
	return recs
}

func TestCorrection(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := store.Put(context.Background(), spellingTenders()); err != nil {
				t.Fatal(err)
			}
			set := New(store, nil)
			for _, c := range []struct {
				args      string
				corrected []spelling.Correction
				numbers   []string
			}{
				// A letter too many, two letters swapped, the Latin layout.
				{`"query": "поставака"`, []spelling.Correction{{Word: "поставака", Instead: "поставка"}},
					[]string{"0373200041525000011", "0373200041525000010"}},
				// The word meant is widened as a word written so is.
				{`"query": "лекраства"`, []spelling.Correction{{Word: "лекраства", Instead: "лекарства"}},
					[]string{"0373200041525000012", "0373200041525000010"}},
				// A whole query on the Latin layout, signs keys and all.
				{`"query": "j[hfyf"`, []spelling.Correction{{Word: "j[hfyf", Instead: "охрана", Layout: true}},
					[]string{"0373200041525000013"}},
				// A correction that finds no record is not taken over what
				// the query as written shows (a partial match of «охрана»).
				{`"query": "охрана сбеспечения"`, nil, nil},
				{`"query": "gjcnfdrf бумаги"`, []spelling.Correction{{Word: "gjcnfdrf", Instead: "поставка", Layout: true}},
					[]string{"0373200041525000011"}},
				// Words in a phrase are corrected in their places.
				{`"query": "\"поставака бумаги\""`, []spelling.Correction{{Word: "поставака", Instead: "поставка"}},
					[]string{"0373200041525000011"}},
				// Known words are never changed, even where together they find nothing.
				{`"query": "охрана бумаги"`, nil, nil},
				{`"query": "поставки"`, nil, []string{"0373200041525000011", "0373200041525000010"}},
				// No known word is near: nothing found, nothing corrected.
				{`"query": "трансцендентность"`, nil, nil},
				{`"query": "пстк"`, nil, nil},
				// A number a digit away is another record's.
				{`"query": "0373200041525000019"`, nil, nil},
				// The exact form, an exclusion and exact: true are as written.
				{`"query": "=поставака"`, nil, nil},
				{`"query": "охрана !поставака"`, nil, []string{"0373200041525000013"}},
				{`"query": "охрана !поставака бумага"`, nil, nil},
				{`"query": "gjcnfdrf", "exact": true`, nil, nil},
			} {
				got, _ := decodeCall[correctedPage](t, set, tenderbase.PlanCorporate, "ru.search", "{"+c.args+"}")
				var numbers []string
				for _, it := range got.Items {
					numbers = append(numbers, it.PurchaseNumber)
				}
				if diff := cmp.Diff(c.corrected, got.Corrected); diff != "" {
					t.Errorf("%s: corrected (-want +got):\n%s", c.args, diff)
				}
				if diff := cmp.Diff(c.numbers, numbers); diff != "" || got.Total != len(c.numbers) {
					t.Errorf("%s: total %d, records (-want +got):\n%s", c.args, got.Total, diff)
				}
			}
		})
	}
}

// TestCorrectionText checks that the page an agent reads says what was
// searched for instead.
func TestCorrectionText(t *testing.T) {
	set := emptySet(t, spellingTenders()...)
	out, err := call(t, set, WithForm(asPlan(tenderbase.PlanCorporate), BriefForm), "ru.search", `{"query": "gjcnfdrf"}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "No record holds «gjcnfdrf»: searched for «поставка» (the other keyboard layout) instead (exact: true searches as written).\nFound 2 tenders"
	if !strings.HasPrefix(out.Text, want) {
		t.Errorf("text:\n%s\nwant it to begin with:\n%s", out.Text, want)
	}
	if !strings.Contains(string(out.Summary), `"corrected":[{"word":"gjcnfdrf","instead":"поставка","layout":true}]`) {
		t.Errorf("summary %s does not say what was searched for", out.Summary)
	}
}

// TestCorrectionHidesTariffWords checks that a caller whose plan hides a
// field is never offered a word only that field holds: the correction
// would tell what the plan does not show.
func TestCorrectionHidesTariffWords(t *testing.T) {
	contract := &tenderbase.Contract{RegNumber: "2770000001225000001", Version: 1, Subject: "Поставка бумаги",
		Suppliers:   []tenderbase.Party{{Name: "Фармстандарт", INN: "7700000012"}},
		PublishedAt: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}
	set := emptySet(t, contract)
	for plan, want := range map[tenderbase.Plan][]spelling.Correction{
		tenderbase.PlanFree:      nil,
		tenderbase.PlanCorporate: {{Word: "фармстандрат", Instead: "фармстандарт"}},
	} {
		got, _ := decodeCall[correctedPage](t, set, plan, "contracts.search", `{"query": "фармстандрат"}`)
		if diff := cmp.Diff(want, got.Corrected); diff != "" {
			t.Errorf("%s: corrected (-want +got):\n%s", plan, diff)
		}
	}
}

// TestLookAlikeQuery checks that a query typed with Latin letters that
// look like Cyrillic ones, which finds nothing, is searched as the
// Cyrillic it looks like, and says so.
func TestLookAlikeQuery(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			fuel := &tenderbase.Tender{PurchaseNumber: "0373200041525000020", Law: "44", Version: 1,
				Title: "Поставка авиационного керосина ТС-1", PublishedAt: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}
			if _, err := store.Put(context.Background(), []tenderbase.Record{fuel}); err != nil {
				t.Fatal(err)
			}
			got, _ := decodeCall[correctedPage](t, New(store, nil), tenderbase.PlanCorporate, "ru.search", `{"query": "TC-1"}`)
			want := []spelling.Correction{{Word: "TC-1", Instead: "ТС-1"}}
			if diff := cmp.Diff(want, got.Corrected); diff != "" || got.Total != 1 {
				t.Errorf("total %d, corrected (-want +got):\n%s", got.Total, diff)
			}
		})
	}
}

// TestCorrectionToCategory checks that a misspelt category word whose
// records name only their goods (contracts coded in its class, none with
// the word) is corrected to it: the word is counted by its class.
func TestCorrectionToCategory(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			drugs := &tenderbase.Contract{RegNumber: "0000000000000000102", Law: "44", Subject: "Эпирубицин, паклитаксел, цисплатин",
				Region: 8, Price: 100_000, Currency: "RUB", PublishedAt: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC),
				Objects: []tenderbase.PurchaseObject{{OKPD2Code: "21.20.10.232", Name: "Эпирубицин"}}}
			if _, err := store.Put(context.Background(), []tenderbase.Record{drugs}); err != nil {
				t.Fatal(err)
			}
			page, out := decodeCall[correctedPage](t, New(store, nil), tenderbase.PlanCorporate, "contracts.search", `{"query": "лекраства"}`)
			t.Log(out.Text)
			want := []spelling.Correction{{Word: "лекраства", Instead: "лекарства"}}
			if diff := cmp.Diff(want, page.Corrected); diff != "" || len(page.Items) != 1 {
				t.Errorf("items %v, corrected (-want +got):\n%s", page.Items, diff)
			}
		})
	}
}
