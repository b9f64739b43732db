package redflags

import (
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestCustomerThresholds checks the flags of a customer at their
// thresholds: a share of exactly 20% does not fire and one above does;
// a share over 4 procedures cannot tell and one over 5 can; a complaint
// upheld in part fires, pending ones cannot tell, dismissed ones do not.
func TestCustomerThresholds(t *testing.T) {
	ex := func(n int) tenderbase.Examples { return tenderbase.Examples{Count: n} }
	for _, c := range []struct {
		name  string
		f     tenderbase.CustomerFigures
		rule  int
		state string
	}{
		{"single bids 20% exactly", tenderbase.CustomerFigures{Bidded: 10, SingleBid: ex(2)}, 0, NotFired},
		{"single bids 3 of 14, 21.4%", tenderbase.CustomerFigures{Bidded: 14, SingleBid: ex(3)}, 0, Fired},
		{"single bids over 4 procedures", tenderbase.CustomerFigures{Bidded: 4, SingleBid: ex(4)}, 0, CannotTell},
		{"single bids over 5 procedures", tenderbase.CustomerFigures{Bidded: 5, SingleBid: ex(2)}, 0, Fired},
		{"close 1 of 5", tenderbase.CustomerFigures{Priced: 5, Close: ex(1)}, 1, NotFired},
		{"close 2 of 5", tenderbase.CustomerFigures{Priced: 5, Close: ex(2)}, 1, Fired},
		{"amended 0 of 50", tenderbase.CustomerFigures{Tenders: 50}, 2, NotFired},
		{"amended 11 of 50", tenderbase.CustomerFigures{Tenders: 50, Amended: ex(11)}, 2, Fired},
		{"no complaint", tenderbase.CustomerFigures{}, 3, NotFired},
		{"partly upheld", tenderbase.CustomerFigures{Complaints: tenderbase.Complaints{Count: 2, Partly: 1, Pending: 1}}, 3, Fired},
		{"pending", tenderbase.CustomerFigures{Complaints: tenderbase.Complaints{Count: 2, Dismissed: 1, Pending: 1}}, 3, CannotTell},
		{"dismissed", tenderbase.CustomerFigures{Complaints: tenderbase.Complaints{Count: 1, Dismissed: 1}}, 3, NotFired},
	} {
		got := CheckCustomer(c.f)
		if len(got) != 4 {
			t.Fatalf("%s: %d flags, want 4", c.name, len(got))
		}
		if f := got[c.rule]; f.State != c.state {
			t.Errorf("%s: %s is %s, want %s (%v, %s)", c.name, f.Rule, f.State, c.state, f.Because, f.Missing)
		}
	}
}
