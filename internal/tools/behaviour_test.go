package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// wideQuery finds every one of the 100 demo tenders, more than a free plan
// may page through.
const wideQuery = `"query": "оказание | поставка | выполнение"`

// pageOf is the part of a search result the row cap decides.
type pageOf struct {
	Total    int               `json:"total"`
	Page     int               `json:"page"`
	PageSize int               `json:"page_size"`
	RowCap   int               `json:"row_cap"`
	Notice   string            `json:"notice"`
	Items    []json.RawMessage `json:"items"`
}

func searchPage(t *testing.T, ctx context.Context, args string) pageOf {
	t.Helper()
	out, err := call(t, demoSet, ctx, "ru.search", args)
	if err != nil {
		t.Fatalf("%s: %v", args, err)
	}
	validateOutput(t, "ru.search", out)
	var p pageOf
	if err := json.Unmarshal(out.Value, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRowCap(t *testing.T) {
	free := asPlan(tenderbase.PlanFree)
	capped := func(n int) context.Context {
		return tenderbase.NewContextWithKey(context.Background(), tenderbase.Key{Plan: tenderbase.PlanFree, Overrides: tenderbase.Limits{RowCap: n}})
	}
	for _, c := range []struct {
		name   string
		ctx    context.Context
		args   string
		items  int
		rowCap int
		notice string // a fragment; "" for none
	}{
		{"free first page", free, `{` + wideQuery + `}`, 20, 30, ""},
		{"free page straddling the cap", free, `{` + wideQuery + `, "page": 1}`, 10, 30, "shows the first 30 rows of a search; this page stops at row 30. More rows: standard (500 rows), guru (1000 rows), corporate (all rows)"},
		{"free page at the cap", free, `{` + wideQuery + `, "page": 2}`, 0, 30, "this page starts at row 41, past them"},
		{"free page far past the cap", free, `{` + wideQuery + `, "page": 40}`, 0, 30, "starts at row 801"},
		{"free search within the cap", free, `{"query": "охраны"}`, 8, 0, ""},
		{"standard", asPlan(tenderbase.PlanStandard), `{` + wideQuery + `, "page": 4}`, 20, 0, ""},
		{"standard past the last page", asPlan(tenderbase.PlanStandard), `{` + wideQuery + `, "page": 5}`, 0, 0, ""},
		{"a key's own cap", capped(5), `{` + wideQuery + `}`, 5, 5, "first 5 rows"},
		{"a key without a cap", capped(-1), `{` + wideQuery + `, "page": 4}`, 20, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := searchPage(t, c.ctx, c.args)
			if p.Total != 100 && !strings.Contains(c.args, "охраны") {
				t.Errorf("total %d, want the exact 100 whatever the cap", p.Total)
			}
			if len(p.Items) != c.items || p.RowCap != c.rowCap || p.PageSize != 20 {
				t.Errorf("%d items, row_cap %d, page_size %d; want %d items, row_cap %d", len(p.Items), p.RowCap, p.PageSize, c.items, c.rowCap)
			}
			if (c.notice == "") != (p.Notice == "") || !strings.Contains(p.Notice, c.notice) {
				t.Errorf("notice %q, want %q", p.Notice, c.notice)
			}
		})
	}
	// The rows a free caller sees are the first rows a paid caller sees.
	cut := searchPage(t, free, `{`+wideQuery+`, "page": 1}`)
	whole := searchPage(t, asPlan(tenderbase.PlanStandard), `{`+wideQuery+`, "page": 1}`)
	for i := range cut.Items {
		if key(t, cut.Items[i]) != key(t, whole.Items[i]) {
			t.Errorf("row %d: free sees %s, standard %s", 20+i, key(t, cut.Items[i]), key(t, whole.Items[i]))
		}
	}
}

func key(t *testing.T, item json.RawMessage) string {
	t.Helper()
	var r struct {
		PurchaseNumber string `json:"purchase_number"`
	}
	if err := json.Unmarshal(item, &r); err != nil {
		t.Fatal(err)
	}
	return r.PurchaseNumber
}

// emptySet returns the tools over a new store holding recs.
func emptySet(t *testing.T, recs ...tenderbase.Record) *Set {
	t.Helper()
	return New(storeOf(t, recs...), nil)
}

// storeOf returns a new store holding recs.
func storeOf(t *testing.T, recs ...tenderbase.Record) *sqlite.Store {
	t.Helper()
	store := newStore(t)
	if _, err := store.Put(context.Background(), recs); err != nil {
		t.Fatal(err)
	}
	return store
}

// newStore opens a new SQLite store, closed when the test ends.
func newStore(t *testing.T) *sqlite.Store {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

func TestIzmChanged(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2025, 3, d, 10, 0, 0, 0, time.UTC) }
	v1 := &tenderbase.Tender{
		PurchaseNumber: "0373200041525000001", Law: "44", Version: 1, Title: "Поставка бумаги",
		Customer: tenderbase.Party{INN: "7712137030", Name: "ГБУЗ «ГКБ № 7»"}, MaxPrice: 100, PublishedAt: day(1),
	}
	v2 := *v1
	v2.Version, v2.PublishedAt, v2.Title, v2.MaxPrice = 2, day(3), "Поставка бумаги для офисной техники", 120
	v2.Change = &tenderbase.Change{Reason: "Уточнение наименования", Fields: []string{"lots"}, PublishedAt: day(3)}
	v3 := v2
	v3.Version, v3.PublishedAt, v3.Change = 3, day(5), &tenderbase.Change{Reason: "Контакт"}
	v3.Contact = tenderbase.Contact{Person: "Иванова И. И."}
	once := &tenderbase.Tender{PurchaseNumber: "32500000001", Law: "223", Version: 1, Title: "Ремонт кровли", PublishedAt: day(2)}
	set := emptySet(t, &v3, v1, &v2, once)

	for _, c := range []struct {
		plan   tenderbase.Plan
		number string
		want   []izmVersion
	}{
		{tenderbase.PlanStandard, v1.PurchaseNumber, []izmVersion{
			{Version: 1, PublishedAt: day(1), Changed: []string{}},
			{Version: 2, PublishedAt: day(3), Reason: "Уточнение наименования", Changed: []string{"lots", "max_price", "title"}},
			{Version: 3, PublishedAt: day(5), Reason: "Контакт", Changed: []string{"contact"}},
		}},
		// A free caller is not told that a field it does not see changed.
		{tenderbase.PlanFree, v1.PurchaseNumber, []izmVersion{
			{Version: 1, PublishedAt: day(1), Changed: []string{}},
			{Version: 2, PublishedAt: day(3), Reason: "Уточнение наименования", Changed: []string{"lots", "max_price", "title"}},
			{Version: 3, PublishedAt: day(5), Reason: "Контакт", Changed: []string{}},
		}},
		{tenderbase.PlanFree, once.PurchaseNumber, []izmVersion{{Version: 1, PublishedAt: day(2), Changed: []string{}}}},
	} {
		out, err := call(t, set, asPlan(c.plan), "ru.izm", `{"tend_num": "`+c.number+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		var got izmResult
		if err := json.Unmarshal(out.Value, &got); err != nil {
			t.Fatal(err)
		}
		got.Timeline = nil // TestIzmTimeline's business
		for i := range got.Versions {
			got.Versions[i].Record = nil
			got.Versions[i].PublishedAt = got.Versions[i].PublishedAt.UTC()
		}
		if diff := cmp.Diff(izmResult{PurchaseNumber: c.number, Versions: c.want}, got); diff != "" {
			t.Errorf("ru.izm %s as %s (-want +got):\n%s", c.number, c.plan, diff)
		}
	}
}

// demoIndex is the demo dataset by kind, current versions only.
func demoIndex(t *testing.T) map[tenderbase.Kind][]tenderbase.Record {
	t.Helper()
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]tenderbase.Record{}
	var order []string
	for _, r := range recs {
		k := string(r.Kind()) + "/" + r.Key()
		if old, ok := current[k]; !ok {
			order = append(order, k)
		} else if old.Revision() > r.Revision() {
			continue
		}
		current[k] = r
	}
	idx := map[tenderbase.Kind][]tenderbase.Record{}
	for _, k := range order {
		r := current[k]
		idx[r.Kind()] = append(idx[r.Kind()], r)
	}
	return idx
}

