package tools

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestOrgInfoInCards checks that the card of a tender and of a contract
// tells what the registers hold of their organizations to the guru and
// corporate plans, and hides it, saying so, from the others.
func TestOrgInfoInCards(t *testing.T) {
	const inn = "1601303298" // an organization of the demo, a customer of tenders and contracts
	for _, c := range []struct {
		tool string
		kind tenderbase.Kind
	}{{"ru.detail", tenderbase.KindTender}, {"contracts.detail", tenderbase.KindContract}} {
		page, err := demoSet.store.Search(t.Context(), tenderbase.Search{Kind: c.kind, PageSize: 1,
			Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: inn}}})
		if err != nil || len(page.Items) == 0 {
			t.Fatalf("no %s of customer %s in the demo: %v", c.kind, inn, err)
		}
		args := `{"id": "` + page.Items[0].Key() + `"}`
		for _, plan := range tenderbase.PlanNames {
			out, err := call(t, demoSet, asPlan(plan), c.tool, args)
			if err != nil {
				t.Fatal(err)
			}
			var card struct {
				CustomerOrg *struct{ INN, Name string } `json:"customer_org"`
			}
			if err := json.Unmarshal(out.Value, &card); err != nil {
				t.Fatal(err)
			}
			sees := tenderbase.Plans[plan].OrgInfo
			switch {
			case sees && (card.CustomerOrg == nil || card.CustomerOrg.INN != inn || card.CustomerOrg.Name == ""):
				t.Errorf("%s %s: customer_org %+v, want the card of %s", c.tool, plan, card.CustomerOrg, inn)
			case !sees && (card.CustomerOrg != nil || !slices.Contains(out.Restricted, "customer_org")):
				t.Errorf("%s %s: customer_org %+v, restricted %v; want it null and named", c.tool, plan, card.CustomerOrg, out.Restricted)
			}
		}
	}
}
