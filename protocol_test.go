package tenderbase_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// TestProtocolLookupsLeaveOutPlaceholders: a masked participant's INN of
// zeros is no lookup, whichever import wrote the protocol; a real INN is.
func TestProtocolLookupsLeaveOutPlaceholders(t *testing.T) {
	party := func(inn string) tenderbase.Participant {
		return tenderbase.Participant{Party: tenderbase.Party{INN: inn, Name: "Участник 1"}}
	}
	p := &tenderbase.Protocol{ID: "1", PurchaseNumber: "0348300011718000213", Participants: []tenderbase.Participant{
		party("0000000000"), party("000000000000"), party("5022054318"), party(""),
	}}
	want := []tenderbase.Lookup{
		{Field: tenderbase.LookupPurchaseNumber, Value: "0348300011718000213"},
		{Field: tenderbase.LookupSupplierINN, Value: "5022054318"},
	}
	if diff := cmp.Diff(want, p.Lookups()); diff != "" {
		t.Errorf("lookups (-want +got):\n%s", diff)
	}
	for inn, want := range map[string]bool{"0000000000": true, "000000000000": true, "5022054318": false, "": false, "0100000000": false} {
		if got := tenderbase.IsPlaceholderINN(inn); got != want {
			t.Errorf("IsPlaceholderINN(%q) = %v; want %v", inn, got, want)
		}
	}
}
