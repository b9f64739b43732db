package tools

import (
	"context"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

// TestByInnCountsFASCases checks on both stores that contragent.byInn
// counts the FAS cases whose orgXML names the INN among their participants,
// and finds an INN known from such cases alone.
func TestByInnCountsFASCases(t *testing.T) {
	day := time.Date(2025, 9, 26, 22, 0, 0, 0, tenderbase.Moscow)
	orgs := `<orgs><org><role>Заявитель</role><inn>2501047194</inn></org><org><role>Ответчик</role><inn>772000112233</inn></org></orgs>`
	cases := []tenderbase.Record{
		&tenderbase.FASCase{ID: 1, Name: "Решение", CaseDate: day, OrgXML: orgs},
		&tenderbase.FASCase{ID: 2, Name: "Предписание", CaseDate: day.Add(time.Hour), OrgXML: orgs},
		&tenderbase.FASCase{ID: 3, Name: "Решение", CaseDate: day, OrgXML: `<orgs><org><inn>7707227200</inn></org></orgs>`},
	}
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := store.Put(context.Background(), cases); err != nil {
				t.Fatal(err)
			}
			set := New(store, nil)
			for inn, want := range map[string]int{"2501047194": 2, "772000112233": 2, "7707227200": 1} {
				v, _ := decodeCall[struct {
					FASCases int `json:"fas_cases"`
				}](t, set, tenderbase.PlanFree, "contragent.byInn", `{"inn": "`+inn+`"}`)
				if v.FASCases != want {
					t.Errorf("INN %s: fas_cases %d, want %d", inn, v.FASCases, want)
				}
			}
		})
	}
}
