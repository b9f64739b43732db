package redflags

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// at returns the moment of a date and time in Moscow, as the EIS writes
// them ("2020-03-02T09:00").
func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02T15:04", s, tenderbase.Moscow)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// auction is a 44-FZ electronic auction of the old law's notice family
// placed on placed, its applications ending on deadline.
func auction(t *testing.T, maxPrice float64, placed, deadline string) *tenderbase.Tender {
	return &tenderbase.Tender{
		PurchaseNumber: "0373200000120000001", Law: tenderbase.Law44, Version: 1,
		PlacingMethod: "Электронный аукцион", PlacingMethodCode: "EAP44", MaxPrice: maxPrice,
		PublishedAt: at(t, placed), ApplicationsStart: at(t, placed), ApplicationsDeadline: at(t, deadline),
	}
}

func protocol(number string, lot int, date time.Time, parts ...tenderbase.Participant) *tenderbase.Protocol {
	return &tenderbase.Protocol{ID: number, Number: number, Type: "fcsProtocolEF3", LotNumber: lot, ProtocolDate: date, PublishedAt: date, Participants: parts}
}

func bidder(inn string, price float64, rank int) tenderbase.Participant {
	return tenderbase.Participant{Party: tenderbase.Party{INN: inn}, Price: price, Rank: rank}
}

// state returns the state of rule among flags, and its figures or what it
// misses.
func stateOf(t *testing.T, flags []Flag, rule string) Flag {
	t.Helper()
	for _, f := range flags {
		if f.Rule == rule {
			return f
		}
	}
	t.Fatalf("no flag %s among %+v", rule, flags)
	return Flag{}
}

type want struct {
	state   string
	because []string
	missing string
}

func check(t *testing.T, e Evidence, rule string, w want) {
	t.Helper()
	f := stateOf(t, Check(e, at(t, "2026-12-01T12:00")), rule)
	if w.because == nil {
		w.because = []string{}
	}
	got := want{f.State, f.Because, f.Missing}
	if diff := cmp.Diff(w, got, cmp.AllowUnexported(want{})); diff != "" {
		t.Errorf("%s (-want +got):\n%s", rule, diff)
	}
}

func TestSingleBid(t *testing.T) {
	d := at(t, "2020-03-10T10:00")
	tender := auction(t, 1_000_000, "2020-03-02T09:00", "2020-03-10T09:00")
	tests := []struct {
		name string
		e    Evidence
		want want
	}{
		{"one application", Evidence{Tender: tender, Protocols: []*tenderbase.Protocol{protocol("P-1", 0, d, bidder("7701000001", 990000, 1))}},
			want{Fired, []string{"1 application in protocol P-1 (fcsProtocolEF3) of 2020-03-10"}, ""}},
		// The summary names the winner alone; the first parts named two.
		{"the most any protocol names", Evidence{Tender: tender, Protocols: []*tenderbase.Protocol{
			protocol("P-3", 0, d, bidder("7701000001", 990000, 1)),
			protocol("P-1", 0, d.AddDate(0, 0, -1), bidder("", 0, 0), bidder("", 0, 0)),
		}}, want{NotFired, []string{"2 applications in protocol P-1 (fcsProtocolEF3) of 2020-03-09"}, ""}},
		{"one lot of two", Evidence{Tender: tender, Protocols: []*tenderbase.Protocol{
			protocol("P-2", 2, d, bidder("7701000001", 1, 1)),
			protocol("P-1", 1, d, bidder("7701000001", 1, 1), bidder("7701000002", 2, 2)),
		}}, want{Fired, []string{"2 applications in protocol P-1 (fcsProtocolEF3, lot 1) of 2020-03-10", "1 application in protocol P-2 (fcsProtocolEF3, lot 2) of 2020-03-10"}, ""}},
		{"a single supplier", Evidence{Tender: &tenderbase.Tender{PlacingMethod: "Закупка у единственного поставщика (подрядчика, исполнителя)", PlacingMethodCode: "EP44"}},
			want{NotFired, []string{"a purchase from a single supplier (Закупка у единственного поставщика (подрядчика, исполнителя), EP44): no bidding to count"}, ""}},
		{"a single supplier's protocol", Evidence{Protocols: []*tenderbase.Protocol{{ID: "u1", Number: "31704807799-01", Type: "purchaseProtocolPAEP",
			Participants: []tenderbase.Participant{bidder("6829105817", 1, 1)}}}},
			want{NotFired, []string{"a purchase from a single supplier (protocol 31704807799-01, purchaseProtocolPAEP): no bidding to count"}, ""}},
		{"no protocol", Evidence{Tender: tender}, want{CannotTell, nil, "no stored protocol of the tender names its applications"}},
		{"no notice", Evidence{Protocols: []*tenderbase.Protocol{protocol("P-1", 0, d, bidder("7701000001", 1, 1))}},
			want{Fired, []string{"1 application in protocol P-1 (fcsProtocolEF3) of 2020-03-10", "the placing method is not stored: a competitive procedure is assumed"}, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check(t, tt.e, "single_bid", tt.want) })
	}
}

