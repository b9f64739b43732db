package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/families"
)

// A search tool widens each word of its query by its word family, on
// both stores alike, and says so: «ремонт кровли» finds «кровельные
// работы». exact: true, =word, a phrase and what !word excludes stay as
// written.
func TestFamilyExpansion(t *testing.T) {
	contract := func(reg string, d int, subject string) *tenderbase.Contract {
		return &tenderbase.Contract{RegNumber: reg, Law: "44", Subject: subject, Region: 8, Price: 100_000, Currency: "RUB",
			PublishedAt: day(d), Customer: tenderbase.Party{INN: "0814000001"}}
	}
	const (
		roofing = "0000000000000000011" // кровельные, not кровля
		roads   = "0000000000000000012" // дорожного, not дорога
		paper   = "0000000000000000013"
	)
	recs := []tenderbase.Record{
		contract(roofing, 3, "Текущий ремонт: кровельные работы"),
		contract(roads, 2, "Ремонт дорожного покрытия"),
		contract(paper, 1, "Поставка бумаги"),
	}
	cases := []struct {
		name, args string
		items      []string
		also       map[string][]string // the words widened and what they also matched
		text       string
	}{
		{"a noun finds its adjective", `{"query": "ремонт кровли"}`, []string{roofing},
			map[string][]string{"ремонт, кровли": {"ремонтный", "кровельный"}},
			"Word families: ремонт, кровли also matched ремонтный, кровельный (DerivBase.Ru; exact: true searches as written)."},
		{"a noun in another form", `{"query": "ремонт дорог"}`, []string{roads},
			map[string][]string{"ремонт, дорог": {"ремонтный", "дорожный"}}, ""},
		{"an adjective is not widened to its noun", `{"query": "дорожный ремонт"}`, []string{roads},
			map[string][]string{"ремонт": {"ремонтный"}}, ""},
		{"exact", `{"query": "ремонт кровли", "exact": true}`, []string{}, nil, ""},
		{"an exact form is not widened", `{"query": "ремонт =кровли"}`, []string{}, map[string][]string{"ремонт": {"ремонтный"}}, ""},
		{"a phrase is not widened", `{"query": "\"ремонт кровли\""}`, []string{}, nil, ""},
		{"an exclusion excludes the word only", `{"query": "ремонт !кровли"}`, []string{roofing, roads}, map[string][]string{"ремонт": {"ремонтный"}}, ""},
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
					Items      []tenderbase.Contract `json:"items"`
					Expansions []expansion           `json:"expansions"`
				}
				if err := json.Unmarshal(out.Value, &page); err != nil {
					t.Fatal(err)
				}
				items := []string{}
				for _, it := range page.Items {
					items = append(items, it.RegNumber)
				}
				var also map[string][]string
				for _, e := range page.Expansions {
					if e.Source != families.Source {
						continue
					}
					if also == nil {
						also = map[string][]string{}
					}
					also[e.Words] = e.Also
				}
				if diff := cmp.Diff(c.items, items); diff != "" {
					t.Errorf("items (-want +got):\n%s\n%s", diff, out.Text)
				}
				if diff := cmp.Diff(c.also, also); diff != "" {
					t.Errorf("family expansions (-want +got):\n%s", diff)
				}
				if c.text != "" && !strings.Contains(out.Text, c.text) {
					t.Errorf("text %q lacks %q", out.Text, c.text)
				}
			})
		}
	}
}