func TestContractByNumWinners(t *testing.T) {
	const number = "0162307330523677748"
	idx := demoIndex(t)
	var want winnerResult
	for _, r := range idx[tenderbase.KindTender] {
		if tn := r.(*tenderbase.Tender); tn.PurchaseNumber == number {
			for _, p := range tn.Participants {
				if p.Winner || p.Rank == 1 {
					want.Winners = append(want.Winners, p)
				}
			}
		}
	}
	var wantContracts []string
	for _, r := range idx[tenderbase.KindContract] {
		if r.(*tenderbase.Contract).PurchaseNumber == number {
			wantContracts = append(wantContracts, r.Key())
		}
	}
	if len(want.Winners) == 0 || len(wantContracts) == 0 {
		t.Fatalf("demo tender %s has %d winners and %d contracts; pick another", number, len(want.Winners), len(wantContracts))
	}
	out, err := call(t, demoSet, asPlan(tenderbase.PlanGuru), "ru.contractByNum", `{"tend_num": "`+number+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	var got winnerResult
	if err := json.Unmarshal(out.Value, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Winners, got.Winners); diff != "" {
		t.Errorf("winners (-want +got):\n%s", diff)
	}
	var gotContracts []string
	for _, c := range got.Contracts {
		var rec struct {
			RegNumber string `json:"reg_number"`
		}
		json.Unmarshal(c, &rec)
		gotContracts = append(gotContracts, rec.RegNumber)
	}
	slices.Sort(wantContracts)
	slices.Sort(gotContracts)
	if diff := cmp.Diff(wantContracts, gotContracts); diff != "" {
		t.Errorf("contracts (-want +got):\n%s", diff)
	}
	if got.Tender == nil || got.Tender.PurchaseNumber != number {
		t.Errorf("tender summary %+v", got.Tender)
	}
}

func TestContractByNumPartlyKnown(t *testing.T) {
	contract := &tenderbase.Contract{RegNumber: "3771213703025000001", PurchaseNumber: "0373200041525000009", Subject: "Бумага", Price: 10}
	tender := &tenderbase.Tender{PurchaseNumber: "0373200041525000010", Law: "44", Version: 1, Title: "Картриджи"}
	set := emptySet(t, contract, tender)
	for _, c := range []struct {
		number, want string
	}{
		{contract.PurchaseNumber, `"tender":null,"winners":[],"protocols":[],"contracts":[{`},
		{tender.PurchaseNumber, `"winners":[],"protocols":[],"contracts":[]}`},
	} {
		out, err := call(t, set, asPlan(tenderbase.PlanStandard), "ru.contractByNum", `{"tend_num": "`+c.number+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out.Value), c.want) {
			t.Errorf("%s: %s lacks %s", c.number, out.Value, c.want)
		}
	}
}

