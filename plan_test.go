package tenderbase_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

func TestMaskedHidesTariffFieldsFromFreeOnly(t *testing.T) {
	c := &tenderbase.Complaint{
		ComplaintNumber: "202500100001", VersionNumber: 1, SupplierINN: "7707083893",
		Text: "Жалоба на положения документации", DatePubl: time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC),
	}
	body, hidden, err := tenderbase.Masked(c, tenderbase.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(tenderbase.TariffFields[tenderbase.KindComplaint], hidden); diff != "" {
		t.Errorf("hidden mismatch (-want +got):\n%s", diff)
	}
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		t.Fatal(err)
	}
	for _, f := range hidden {
		v, present := fields[f]
		if !present || v != nil {
			t.Errorf("field %s = %v (present %v), want present and null", f, v, present)
		}
	}
	if fields["complaintNumber"] != "202500100001" {
		t.Errorf("a free field is lost: %v", fields["complaintNumber"])
	}
	for _, p := range []tenderbase.Plan{tenderbase.PlanStandard, tenderbase.PlanGuru, tenderbase.PlanCorporate} {
		body, hidden, err := tenderbase.Masked(c, p)
		if err != nil || hidden != nil {
			t.Fatalf("Masked(%s) hid %v, %v", p, hidden, err)
		}
		if !json.Valid(body) || !jsonHas(t, body, "supplierInn", "7707083893") {
			t.Errorf("Masked(%s) does not show supplierInn: %s", p, body)
		}
	}
}

func jsonHas(t *testing.T, body []byte, field, want string) bool {
	t.Helper()
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		t.Fatal(err)
	}
	return fields[field] == want
}

func TestKeyEffectiveLimits(t *testing.T) {
	k := tenderbase.Key{Plan: tenderbase.PlanStandard}
	if got := k.Effective(); got != tenderbase.Plans[tenderbase.PlanStandard] {
		t.Errorf("Effective() without overrides = %+v", got)
	}
	k.Overrides = tenderbase.Limits{RatePerMinute: 5000, RowCap: -1}
	got := k.Effective()
	if got.RatePerMinute != 5000 || got.RowCap != 0 || got.Burst != tenderbase.Plans[tenderbase.PlanStandard].Burst {
		t.Errorf("Effective() with overrides = %+v", got)
	}
}

func TestParsePlan(t *testing.T) {
	if p, err := tenderbase.ParsePlan(" Guru "); err != nil || p != tenderbase.PlanGuru {
		t.Errorf("ParsePlan(Guru) = %q, %v", p, err)
	}
	if _, err := tenderbase.ParsePlan("platinum"); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
		t.Errorf("ParsePlan(platinum) error = %v", err)
	}
}

func TestUnknownPlanGetsFreeLimits(t *testing.T) {
	k := tenderbase.Key{Plan: "platinum"}
	if got := k.Effective(); got != tenderbase.Plans[tenderbase.PlanFree] {
		t.Errorf("Effective() of an unknown plan = %+v, want the free limits", got)
	}
}

