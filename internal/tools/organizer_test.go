package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// The parties of the notice fixtures of internal/source/eis: the authorized body
// of Tatarstan, which organizes an open tender for one school and a joint
// one for two, and a 223-FZ customer whose parent company places its
// notice.
const (
	innCZRT      = "1655412356"
	innLyceum    = "1654021871"
	innGymnasium = "1655038127"
	innYSK       = "7604081207"
	innGES       = "7606053123"
	jointNumber  = "0811200000126000057"
	placedNumber = "32514920391"
)

// partiesOf is what a test reads of a tender's parties in ru.detail.
type partiesOf struct {
	Customer  tenderbase.Party            `json:"customer"`
	Customers []tenderbase.TenderCustomer `json:"customers"`
	Organizer *tenderbase.Organizer       `json:"organizer"`
}

// activityOf is what a test reads of contragent.byInn.
type activityOf struct {
	Name        string                `json:"name"`
	NameSource  string                `json:"name_source"`
	AsCustomer  struct{ Tenders int } `json:"as_customer"`
	AsOrganizer struct{ Tenders int } `json:"as_organizer"`
}

// TestOrganizersAndJointPurchases imports the notice fixtures into each
// store and reads the organizers and the customers of a joint purchase
// back through ru.detail, ru.search and contragent.byInn.
func TestOrganizersAndJointPurchases(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) { checkOrganizers(t, store) })
	}
}

func checkOrganizers(t *testing.T, store tenderbase.Store) {
	ctx := context.Background()
	dir := filepath.Join("..", "source", "eis", "testdata", "notice")
	sum, err := importer.Import(ctx, store, []string{dir}, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
	if err != nil || sum.Rejected != 0 {
		t.Fatalf("import of %s: %+v, %v", dir, sum, err)
	}
	set := New(store, nil)
	t.Run("detail", func(t *testing.T) { checkOrganizerDetail(t, set) })
	t.Run("search", func(t *testing.T) { checkOrganizerSearch(t, set) })
	t.Run("byInn", func(t *testing.T) { checkOrganizerActivity(t, set) })
	t.Run("filter", func(t *testing.T) { checkOrganizerFilter(t, set) })
}

// checkOrganizerFilter: ru.search's organizer_inn finds the tenders an
// INN placed, for others as their organizer or for itself as a customer
// whose notice names no other organizer; the groups of analytics.aggregate
// by organizer list their tenders through it, as many as they count.
func checkOrganizerFilter(t *testing.T, set *Set) {
	tests := []struct {
		inn  string
		want []string
	}{
		// The authorized body placed the open tender and the joint one.
		{innCZRT, []string{"0811200000126000042", jointNumber}},
		// The lyceum buys through it: it placed none.
		{innLyceum, nil},
		// The city grid's notice is placed by its parent company.
		{innGES, nil},
	}
	for _, tt := range tests {
		page, _ := decodeCall[pageOf](t, set, tenderbase.PlanFree, "ru.search", `{"organizer_inn": "`+tt.inn+`"}`)
		var got []string
		for _, item := range page.Items {
			got = append(got, recordKey(t, item, "purchase_number"))
		}
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ru.search organizer_inn %s (-want +got):\n%s", tt.inn, diff)
		}
	}
	placed, _ := decodeCall[pageOf](t, set, tenderbase.PlanFree, "ru.search", `{"organizer_inn": "`+innYSK+`"}`)
	found := false
	for _, item := range placed.Items {
		found = found || recordKey(t, item, "purchase_number") == placedNumber
	}
	if !found {
		t.Errorf("ru.search organizer_inn %s: want %s, which it placed for %s, among %d", innYSK, placedNumber, innGES, len(placed.Items))
	}
	agg, _ := decodeCall[aggregateResult](t, set, tenderbase.PlanGuru, "analytics.aggregate", `{"resource": "ru", "by": "organizer", "top": 100}`)
	if len(agg.Groups) < 3 {
		t.Fatalf("analytics.aggregate by organizer: %d groups, want the placers of the fixtures", len(agg.Groups))
	}
	for _, g := range agg.Groups {
		if g.Filter == nil {
			t.Errorf("group %s: no filter", g.Key)
			continue
		}
		body, _ := json.Marshal(g.Filter)
		page, _ := decodeCall[pageOf](t, set, tenderbase.PlanGuru, "ru.search", string(body))
		if page.Total != g.Figures.Count {
			t.Errorf("group %s counts %d; ru.search %s finds %d", g.Key, g.Figures.Count, body, page.Total)
		}
	}
}