func TestByInnActivity(t *testing.T) {
	idx := demoIndex(t)
	for _, inn := range []string{"1601303298", "6620257938", "591042517379"} {
		want := innResult{innName: innName{INN: inn, NameSource: "org"},
			AsSupplier: &contractActivity{}, AsParticipant: &participantActivity{}}
		want.AsCustomer.ContractsSum, want.AsSupplier.ContractsSum = map[string]float64{}, map[string]float64{}
		want.Complaints.AsSupplier = new(int)
		for _, r := range idx[tenderbase.KindTender] {
			if r.(*tenderbase.Tender).Customer.INN == inn {
				want.AsCustomer.Tenders++
			}
		}
		for _, r := range idx[tenderbase.KindContract] {
			c := r.(*tenderbase.Contract)
			if c.Customer.INN == inn {
				want.AsCustomer.Contracts++
				want.AsCustomer.ContractsSum[currency(c.Currency)] += c.Price
			}
			if slices.ContainsFunc(c.Suppliers, func(p tenderbase.Party) bool { return p.INN == inn }) {
				want.AsSupplier.Contracts++
				want.AsSupplier.ContractsSum[currency(c.Currency)] += c.Price
			}
		}
		won := map[string]bool{}
		for _, r := range idx[tenderbase.KindProtocol] {
			p := r.(*tenderbase.Protocol)
			if slices.ContainsFunc(p.Participants, func(part tenderbase.Participant) bool { return part.INN == inn }) {
				want.AsParticipant.Protocols++
			}
			if slices.ContainsFunc(p.Winners(), func(w tenderbase.Participant) bool { return w.INN == inn }) {
				won[p.PurchaseNumber+"/"+strconv.Itoa(p.LotNumber)] = true
			}
		}
		want.AsParticipant.Wins = len(won)
		for _, r := range idx[tenderbase.KindComplaint] {
			c := r.(*tenderbase.Complaint)
			if c.CustomerINN == inn {
				want.Complaints.AsCustomer++
			}
			if c.SupplierINN == inn {
				*want.Complaints.AsSupplier++
			}
		}
		for _, r := range idx[tenderbase.KindOrg] {
			if r.Key() == inn {
				want.Name = r.(*tenderbase.Org).Name
			}
		}
		want.RNP = wantRNP(idx[tenderbase.KindUnfairSupplier], inn)
		for _, r := range idx[tenderbase.KindLot] {
			l := r.(*tenderbase.Lot)
			if l.Debtor.INN == inn {
				want.Lots.AsDebtor++
			}
			if l.Organizer.INN == inn || l.Manager.INN == inn {
				want.Lots.AsOrganizer++
			}
		}
		out, err := call(t, demoSet, asPlan(tenderbase.PlanStandard), "contragent.byInn", `{"inn": "`+inn+`"}`)
		if err != nil {
			t.Fatal(err)
		}
		var got innResult
		if err := json.Unmarshal(out.Value, &got); err != nil {
			t.Fatal(err)
		}
		got.Org, got.FASCases, got.Lots.Items = nil, 0, nil
		round := cmp.Comparer(func(a, b float64) bool { return a-b < 0.005 && b-a < 0.005 })
		if diff := cmp.Diff(want, got, round, cmp.AllowUnexported(innResult{}, customerActivity{})); diff != "" {
			t.Errorf("INN %s (-want +got):\n%s", inn, diff)
		}
		if inn != "1601303298" && (want.AsParticipant.Protocols == 0 || want.AsParticipant.Wins == 0) {
			t.Errorf("INN %s is in no protocol or won none in the demo data; pick another", inn)
		}
		if want.AsCustomer.Contracts+want.AsSupplier.Contracts == 0 {
			t.Errorf("INN %s has no contracts in the demo data; pick another", inn)
		}
	}
}

