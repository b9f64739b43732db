package storetest

import (
	"context"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// The customer of CustomerFlagRecords and its purchases.
const (
	flagCustomer = "7801000001"
	flagClose    = "0372200000126000001" // one bid; a contract at 99.5% of the initial price
	flagSingle   = "0372200000126000002" // one bid; a contract at 85%
	flagAmended  = "0372200000126000003" // version 4; three bids; a contract at exactly 99%
	flagDirect   = "0372200000126000004" // from a single supplier: one bid, a contract at 100%
	flagUnknown  = "0372200000126000005" // no method stored, version 5, two bids, no contract
	flagLater    = "0372200000126000006" // one bid, no contract, published on day 200
	flagOther    = "0372200000126000007" // another customer's: one bid
)

// CustomerFlagRecords are the notices, protocols and contracts of one
// customer whose figures are worked out by hand in testCustomerFigures.
func CustomerFlagRecords() []tenderbase.Record {
	notice := func(number, inn, code string, version, d int) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: number, Law: tenderbase.Law44, Version: version, Title: "Поставка",
			PlacingMethodCode: code, Customer: tenderbase.Party{INN: inn}, MaxPrice: 1_000_000, Currency: "RUB", PublishedAt: day(d)}
	}
	protocol := func(number string, bids, d int) *tenderbase.Protocol {
		p := &tenderbase.Protocol{ID: "flag-" + number, PurchaseNumber: number, Law: tenderbase.Law44, Type: "fcsProtocolEF3", PublishedAt: day(d)}
		for i := range bids {
			p.Participants = append(p.Participants, tenderbase.Participant{Party: tenderbase.Party{INN: "780200000" + string(rune('1'+i))}, Winner: i == 0})
		}
		return p
	}
	contract := func(number string, price float64, d int) *tenderbase.Contract {
		return &tenderbase.Contract{RegNumber: "27802" + number[5:], Law: tenderbase.Law44, Version: 1, PurchaseNumber: number,
			Customer: tenderbase.Party{INN: flagCustomer}, Price: price, Currency: "RUB",
			Suppliers: []tenderbase.Party{{INN: "7802000001"}}, SignedAt: day(d), PublishedAt: day(d)}
	}
	return []tenderbase.Record{
		notice(flagClose, flagCustomer, "EA20", 1, 1), protocol(flagClose, 1, 11), contract(flagClose, 995_000, 21),
		notice(flagSingle, flagCustomer, "EA20", 1, 2), protocol(flagSingle, 1, 12), contract(flagSingle, 850_000, 22),
		notice(flagAmended, flagCustomer, "EA20", 4, 3), protocol(flagAmended, 3, 13), contract(flagAmended, 990_000, 23),
		notice(flagDirect, flagCustomer, "EP44", 1, 4), protocol(flagDirect, 1, 14), contract(flagDirect, 1_000_000, 24),
		notice(flagUnknown, flagCustomer, "", 5, 5), protocol(flagUnknown, 2, 15),
		notice(flagLater, flagCustomer, "EA20", 1, 200), protocol(flagLater, 1, 210),
		notice(flagOther, "7801000002", "EA20", 1, 6), protocol(flagOther, 1, 16),
	}
}

// testCustomerFigures checks a customer's figures for its red flags
// against CustomerFlagRecords and the real complaint files, counted by
// hand.
func testCustomerFigures(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	cf, ok := st.(tenderbase.CustomerFlagger)
	if !ok {
		t.Skipf("%T counts no customer's figures", st)
	}
	put(t, st, CustomerFlagRecords()...)
	put(t, st, ComplainedNotices()...)
	put(t, st, RealComplaints(t)...)
	figures := func(q tenderbase.CustomerQuestion) tenderbase.CustomerFigures {
		t.Helper()
		got, err := cf.CustomerFigures(context.Background(), q)
		if err != nil {
			t.Fatalf("CustomerFigures %+v: %v", q, err)
		}
		return got
	}
	// Six notices. Competitive with a participant: all but the single
	// supplier's (EP44), the one without a method counting as
	// competitive: 5; one bid: flagClose, flagSingle, flagLater, the
	// newest first. Competitive with an initial price and one contract:
	// flagClose, flagSingle, flagAmended (flagUnknown and flagLater have
	// no contract): 3, of which at 99% or more flagClose (995,000 of
	// 1,000,000) and flagAmended (990,000, exactly 99%). At version 4 or
	// later: flagAmended (4) and flagUnknown (5). No complaint.
	all := figures(tenderbase.CustomerQuestion{INN: flagCustomer})
	want := tenderbase.CustomerFigures{Tenders: 6, Bidded: 5,
		SingleBid: tenderbase.Examples{Count: 3, Purchases: []string{flagLater, flagSingle, flagClose}},
		Priced:    3, Close: tenderbase.Examples{Count: 2, Purchases: []string{flagAmended, flagClose}},
		Amended: tenderbase.Examples{Count: 2, Purchases: []string{flagUnknown, flagAmended}}}
	if diff := gocmp.Diff(want, all); diff != "" {
		t.Errorf("figures of %s (-want +got):\n%s", flagCustomer, diff)
	}
	// Days 0 to 100 leave flagLater out: 5 notices, 4 with a
	// participant, 2 with one.
	period := figures(tenderbase.CustomerQuestion{INN: flagCustomer, From: day(0), To: day(100)})
	if period.Tenders != 5 || period.Bidded != 4 || !gocmp.Equal(period.SingleBid, tenderbase.Examples{Count: 2, Purchases: []string{flagSingle, flagClose}}) {
		t.Errorf("figures of %s from day 0 to 100: want 5 tenders, 4 bidded, 2 single-bid; got %+v", flagCustomer, period)
	}
	// The real complaint 202000151401234 names 6905037125 and was found
	// founded by the check in force; 7701000001's two are undecided.
	upheld := figures(tenderbase.CustomerQuestion{INN: "6905037125"})
	if !gocmp.Equal(upheld.Complaints, tenderbase.Complaints{Count: 1, Upheld: 1}) || !gocmp.Equal(upheld.Upheld, []string{"0336200008720000154"}) {
		t.Errorf("complaints against 6905037125: want 1 upheld, on 0336200008720000154; got %+v", upheld)
	}
	pending := figures(tenderbase.CustomerQuestion{INN: "7701000001"})
	if !gocmp.Equal(pending.Complaints, tenderbase.Complaints{Count: 2, Pending: 2}) || pending.Upheld != nil {
		t.Errorf("complaints against 7701000001: want 2 pending; got %+v", pending)
	}
	// Before 2024 the notice under the complaint's purchase (of day 1,
	// in 2024) is out, and the complaint, of 2020, counts by its own date;
	// from day 100 on neither is in.
	y2024 := time.Date(2024, 1, 1, 0, 0, 0, 0, tenderbase.Moscow)
	if got := figures(tenderbase.CustomerQuestion{INN: "6905037125", To: y2024}); got.Tenders != 0 || got.Complaints.Count != 1 {
		t.Errorf("6905037125 before 2024: want no notice and 1 complaint, got %+v", got)
	}
	if got := figures(tenderbase.CustomerQuestion{INN: "6905037125", From: day(100)}); got.Tenders != 0 || got.Complaints.Count != 0 {
		t.Errorf("6905037125 from day 100: want nothing, got %+v", got)
	}
	for _, q := range []tenderbase.CustomerQuestion{{INN: "78010"}, {INN: flagCustomer, From: day(5), To: day(1)}} {
		if _, err := cf.CustomerFigures(context.Background(), q); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("CustomerFigures %+v: want EINVALID, got %v", q, err)
		}
	}
}
