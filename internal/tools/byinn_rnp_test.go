package tools

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// rnpView is what a caller reads of contragent.byInn's rnp section.
type rnpView struct {
	Name string `json:"name"`
	RNP  struct {
		InRegister bool `json:"in_register"`
		Entries    int  `json:"entries"`
		Items      []struct {
			RegistryNumber string `json:"registry_number"`
			Role           string `json:"role"`
			State          string `json:"state"`
			InRegister     bool   `json:"in_register"`
			Since          string `json:"since"`
			Until          string `json:"until"`
			ExcludedAt     string `json:"excluded_at"`
			Reason         string `json:"reason"`
			PurchaseNumber string `json:"purchase_number"`
		} `json:"items"`
	} `json:"rnp"`
}

// TestRNPThroughTheStores imports the fixtures of the register of unfair
// suppliers (44-FZ of both forms with an exclusion, 223-FZ) into each store
// through the importer and reads them back through contragent.byInn,
// rnp.search and rnp.detail.
func TestRNPThroughTheStores(t *testing.T) {
	dir := filepath.Join("..", "source", "eis", "testdata", "unfair")
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			sum, err := importer.Import(context.Background(), store, []string{dir}, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
			if err != nil || sum.Rejected != 0 || sum.Files != 7 {
				t.Fatalf("import of %s: %+v, %v", dir, sum, err)
			}
			set := New(store, nil)
			checkRNPStanding(t, set)
			checkRNPSearch(t, set)
		})
	}
}

func checkRNPStanding(t *testing.T, set *Set) {
	// A 223-FZ supplier: one entry in the register, with no end set, and
	// one taken out, newest first.
	v, _ := decodeCall[rnpView](t, set, tenderbase.PlanFree, "contragent.byInn", `{"inn": "6671098765"}`)
	if !v.RNP.InRegister || v.RNP.Entries != 2 || len(v.RNP.Items) != 2 {
		t.Fatalf("6671098765: %+v, want in the register by one of 2 entries", v.RNP)
	}
	got := v.RNP.Items[0]
	if got.RegistryNumber != "Р2300417" || got.Role != tenderbase.UnfairRoleSupplier || !got.InRegister ||
		got.Since != "2023-09-18T14:25:40+03:00" || got.Reason != "CANCEL_CONTRACT" || got.PurchaseNumber != "32312045678" {
		t.Errorf("6671098765, newest entry: %+v", got)
	}
	if old := v.RNP.Items[1]; old.RegistryNumber != "Р2100093" || old.State != tenderbase.UnfairExcluded || old.InRegister ||
		old.ExcludedAt != "2023-03-02T00:00:00+03:00" {
		t.Errorf("6671098765, older entry: %+v", old)
	}

	// A head included with a 44-FZ supplier, known from the register alone:
	// found, named by the entry, out of the register since the exclusion.
	head, _ := decodeCall[rnpView](t, set, tenderbase.PlanFree, "contragent.byInn", `{"inn": "740400012345"}`)
	if head.Name != "Петров Пётр Петрович" || head.RNP.InRegister || head.RNP.Entries != 1 ||
		head.RNP.Items[0].Role != tenderbase.UnfairRoleFounder || head.RNP.Items[0].State != tenderbase.UnfairExcluded ||
		head.RNP.Items[0].Until != "2025-04-11" || head.RNP.Items[0].ExcludedAt != "2025-04-11T00:05:00+03:00" {
		t.Errorf("740400012345: %+v", head)
	}
}

func checkRNPSearch(t *testing.T, set *Set) {
	type page struct {
		Total int `json:"total"`
		Items []struct {
			RegistryNumber string `json:"registry_number"`
		} `json:"items"`
	}
	for _, c := range []struct {
		args string
		want []string
	}{
		{`{"query": "7404840216"}`, []string{"23003469"}},
		{`{"query": "строймонтаж"}`, []string{"23003469"}},
		{`{"query": "общество", "filters": {"fz223": 1}}`, []string{"Р2300417", "Р2100093"}},
		{`{"query": "0102200001612002153"}`, []string{"РНП.24120-15"}},
		{`{"query": "Соколова"}`, []string{"21002583"}},
	} {
		p, _ := decodeCall[page](t, set, tenderbase.PlanFree, "rnp.search", c.args)
		var got []string
		for _, it := range p.Items {
			got = append(got, it.RegistryNumber)
		}
		if diff := cmp.Diff(c.want, got); diff != "" || p.Total != len(c.want) {
			t.Errorf("rnp.search %s (-want +got):\n%s", c.args, diff)
		}
	}
	entry, _ := decodeCall[tenderbase.UnfairSupplier](t, set, tenderbase.PlanFree, "rnp.detail", `{"id": "23003469"}`)
	want := &tenderbase.UnfairExclude{Date: time.Date(2025, 4, 11, 0, 5, 0, 0, tenderbase.Moscow), Type: "AUTO"}
	if entry.State != tenderbase.UnfairExcluded || entry.Version != 2 || entry.Supplier.INN != "7404840216" ||
		!cmp.Equal(want, entry.Exclusion) {
		t.Errorf("rnp.detail 23003469: state %s, version %d, supplier %s, exclusion %+v", entry.State, entry.Version, entry.Supplier.INN, entry.Exclusion)
	}
	if _, err := call(t, set, asPlan(tenderbase.PlanFree), "rnp.detail", `{"id": "99"}`); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("rnp.detail of an unknown number: %v, want not found", err)
	}
}