func TestByInnWithoutOrg(t *testing.T) {
	const inn = "500100732259"
	older := &tenderbase.Contract{RegNumber: "1", Subject: "a", Price: 100.1, Currency: "RUB",
		Suppliers: []tenderbase.Party{{INN: inn, Name: "ИП Старое Имя"}}, SignedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	newer := &tenderbase.Contract{RegNumber: "2", Subject: "b", Price: 0.2, Currency: "EUR",
		Suppliers: []tenderbase.Party{{INN: inn, Name: "ИП Новое Имя"}}, SignedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	third := &tenderbase.Contract{RegNumber: "3", Subject: "c", Price: 0.2,
		Suppliers: []tenderbase.Party{{INN: inn, Name: "ИП Старое Имя"}}, SignedAt: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)}
	set := emptySet(t, older, newer, third)

	// A free caller does not see suppliers: nothing is known of the INN.
	if _, err := call(t, set, asPlan(tenderbase.PlanFree), "contragent.byInn", `{"inn": "`+inn+`"}`); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("free caller: %v, want not found", err)
	}
	out, err := call(t, set, asPlan(tenderbase.PlanStandard), "contragent.byInn", `{"inn": "`+inn+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"inn":"500100732259","name":"ИП Новое Имя","name_source":"contract 2","org":null,` +
		`"as_customer":{"tenders":0,"planned":0,"contracts":0,"contracts_sum":{}},"as_organizer":{"tenders":0},` +
		`"as_supplier":{"contracts":3,"contracts_sum":{"EUR":0.2,"RUB":100.3}},` +
		`"as_participant":{"protocols":0,"wins":0},` +
		`"complaints":{"as_customer":0,"as_supplier":0},"fas_cases":0,"rnp":{"in_register":false,"entries":0,"items":[]},` +
		`"lots":{"as_debtor":0,"as_organizer":0,"items":[]}}`
	if string(out.Value) != want {
		t.Errorf("got  %s\nwant %s", out.Value, want)
	}
	if len(out.Restricted) != 0 {
		t.Errorf("restricted %v with no record to hide anything in", out.Restricted)
	}

	// A scan bound too small for the contracts gives exact counts and
	// partial sums of the newest.
	set.scanPages, set.scanPageSize = 1, 2
	out, err = call(t, set, asPlan(tenderbase.PlanStandard), "contragent.byInn", `{"inn": "`+inn+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"as_supplier":{"contracts":3,"contracts_sum":{"EUR":0.2,"RUB":100.1}}`, `"sums_partial":true`} {
		if !strings.Contains(string(out.Value), part) {
			t.Errorf("%s lacks %s", out.Value, part)
		}
	}
}