func TestMaskedKeepsFieldOrder(t *testing.T) {
	c := &tenderbase.Complaint{ComplaintNumber: "1", VersionNumber: 2, Text: "т", SupplierName: "ООО «А»"}
	body, _, err := tenderbase.Masked(c, tenderbase.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"complaintNumber":"1","versionNumber":2,"supplierName":"ООО «А»","text":null,"registration_inn":null,"registration_kpp":null,"purchaseNumber":null,"supplierInn":null,"link":null}`
	if string(body) != want {
		t.Errorf("Masked =\n%s\nwant\n%s", body, want)
	}
}

// jsonFields returns the JSON names of the top-level fields of kind k.
func jsonFields(t *testing.T, k tenderbase.Kind) map[string]bool {
	t.Helper()
	r, err := tenderbase.NewRecord(k)
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(r).Elem()
	names := map[string]bool{}
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		names[name] = true
	}
	return names
}

// TestPlanTablesNameFields holds TariffFields and LookupFields to the
// records: every field they name is a field of its kind, and every lookup
// and every text the demo records give comes from a field the tables know,
// so that no lookup or text escapes the rule.
func TestPlanTablesNameFields(t *testing.T) {
	for _, k := range tenderbase.Kinds {
		fields := jsonFields(t, k)
		for _, f := range tenderbase.TariffFields[k] {
			if !fields[f] {
				t.Errorf("TariffFields: %s has no field %s", k, f)
			}
		}
		for lookup, f := range tenderbase.LookupFields[k] {
			if !fields[f] {
				t.Errorf("LookupFields: lookup %s of %s reads %s, which is no field of it", lookup, k, f)
			}
		}
	}
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		for _, l := range r.Lookups() {
			if _, ok := tenderbase.LookupFields[r.Kind()][l.Field]; !ok {
				t.Errorf("%s %s has lookup %s, which LookupFields does not map to a field", r.Kind(), r.Key(), l.Field)
			}
		}
		fields := jsonFields(t, r.Kind())
		for _, text := range r.SearchText() {
			if !fields[text.Field] {
				t.Errorf("%s %s has a text of %s, which is no field of it", r.Kind(), r.Key(), text.Field)
			}
		}
	}
}

func TestRestrict(t *testing.T) {
	byField := func(k tenderbase.Kind, field, value string) tenderbase.Search {
		return tenderbase.Search{Kind: k, Where: []tenderbase.Lookup{{Field: field, Value: value}}}
	}
	tests := []struct {
		name   string
		plan   tenderbase.Plan
		search tenderbase.Search
		params map[string]string
		// want is the search the caller may run, or the code of the error.
		want     tenderbase.Search
		wantCode string
		message  string
	}{
		{name: "free query over a kind with tariff fields", plan: tenderbase.PlanFree,
			search: tenderbase.Search{Kind: tenderbase.KindDoc, Page: 2},
			want:   tenderbase.Search{Kind: tenderbase.KindDoc, Page: 2, OpenTextOnly: true}},
		{name: "free query over a kind without", plan: tenderbase.PlanFree,
			search: tenderbase.Search{Kind: tenderbase.KindLot},
			want:   tenderbase.Search{Kind: tenderbase.KindLot}},
		{name: "paid query", plan: tenderbase.PlanGuru,
			search: tenderbase.Search{Kind: tenderbase.KindDoc},
			want:   tenderbase.Search{Kind: tenderbase.KindDoc}},
		{name: "free lookup by a visible field", plan: tenderbase.PlanFree,
			search: byField(tenderbase.KindComplaint, tenderbase.LookupCustomerINN, "7707083893"),
			want: tenderbase.Search{Kind: tenderbase.KindComplaint, OpenTextOnly: true,
				Where: []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7707083893"}}}},
		{name: "free lookup by a tariff field", plan: tenderbase.PlanFree,
			search:   byField(tenderbase.KindContract, tenderbase.LookupSupplierINN, "7707083893"),
			wantCode: tenderbase.EFORBIDDEN,
			message:  "supplier_inn selects contract records by their field suppliers, which only paid plans see (standard, guru, corporate); your plan is free"},
		{name: "named as the caller gave it", plan: tenderbase.PlanFree,
			search:   byField(tenderbase.KindComplaint, tenderbase.LookupPurchaseNumber, "0373200041524000123"),
			params:   map[string]string{tenderbase.LookupPurchaseNumber: "tend_num"},
			wantCode: tenderbase.EFORBIDDEN,
			message:  "tend_num selects complaint records by their field purchaseNumber, which only paid plans see (standard, guru, corporate); your plan is free"},
		{name: "paid lookup by a tariff field", plan: tenderbase.PlanStandard,
			search: byField(tenderbase.KindProtocol, tenderbase.LookupSupplierINN, "7707083893"),
			want:   byField(tenderbase.KindProtocol, tenderbase.LookupSupplierINN, "7707083893")},
		{name: "a lookup the kind does not have", plan: tenderbase.PlanCorporate,
			search:   byField(tenderbase.KindWorldTender, tenderbase.LookupINN, "7707083893"),
			wantCode: tenderbase.EINVALID,
			message:  "records of kind world_tender have no lookup inn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.plan.Restrict(tt.search, tt.params)
			if code := tenderbase.ErrorCode(err); code != tt.wantCode || tenderbase.ErrorMessage(err) != tt.message {
				t.Fatalf("Restrict error = %v (%s), want %q (%s)", err, code, tt.message, tt.wantCode)
			}
			if diff := gocmp.Diff(tt.want, got); err == nil && diff != "" {
				t.Errorf("Restrict (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTextsSplitByTariffFields(t *testing.T) {
	c := &tenderbase.Contract{
		RegNumber: "2770708389324000001", Subject: "Уборка помещений",
		Customer:  tenderbase.Party{INN: "7707083893", Name: "ГБУ Школа"},
		Suppliers: []tenderbase.Party{{INN: "7701234567", Name: "ООО Чистота"}},
	}
	open := []string{"2770708389324000001", "Уборка помещений", "ГБУ Школа", "7707083893"}
	tariff := []string{"ООО Чистота", "7701234567"}
	if diff := gocmp.Diff(open, tenderbase.OpenText(c)); diff != "" {
		t.Errorf("OpenText (-want +got):\n%s", diff)
	}
	if diff := gocmp.Diff(tariff, tenderbase.TariffText(c)); diff != "" {
		t.Errorf("TariffText (-want +got):\n%s", diff)
	}
	if diff := gocmp.Diff(open, tenderbase.MatchedText(c, true)); diff != "" {
		t.Errorf("MatchedText open only (-want +got):\n%s", diff)
	}
	if diff := gocmp.Diff(append(open, tariff...), tenderbase.MatchedText(c, false)); diff != "" {
		t.Errorf("MatchedText (-want +got):\n%s", diff)
	}
}
