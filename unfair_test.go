package tenderbase_test

import (
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

// TestUnfairInRegister checks on which days an entry bars its supplier: an
// included entry until the day it leaves the register by itself, an entry
// without that day for as long as it is included, and never an excluded or
// refused one.
func TestUnfairInRegister(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.ParseInLocation(time.DateOnly, s, tenderbase.Moscow)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		state, excludeOn, on string
		want                 bool
	}{
		{tenderbase.UnfairIncluded, "2025-04-11", "2025-04-10", true},
		{tenderbase.UnfairIncluded, "2025-04-11", "2025-04-11", false},
		{tenderbase.UnfairIncluded, "", "2040-01-01", true},
		{tenderbase.UnfairExcluded, "2025-04-11", "2024-01-01", false},
		{tenderbase.UnfairRefused, "", "2024-01-01", false},
	}
	for _, tt := range tests {
		u := &tenderbase.UnfairSupplier{RegistryNumber: "1", State: tt.state, ExcludeOn: tt.excludeOn}
		if got := u.InRegister(day(tt.on)); got != tt.want {
			t.Errorf("%s until %q, on %s: in the register %v, want %v", tt.state, tt.excludeOn, tt.on, got, tt.want)
		}
	}
}

// TestUnfairRoleOf checks how an entry names each INN it holds.
func TestUnfairRoleOf(t *testing.T) {
	u := &tenderbase.UnfairSupplier{
		Supplier: tenderbase.UnfairParty{Name: "ООО «Ромашка»", INN: "7404840216"},
		Branch:   &tenderbase.UnfairParty{Name: "Филиал", INN: "7404840217"},
		Founders: []tenderbase.UnfairPerson{{Name: "Петров П. П.", INN: "740400012345"}, {Name: "Без ИНН"}},
	}
	for inn, want := range map[string][2]string{
		"7404840216":   {tenderbase.UnfairRoleSupplier, "ООО «Ромашка»"},
		"7404840217":   {tenderbase.UnfairRoleBranch, "Филиал"},
		"740400012345": {tenderbase.UnfairRoleFounder, "Петров П. П."},
		"7707227200":   {"", ""},
		"":             {"", ""},
	} {
		if role, name := u.RoleOf(inn), u.NameOf(inn); role != want[0] || name != want[1] {
			t.Errorf("INN %q: role %q, name %q; want %q, %q", inn, role, name, want[0], want[1])
		}
	}
}
