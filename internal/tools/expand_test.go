package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// A search tool expands its query by the thesaurus, and lists after the
// word matches the records coded in a category word's OKPD2 and OKDP
// classes, on both stores alike; exact: true, =word, a phrase and what
// !word excludes stay as written.
func TestExpansion(t *testing.T) {
	contract := func(reg string, d int, subject, okpd2 string) *tenderbase.Contract {
		c := &tenderbase.Contract{RegNumber: reg, Law: "44", Subject: subject, Region: 77, Price: 100_000, Currency: "RUB",
			PublishedAt: day(d), Customer: tenderbase.Party{INN: "7701000001"}}
		if okpd2 != "" {
			c.Objects = []tenderbase.PurchaseObject{{OKPD2Code: okpd2, Name: subject}}
		}
		return c
	}
	const (
		words = "0000000000000000001" // says медикаменты, no code
		coded = "0000000000000000002" // drugs by their names, 21.20
		both  = "0000000000000000003" // says лекарственные препараты, 21.20
		paper = "0000000000000000004"
		fuel  = "0000000000000000005" // petrol, 19.20
		old   = "0000000000000000006" // drugs by their names, OKDP 2423350
	)
	// A 94-FZ contract names its objects' OKDP class, not OKPD2.
	oldDrugs := contract(old, 0, "Кселода, гемцитабин", "")
	oldDrugs.Objects = []tenderbase.PurchaseObject{{OKDPCode: "2423350", OKDPName: "Средства противораковые", Name: "Кселода таблетки 500 мг"}}
	recs := []tenderbase.Record{
		contract(words, 5, "Медикаменты для поликлиники", ""),
		contract(coded, 4, "Эпирубицин, паклитаксел, цисплатин", "21.20.10.232"),
		contract(both, 3, "Поставка: лекарственные препараты для больницы", "21.20.10.110"),
		contract(paper, 2, "Поставка бумаги", "17.12.14.110"),
		contract(fuel, 1, "Поставка бензина АИ-92", "19.20.21.100"),
		oldDrugs,
	}
	type answer struct {
		Total      int
		Items      []string
		Expansions []expansion
		Text       string // a fragment of the text
	}
	one := func(n int) *int { return &n }
	drugs := []expansion{{Words: "лекарства", Also: []string{"медикаменты", "лекарственные препараты", "лекарственные средства"},
		OKPD2: []codedClass{{Code: "21.20", Name: "Препараты лекарственные и материалы, применяемые в медицинских целях", Records: one(1), Items: []int{3}}},
		OKDP: []codedClass{{Code: "2423000", Name: "Фармацевтические препараты, медицинские химические вещества и лекарственные растительные продукты",
			Records: one(1), Items: []int{4}}}}}
	cases := []struct {
		name, args string
		want       answer
	}{
		{"a category word", `{"query": "лекарства"}`, answer{Total: 2, Items: []string{words, both, coded, old},
			// The word's family follows the thesaurus' expansion.
			Expansions: append(slices.Clone(drugs), expansion{Words: "лекарства", Also: []string{"лекарский", "лекарственный"}}),
			Text: "Expanded: лекарства also matched медикаменты, лекарственные препараты, лекарственные средства; OKPD2 21.20 «Препараты лекарственные и материалы, применяемые в медицинских целях»: 1 contract coded in it without the words, listed as item 3; " +
				"OKDP 2423000 «Фармацевтические препараты, медицинские химические вещества и лекарственные растительные продукты»: 1 contract coded in it without the words, listed as item 4."}},
		{"exact", `{"query": "лекарства", "exact": true}`, answer{Items: []string{}}},
		{"an abbreviation by its class alone", `{"query": "ГСМ"}`, answer{Items: []string{fuel}}},
		{"the rest of the query goes with the class", `{"query": "поставка лекарственных препаратов"}`, answer{Total: 1, Items: []string{both}}},
		{"an exclusion excludes the word only", `{"query": "поставка !медикаменты"}`, answer{Total: 3, Items: []string{both, paper, fuel}}},
		// A class that adds nothing is no part of the text.
		{"an OKDP class that adds nothing", `{"query": "ГСМ"}`, answer{Items: []string{fuel},
			Text: "OKPD2 19.20 «Нефтепродукты»: 1 contract coded in it without the words, listed as item 1. exact: true"}},
		{"an exact form is not expanded", `{"query": "=медикаменты"}`, answer{Total: 1, Items: []string{words}}},
		{"a phrase is not expanded", `{"query": "\"лекарственные средства\""}`, answer{Items: []string{}}},
	}
	for name, store := range bothStores(t) {
		if _, err := store.Put(context.Background(), recs); err != nil {
			t.Fatal(err)
		}
		set := New(store, nil)
		for _, c := range cases {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				out, err := call(t, set, asPlan(tenderbase.PlanCorporate), "contracts.search", c.args)
				if err != nil {
					t.Fatal(err)
				}
				validateOutput(t, "contracts.search", out)
				var page struct {
					Total      int                   `json:"total"`
					Items      []tenderbase.Contract `json:"items"`
					Expansions []expansion           `json:"expansions"`
				}
				if err := json.Unmarshal(out.Value, &page); err != nil {
					t.Fatal(err)
				}
				got := answer{Total: page.Total, Items: []string{}, Expansions: page.Expansions}
				for _, it := range page.Items {
					got.Items = append(got.Items, it.RegNumber)
				}
				want := c.want
				if want.Expansions != nil {
					// The sources are the data's; the test checks they are said.
					for i := range got.Expansions {
						if got.Expansions[i].Source == "" {
							t.Errorf("expansion %q says no source", got.Expansions[i].Words)
						}
						got.Expansions[i].Source = ""
					}
				} else {
					got.Expansions = nil
				}
				if want.Text != "" {
					if !strings.Contains(out.Text, want.Text) {
						t.Errorf("text %q lacks %q", out.Text, want.Text)
					}
					got.Text = want.Text
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s\n%s", c.args, diff, out.Text)
				}
			})
		}
	}
}

