package tools

import (
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestLotState: a search hit says a lot is suspended while its procedure is
// stopped, and what it became once it ended.
func TestLotState(t *testing.T) {
	for _, tt := range []struct {
		status    string
		suspended bool
		want      string
	}{
		{tenderbase.TenderActive, false, "active"},
		{tenderbase.TenderActive, true, "suspended"},
		{tenderbase.TenderCancelled, true, "cancelled"},
	} {
		if got := lotHitOf(&tenderbase.Lot{Status: tt.status, Suspended: tt.suspended}).State; got != tt.want {
			t.Errorf("%s, suspended %v: %s, want %s", tt.status, tt.suspended, got, tt.want)
		}
	}
}