func TestContacts(t *testing.T) {
	const inn = "7712137030"
	seen := func(d int) time.Time { return time.Date(2025, 1, d, 0, 0, 0, 0, time.UTC) }
	org := &tenderbase.Org{INN: inn, Name: "ГБУЗ «ГКБ № 7»", Contacts: []tenderbase.OrgContact{
		{Contact: tenderbase.Contact{Address: "Москва, ул. А, 1"}, Source: "egrul", SeenAt: seen(1)},
		{Contact: tenderbase.Contact{Address: "Москва, ул. Б, 2"}, Source: "egrul", SeenAt: seen(2)},
		{Contact: tenderbase.Contact{Person: "Иванова  Инна", Email: "Zakupki@gkb7.ru", Phone: "+7 (495) 111-22-33"}, Source: "contract 1", SeenAt: seen(3)},
	}}
	notice := func(n string, d int, c tenderbase.Contact) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: n, Law: "44", Version: 1, Title: "t", Customer: tenderbase.Party{INN: inn}, Contact: c, PublishedAt: seen(d)}
	}
	set := emptySet(t, org,
		notice("0373200041525000001", 4, tenderbase.Contact{Person: "иванова инна", Email: "zakupki@gkb7.ru", Phone: "84951112233"}),
		notice("0373200041525000002", 5, tenderbase.Contact{Person: "Петров П.", Phone: "+7 495 000-00-00"}),
		notice("0373200041525000003", 6, tenderbase.Contact{}),
		&tenderbase.Contract{RegNumber: "2771213703025000001", Law: "44", SignedAt: seen(7), Suppliers: []tenderbase.Party{
			{INN: inn, Address: "Москва, ул. В, 3", Contact: tenderbase.Contact{Person: "Сидоров С.", Email: "s@gkb7.ru"}},
			{INN: "7700000001", Contact: tenderbase.Contact{Phone: "+7 495 999-99-99"}},
		}},
		&tenderbase.Protocol{ID: "1", PurchaseNumber: "0373200041525000009", Law: "44", Version: 1, PublishedAt: seen(8),
			Participants: []tenderbase.Participant{{Party: tenderbase.Party{INN: inn,
				Contact: tenderbase.Contact{Person: "Иванова Инна", Email: "zakupki@gkb7.ru", Phone: "8 495 111 22 33"}}}}},
	)
	out, err := call(t, set, asPlan(tenderbase.PlanCorporate), "contragent.contacts", `{"inn": "`+inn+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	validateOutput(t, "contragent.contacts", out)
	var got contactsResult
	if err := json.Unmarshal(out.Value, &got); err != nil {
		t.Fatal(err)
	}
	var sources []string
	for _, c := range got.Contacts {
		sources = append(sources, c.Source+" "+c.SeenAt.Format("02"))
	}
	// The same person, e-mail and phone seen in contract 1, notice 1 and a
	// protocol is listed once, where it was seen last; register addresses
	// stay apart; a contract's other supplier is not the INN's.
	want := []string{"protocol 0373200041525000009 08", "contract 2771213703025000001 07",
		"notice 0373200041525000002 05", "egrul 02", "egrul 01"}
	if diff := cmp.Diff(want, sources); diff != "" {
		t.Errorf("contacts (-want +got):\n%s", diff)
	}
	if c := got.Contacts[1]; c.Address != "Москва, ул. В, 3" || c.Email != "s@gkb7.ru" {
		t.Errorf("contract contact %+v, want the supplier's e-mail and address", c)
	}
	if got.Name != org.Name || got.NameSource != "org" {
		t.Errorf("name %q from %q", got.Name, got.NameSource)
	}
}

// wantRNP is the rnp section of contragent.byInn of inn, worked out from
// the entries: each naming inn, newest inclusion first.
func wantRNP(entries []tenderbase.Record, inn string) rnpStanding {
	want := rnpStanding{Items: []rnpEntry{}}
	now := time.Now()
	for _, r := range entries {
		u := r.(*tenderbase.UnfairSupplier)
		if u.RoleOf(inn) == "" {
			continue
		}
		e := rnpEntryOf(u, inn, now)
		want.Entries++
		want.InRegister = want.InRegister || e.InRegister
		want.Items = append(want.Items, e)
	}
	slices.SortFunc(want.Items, func(a, b rnpEntry) int { return b.Since.Compare(a.Since) })
	return want
}