// checkOrganizerDetail: the joint purchase names its organizer with its
// role and both customers with their INN, region and part of the price; the
// 223-FZ notice names its placer.
func checkOrganizerDetail(t *testing.T, set *Set) {
	joint, _ := decodeCall[partiesOf](t, set, tenderbase.PlanFree, "ru.detail", `{"id": "`+jointNumber+`"}`)
	if joint.Organizer == nil || joint.Organizer.INN != innCZRT || joint.Organizer.Role != "ORA" ||
		joint.Organizer.RoleName != "Уполномоченный орган в качестве организатора совместного конкурса (аукциона)" {
		t.Errorf("organizer of %s: %+v; want %s as ORA", jointNumber, joint.Organizer, innCZRT)
	}
	type part struct {
		INN, KPP string
		Region   int
		MaxPrice float64
	}
	var parts []part
	for _, c := range joint.Customers {
		parts = append(parts, part{c.INN, c.KPP, c.Region, c.MaxPrice})
	}
	wantParts := []part{{innLyceum, "165401001", 16, 4870315.62}, {innGymnasium, "165501001", 16, 2250500.50}}
	if diff := cmp.Diff(wantParts, parts); diff != "" || joint.Customer.INN != innLyceum {
		t.Errorf("customers of %s: customer %s, parts (-want +got):\n%s", jointNumber, joint.Customer.INN, diff)
	}
	placed, _ := decodeCall[partiesOf](t, set, tenderbase.PlanFree, "ru.detail", `{"id": "`+placedNumber+`"}`)
	if placed.Customer.INN != innGES || placed.Organizer == nil || placed.Organizer.INN != innYSK || placed.Customers != nil {
		t.Errorf("parties of %s: %+v; want customer %s placed by %s", placedNumber, placed, innGES, innYSK)
	}
}

// checkOrganizerSearch: ru.search finds a tender by the name and the INN of
// its organizer and by the INN of each customer of a joint purchase.
func checkOrganizerSearch(t *testing.T, set *Set) {
	tests := []struct {
		query string
		want  []string
	}{
		{innGymnasium, []string{jointNumber}},
		{innCZRT, []string{"0811200000126000042", jointNumber}},
		{`"центр закупок республики татарстан"`, []string{"0811200000126000042", jointNumber}},
		{innGES, []string{placedNumber}},
		{`"ярославская сетевая компания" & электросеть`, []string{placedNumber}},
	}
	for _, tt := range tests {
		page, _ := decodeCall[pageOf](t, set, tenderbase.PlanFree, "ru.search", queryArgs(t, tt.query))
		var got []string
		for _, item := range page.Items {
			got = append(got, recordKey(t, item, "purchase_number"))
		}
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ru.search %s (-want +got):\n%s", tt.query, diff)
		}
	}
}

// checkOrganizerActivity: contragent.byInn counts what an organizer placed
// for others apart from what it bought, names it from those tenders, and
// counts a joint purchase for each of its customers.
func checkOrganizerActivity(t *testing.T, set *Set) {
	tests := []struct {
		inn                  string
		customer, organizer  int
		nameHas, nameFromKey string
	}{
		{innCZRT, 0, 2, "ЦЕНТР ЗАКУПОК", "tender "},
		{innGymnasium, 1, 0, "ГИМНАЗИЯ № 2", "tender " + jointNumber},
		{innLyceum, 2, 0, "ЛИЦЕЙ № 7", "tender "},
		{innYSK, 2, 1, "ЯРОСЛАВСКАЯ СЕТЕВАЯ КОМПАНИЯ", "tender "},
		{innGES, 1, 0, "ГОРОДСКАЯ ЭЛЕКТРОСЕТЬ", "tender " + placedNumber},
		// The legacy notices: the Moscow region's committee organizes both,
		// the second a joint purchase of two Podolsk customers.
		{"5024105372", 0, 2, "КОМИТЕТ ПО КОНКУРЕНТНОЙ ПОЛИТИКЕ", "tender "},
		{"5036081171", 2, 0, "ЦЕНТР ОБСЛУЖИВАНИЯ", "tender "},
		{"5036094523", 1, 0, "ЦЕНТРАЛИЗОВАННАЯ БУХГАЛТЕРИЯ", "tender 0148200005418000327"},
	}
	for _, tt := range tests {
		got, _ := decodeCall[activityOf](t, set, tenderbase.PlanFree, "contragent.byInn", `{"inn": "`+tt.inn+`"}`)
		if got.AsCustomer.Tenders != tt.customer || got.AsOrganizer.Tenders != tt.organizer ||
			!strings.Contains(got.Name, tt.nameHas) || !strings.HasPrefix(got.NameSource, tt.nameFromKey) {
			t.Errorf("contragent.byInn %s: %+v; want %d tenders as customer, %d as organizer, a name with %q from %q",
				tt.inn, got, tt.customer, tt.organizer, tt.nameHas, tt.nameFromKey)
		}
	}
}

// queryArgs returns the arguments of a search for query.
func queryArgs(t *testing.T, query string) string {
	t.Helper()
	b, err := json.Marshal(map[string]string{"query": query})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