func TestPriceCloseToInitial(t *testing.T) {
	d := at(t, "2020-03-10T10:00")
	tender := auction(t, 1_000_000, "2020-03-02T09:00", "2020-03-10T09:00")
	contract := func(reg string, price float64) *tenderbase.Contract {
		return &tenderbase.Contract{RegNumber: reg, Price: price}
	}
	tests := []struct {
		name string
		e    Evidence
		want want
	}{
		{"99% exactly", Evidence{Tender: tender, Contracts: []*tenderbase.Contract{contract("C1", 990000)}},
			want{Fired, []string{"the price of contract C1 990 000.00 is 99.0% of the initial price 1 000 000.00 RUB"}, ""}},
		// 98.96% is not 99%, and is not written as 99.0%.
		{"just under 99%", Evidence{Tender: tender, Contracts: []*tenderbase.Contract{contract("C1", 989600)}},
			want{NotFired, []string{"the price of contract C1 989 600.00 is 98.9% of the initial price 1 000 000.00 RUB"}, ""}},
		{"the winner's offer when no contract", Evidence{Tender: tender, Protocols: []*tenderbase.Protocol{protocol("P-3", 0, d, bidder("7701000001", 995000, 1), bidder("7701000002", 999000, 2))}},
			want{Fired, []string{"the winner's offer (7701000001 in protocol P-3) 995 000.00 is 99.5% of the initial price 1 000 000.00 RUB"}, ""}},
		{"above the initial price", Evidence{Tender: tender, Contracts: []*tenderbase.Contract{contract("C1", 1_020_000)}},
			want{Fired, []string{"the price of contract C1 1 020 000.00 is 102.0% of the initial price 1 000 000.00 RUB"}, ""}},
		{"no price", Evidence{Tender: tender}, want{CannotTell, nil, "no contract of the tender, and no winner's offer in its protocols, states a price in the notice's currency"}},
		{"two lots", Evidence{Tender: &tenderbase.Tender{PlacingMethodCode: "EA20", MaxPrice: 1, Lots: []tenderbase.TenderLot{{Number: 1}, {Number: 2}}}},
			want{CannotTell, nil, "the tender has 2 lots and its contracts do not say their lot"}},
		{"no notice", Evidence{}, want{CannotTell, nil, "no notice of the tender is stored: its initial price is unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check(t, tt.e, "price_close_to_initial", tt.want) })
	}
}

func TestShortDeadline(t *testing.T) {
	tests := []struct {
		name string
		e    Evidence
		want want
	}{
		// Placed on the 2nd, applications end on the 8th: 6 days.
		{"6 days under 3 million", Evidence{Tender: auction(t, 3_000_000, "2020-03-02T17:00", "2020-03-08T09:00")},
			want{Fired, []string{"applications window 6 days (applications_start of the notice placed 2020-03-02, applications end 2020-03-08); the minimum of 44-FZ art. 63 part 2: an initial price not over 3 million roubles is 7 days"}, ""}},
		{"7 days under 3 million", Evidence{Tender: auction(t, 3_000_000, "2020-03-02T17:00", "2020-03-09T09:00")},
			want{NotFired, []string{"applications window 7 days (applications_start of the notice placed 2020-03-02, applications end 2020-03-09); the minimum of 44-FZ art. 63 part 2: an initial price not over 3 million roubles is 7 days"}, ""}},
		{"14 days over 3 million", Evidence{Tender: auction(t, 3_000_000.01, "2020-03-02T17:00", "2020-03-16T09:00")},
			want{Fired, []string{"applications window 14 days (applications_start of the notice placed 2020-03-02, applications end 2020-03-16); the minimum of 44-FZ art. 63 part 3: an initial price over 3 million roubles is 15 days"}, ""}},
		// The first version counts, and a date change moves the deadline.
		{"from the first version to the moved deadline", Evidence{
			Tender:   auction(t, 500_000, "2020-03-04T10:00", "2020-03-08T09:00"),
			Versions: []*tenderbase.Tender{{Version: 1, PublishedAt: at(t, "2020-03-01T10:00")}},
			Events:   []*tenderbase.TenderEvent{{ID: "E1", Type: tenderbase.EventDateChange, PublishedAt: at(t, "2020-03-05T10:00"), ApplicationsDeadline: at(t, "2020-03-12T09:00")}},
		}, want{NotFired, []string{"applications window 11 days (notice version 1 placed 2020-03-01, applications end 2020-03-12); the minimum of 44-FZ art. 63 part 2: an initial price not over 3 million roubles is 7 days"}, ""}},
		{"a notice of the law since 2022", Evidence{Tender: auction(t, 500_000, "2022-01-10T10:00", "2022-01-12T09:00")},
			want{CannotTell, nil, "placed on 2022-01-10: the minimum in force then is not quoted here (only 44-FZ art. 63 in its wordings of 18.06.2017-31.12.2021; the wording of 360-FZ in force since 2022-01-01 was not found published)"}},
		{"before the quoted wording", Evidence{Tender: auction(t, 500_000, "2017-06-17T10:00", "2017-06-19T09:00")},
			want{CannotTell, nil, "placed on 2017-06-17: the minimum in force then is not quoted here (only 44-FZ art. 63 in its wordings of 18.06.2017-31.12.2021; the wording of 360-FZ in force since 2022-01-01 was not found published)"}},
		{"another method", Evidence{Tender: &tenderbase.Tender{Law: tenderbase.Law44, PlacingMethod: "Открытый конкурс", PlacingMethodCode: "OK44",
			ApplicationsStart: at(t, "2020-03-02T10:00"), ApplicationsDeadline: at(t, "2020-03-05T10:00")}},
			want{CannotTell, nil, "a Открытый конкурс, OK44: only the minimum for the electronic auction (44-FZ art. 63) is quoted here"}},
		{"223-FZ", Evidence{Tender: &tenderbase.Tender{Law: tenderbase.Law223}},
			want{CannotTell, nil, "the minimum periods of 223-FZ (art. 3.2) are not quoted here; a 223-FZ customer's own regulation may set others"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check(t, tt.e, "short_deadline", tt.want) })
	}
}

func TestManyAmendments(t *testing.T) {
	v := func(n int) *tenderbase.Tender { return &tenderbase.Tender{Version: n} }
	check(t, Evidence{Tender: v(4), Versions: []*tenderbase.Tender{v(3), v(4)}}, "many_amendments",
		want{Fired, []string{"notice version 4: 3 amendments (2 versions stored)"}, ""})
	check(t, Evidence{Tender: v(3), Versions: []*tenderbase.Tender{v(1), v(2), v(3)},
		Events: []*tenderbase.TenderEvent{{Type: tenderbase.EventDateChange}, {Type: tenderbase.EventCancellation}}}, "many_amendments",
		want{NotFired, []string{"notice version 3: 2 amendments (3 versions stored)", "besides, 1 date change of the deadlines"}, ""})
}

func TestWinners(t *testing.T) {
	now := at(t, "2026-12-01T12:00")
	won := at(t, "2020-03-20T10:00")
	tender := auction(t, 500_000, "2020-03-02T10:00", "2020-03-10T09:00")
	org := func(registered string) *tenderbase.Org {
		return &tenderbase.Org{INN: "7701000001", RegisteredAt: at(t, registered), Status: tenderbase.OrgActive}
	}
	entry := func(included, excludeOn string) *tenderbase.UnfairSupplier {
		return &tenderbase.UnfairSupplier{RegistryNumber: "20.001", State: tenderbase.UnfairIncluded, IncludedAt: at(t, included), ExcludeOn: excludeOn,
			Supplier: tenderbase.UnfairParty{INN: "7701000001"}}
	}
	winner := func(w Winner) Evidence {
		w.INN, w.Award = "7701000001", won
		return Evidence{Tender: tender, Winners: []Winner{w}}
	}
	tests := []struct {
		name, rule string
		e          Evidence
		want       want
	}{
		{"registered 364 days before", "winner_new", winner(Winner{Org: org("2019-03-04T00:00")}),
			want{Fired, []string{"INN 7701000001 registered 2019-03-04, 364 days before the notice was placed (2020-03-02)"}, ""}},
		{"registered a year and more before", "winner_new", winner(Winner{Org: org("2019-03-02T00:00")}),
			want{NotFired, []string{"INN 7701000001 registered 2019-03-02, 366 days before the notice was placed (2020-03-02)"}, ""}},
		{"no card", "winner_new", winner(Winner{}),
			want{CannotTell, nil, "no register card (EGRUL/EGRIP) with a registration date is stored for INN 7701000001"}},
		{"no winner", "winner_new", Evidence{Tender: tender},
			want{CannotTell, nil, "no protocol of the tender names a winner and no contract names a supplier"}},
		{"barred when it won", "winner_unfair", winner(Winner{Unfair: []*tenderbase.UnfairSupplier{entry("2019-05-01T00:00", "2021-05-01")}}),
			want{Fired, []string{"entry 20.001 (included 2019-05-01) barred INN 7701000001 on 2020-03-20, when it won"}, ""}},
		{"barred today only", "winner_unfair", winner(Winner{Unfair: []*tenderbase.UnfairSupplier{entry("2025-05-01T00:00", "2027-05-01")}}),
			want{Fired, []string{"entry 20.001 (included 2025-05-01) bars INN 7701000001 today"}, ""}},
		{"out of the register by then", "winner_unfair", winner(Winner{Unfair: []*tenderbase.UnfairSupplier{entry("2017-05-01T00:00", "2019-05-01")}}),
			want{NotFired, []string{"INN 7701000001: 1 stored entry of the register names it as supplier, not barring it when it won or today"}, ""}},
		{"named as a founder only", "winner_unfair", winner(Winner{Unfair: []*tenderbase.UnfairSupplier{{RegistryNumber: "20.002", State: tenderbase.UnfairIncluded,
			IncludedAt: at(t, "2019-05-01T00:00"), Supplier: tenderbase.UnfairParty{INN: "7701999999"}, Founders: []tenderbase.UnfairPerson{{Name: "Иванов И. И.", INN: "7701000001"}}}}}),
			want{NotFired, []string{"INN 7701000001: no stored entry of the register names it as supplier"}, ""}},
		{"a bankrupt's lot", "winner_bankrupt", winner(Winner{Bankruptcy: []*tenderbase.Lot{{ID: "fedresurs-1", PublishedAt: at(t, "2021-01-15T10:00")}}}),
			want{Fired, []string{"fedresurs lot fedresurs-1 of 2021-01-15 sells the property of INN 7701000001 as a debtor"}, ""}},
		{"a card saying bankrupt", "winner_bankrupt", winner(Winner{Org: &tenderbase.Org{Status: tenderbase.OrgLiquidating, StatusText: "Признание банкротом и открытие конкурсного производства"}}),
			want{Fired, []string{`the register card of INN 7701000001 says "Признание банкротом и открытие конкурсного производства"`}, ""}},
		{"neither", "winner_bankrupt", winner(Winner{Org: org("2010-01-01T00:00")}),
			want{NotFired, []string{"INN 7701000001: no stored fedresurs lot names it as a debtor; register status active"}, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := stateOf(t, Check(tt.e, now), tt.rule)
			if tt.want.because == nil {
				tt.want.because = []string{}
			}
			if diff := cmp.Diff(tt.want, want{f.State, f.Because, f.Missing}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.rule, diff)
			}
		})
	}
}

func TestComplaintsUpheld(t *testing.T) {
	result := func(number, complaint, outcome string) *tenderbase.ComplaintResult {
		return &tenderbase.ComplaintResult{CheckResultNumber: number, ComplaintNumber: complaint, ComplaintResult: outcome, DecisionDate: time.Date(2020, 6, 1, 0, 0, 0, 0, tenderbase.Moscow)}
	}
	complaint := &tenderbase.Complaint{ComplaintNumber: "202000100000001"}
	check(t, Evidence{Complaints: []*tenderbase.Complaint{complaint}, Results: []*tenderbase.ComplaintResult{result("R2", "202000100000001", complaintPartly)}},
		"complaints_upheld", want{Fired, []string{"check R2 of 2020-06-01 on complaint 202000100000001: founded in part"}, ""})
	check(t, Evidence{Complaints: []*tenderbase.Complaint{complaint}, Results: []*tenderbase.ComplaintResult{result("R1", "202000100000001", complaintNone)}},
		"complaints_upheld", want{NotFired, []string{"check R1 of 2020-06-01 on complaint 202000100000001: not founded"}, ""})
	check(t, Evidence{Complaints: []*tenderbase.Complaint{complaint}}, "complaints_upheld",
		want{CannotTell, nil, "no stored check result decides complaint 202000100000001"})
	check(t, Evidence{}, "complaints_upheld", want{NotFired, []string{"no complaint about the purchase and no check result is stored"}, ""})
	// The complaints open in the export, by the purchase number.
	f := stateOf(t, Check(Evidence{PurchaseNumber: "0336200008720000154", Complaints: []*tenderbase.Complaint{complaint}}, time.Now()), "complaints_upheld")
	if want := []string{"GET /api2.3/export?mode=fasEIS&tend_num=0336200008720000154"}; !cmp.Equal(want, f.Open) {
		t.Errorf("open %q, want %q", f.Open, want)
	}
}
