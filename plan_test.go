package tenderbase_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
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
	if diff := cmp.Diff(tenderbase.TariffFields[tenderbase.KindComplaint], hidden); diff != "" {
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