// TestCodedPartialMatches checks that a record coded in a category word's
// class that lacks a word of the rest of the query comes as a partial
// match, lacking that word as written: `поставка лекарств эпирубицин`
// finds a drug contract that names only its drugs and does not say
// «поставка».
func TestCodedPartialMatches(t *testing.T) {
	drugs := &tenderbase.Contract{RegNumber: "0000000000000000202", Law: "44", Subject: "Эпирубицин, паклитаксел, цисплатин",
		Region: 77, Price: 100_000, Currency: "RUB", PublishedAt: day(2),
		Objects: []tenderbase.PurchaseObject{{OKPD2Code: "21.20.10.232", Name: "Эпирубицин"}}}
	paper := &tenderbase.Contract{RegNumber: "0000000000000000203", Law: "44", Subject: "Поставка бумаги",
		Region: 77, Price: 100_000, Currency: "RUB", PublishedAt: day(1)}
	type match struct {
		ID    string   `json:"reg_number"`
		Lacks []string `json:"lacks"`
	}
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := store.Put(context.Background(), []tenderbase.Record{drugs, paper}); err != nil {
				t.Fatal(err)
			}
			set := New(store, nil)
			for _, c := range []struct {
				args string
				want []match
			}{
				{`{"query": "поставка лекарства эпирубицин"}`, []match{{drugs.RegNumber, []string{"поставка"}}}},
				{`{"query": "поставка лекарства эпирубицин", "exact": true}`, nil},
				{`{"query": "поставка лекарства эпирубицин", "page": 1}`, nil},
			} {
				got, _ := decodeCall[struct {
					Partial []match `json:"partial"`
				}](t, set, tenderbase.PlanCorporate, "contracts.search", c.args)
				if diff := cmp.Diff(c.want, got.Partial); diff != "" {
					t.Errorf("%s: partial matches (-want +got):\n%s", c.args, diff)
				}
			}
		})
	}
}
