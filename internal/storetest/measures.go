package storetest

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Keys of the records of MeasureRecords.
const (
	mRoof    = "0373200000126000001" // roof repair, r77, 44-FZ, 6.2 mln, deadline day 70 moved to 75
	mFence   = "0373200000126000002" // fence repair, r77, 44-FZ, 2.5 mln, deadline day 71
	mBridge  = "0373200000126000003" // bridge repair, r50, 44-FZ, 9 mln, deadline day 72
	mPaper   = "32600000004"         // paper supply, r77, 223-FZ, 120,000, deadline day 65
	mDollar  = "32600000005"         // roof repair in dollars: no price in roubles, no deadline
	mFree    = "0373200000126000006" // roof repair, no price, deadline day 74
	mTwin    = "0373200000126000007" // roof repair, 6.2 mln like mRoof, deadline day 73, published later
	mContrA  = "2770000000126000001" // contract, 3 mln, roofing for customer 7701000001, ends day 100
	mContrB  = "2770000000126000002" // contract, 800,000, paper, ends day 95
	mContrC  = "2770000000126000003" // contract, 1 mln, roofing for customer 7701000001, no end given
	mWorldA  = "ted:2026/S 001-000001"
	mWorldB  = "ted:2026/S 001-000002"
	mLotHigh = "torgi-31000001-1"
	mLotLow  = "torgi-31000002-1"

	innRoofer = "7714000001" // took part in mRoof's protocol
)

// MeasureRecords returns records with prices, deadlines and codes, a date
// change that moves a tender's deadline and a protocol that names its
// participants: what a search bounds and sorts by.
func MeasureRecords() []tenderbase.Record {
	tender := func(number, law string, region, d int, title string, price float64, deadline int) *tenderbase.Tender {
		t := &tenderbase.Tender{PurchaseNumber: number, Law: law, Version: 1, Title: title,
			Customer: tenderbase.Party{INN: "7701000" + number[len(number)-3:], Name: "ГБУ «Заказчик " + number[len(number)-1:] + "»"},
			Region:   region, MaxPrice: price, Currency: "RUB", PublishedAt: day(d),
			PlacingMethodCode: "EA20", ETP: &tenderbase.ETP{Code: "ETP_SBAST"}}
		if deadline > 0 {
			t.ApplicationsDeadline = day(deadline)
		}
		return t
	}
	roof := tender(mRoof, "44", 77, 60, "Капитальный ремонт кровли и ремонт кровли подъездов", 6_200_000, 70)
	roof.Lots = []tenderbase.TenderLot{{Number: 1, Objects: []tenderbase.PurchaseObject{{OKPD2Code: "43.91.19.110", Name: "Работы кровельные"}}}}
	fence := tender(mFence, "44", 77, 61, "Ремонт ограждения территории", 2_500_000, 71)
	fence.PlacingMethodCode, fence.ETP = "OK20", &tenderbase.ETP{Code: "ETP_RTS"}
	fence.Lots = []tenderbase.TenderLot{{Number: 1, Objects: []tenderbase.PurchaseObject{{OKPD2Code: "43.29.19.000", Name: "Работы по ремонту ограждений"}}}}
	bridge := tender(mBridge, "44", 50, 62, "Ремонт моста через реку", 9_000_000, 72)
	paper := tender(mPaper, "223", 77, 63, "Поставка бумаги", 120_000, 65)
	paper.Lots = []tenderbase.TenderLot{{Number: 1, Objects: []tenderbase.PurchaseObject{{OKPD2Code: "17.12.14.110", Name: "Бумага"}}}}
	dollar := tender(mDollar, "223", 77, 64, "Ремонт кровли склада", 50_000, 0)
	dollar.Currency = "USD"
	free := tender(mFree, "44", 77, 65, "Ремонт кровли гаража", 0, 74)
	twin := tender(mTwin, "44", 77, 66, "Ремонт кровли школы", 6_200_000, 73)
	return []tenderbase.Record{
		roof, fence, bridge, paper, dollar, free, twin,
		&tenderbase.TenderEvent{ID: "measure-e1", PurchaseNumber: mRoof, Type: tenderbase.EventDateChange,
			Document: "fcsNotificationDateChange", PublishedAt: day(67), ApplicationsDeadline: day(75)},
		&tenderbase.Protocol{ID: "measure-p1", PurchaseNumber: mFence, Number: "measure-p1", Type: "fcsProtocolEF3", PublishedAt: day(68),
			Participants: []tenderbase.Participant{{Party: tenderbase.Party{INN: innRoofer}, Winner: true}}},
		&tenderbase.Contract{RegNumber: mContrA, Law: "44", Subject: "Ремонт кровли", Region: 77, Price: 3_000_000, Currency: "RUB",
			PublishedAt: day(60), EndsAt: day(100), Customer: tenderbase.Party{INN: "7701000001"},
			Objects: []tenderbase.PurchaseObject{{OKPD2Code: "43.91.19.110", Name: "Работы кровельные"}}},
		&tenderbase.Contract{RegNumber: mContrB, Law: "44", Subject: "Поставка бумаги", Region: 77, Price: 800_000, Currency: "RUB",
			PublishedAt: day(61), EndsAt: day(95), Customer: tenderbase.Party{INN: "7701000004"},
			Objects: []tenderbase.PurchaseObject{{OKPD2Code: "17.12.14.110", Name: "Бумага"}}},
		&tenderbase.Contract{RegNumber: mContrC, Law: "44", Subject: "Ремонт кровли", Region: 77, Price: 1_000_000, Currency: "RUB",
			PublishedAt: day(62), Customer: tenderbase.Party{INN: "7701000001"},
			Objects: []tenderbase.PurchaseObject{{OKPD2Code: "43.91.19.110", Name: "Работы кровельные"}}},
		&tenderbase.WorldTender{ID: mWorldA, Source: "ted", Country: 276, Title: "Roof repair works", Value: 500_000, Currency: "EUR",
			CPVCodes: []string{"45261910-6"}, PublishedAt: day(60), Deadline: day(80)},
		&tenderbase.WorldTender{ID: mWorldB, Source: "ted", Country: 250, Title: "Office paper", Value: 10_000, Currency: "EUR",
			CPVCodes: []string{"30197630-1"}, PublishedAt: day(61), Deadline: day(70)},
		&tenderbase.Lot{ID: mLotHigh, Title: "Нежилое помещение", Region: 77, StartPrice: 12_000_000, Currency: "RUB",
			PublishedAt: day(60), BiddingEnd: day(90)},
		&tenderbase.Lot{ID: mLotLow, Title: "Нежилое помещение", Region: 77, StartPrice: 700_000, Currency: "RUB",
			PublishedAt: day(61), BiddingEnd: day(85)},
	}
}

// CheckMeasures checks that s, holding MeasureRecords, bounds and sorts by
// price, published date, deadline (a tender's as its date change moved
// it) and the end of a contract's term, ranks by relevance, selects by code prefixes, placing method,
// platform and the participants of protocols, and pages every order
// without a record twice or missing.
func CheckMeasures(t *testing.T, s tenderbase.Store) {
	t.Helper()
	unix := func(d int) float64 { return float64(day(d).Unix()) }
	between := func(m tenderbase.Measure, lo, hi float64) tenderbase.Range {
		return tenderbase.Range{Measure: m, Min: lo, Max: hi}
	}
	inf := math.Inf(1)
	roof := mustParse(t, "ремонт кровли", query.MCP)
	tenders := func(s tenderbase.Search) tenderbase.Search { s.Kind = tenderbase.KindTender; return s }
	contracts := func(s tenderbase.Search) tenderbase.Search { s.Kind = tenderbase.KindContract; return s }
	lookup := func(field, value string) []tenderbase.Lookup {
		return []tenderbase.Lookup{{Field: field, Value: value}}
	}
	cases := []struct {
		name string
		s    tenderbase.Search
		want []string
	}{
		{"newest first", tenders(tenderbase.Search{}), []string{mTwin, mFree, mDollar, mPaper, mBridge, mFence, mRoof}},
		{"price from 5 mln", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 5e6, inf)}}),
			[]string{mTwin, mBridge, mRoof}},
		{"price up to 2.5 mln, both ends included", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, -inf, 2.5e6)}}),
			[]string{mPaper, mFence}},
		{"price between", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 2.5e6, 6.2e6)}}),
			[]string{mTwin, mFence, mRoof}},
		{"published range", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePublished, unix(61), unix(63))}}),
			[]string{mPaper, mBridge, mFence}},
		{"deadline as the date change moved it", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureDeadline, unix(74), inf)}}),
			[]string{mFree, mRoof}},
		{"the notice's own deadline no longer holds", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureDeadline, unix(70), unix(70))}}),
			nil},
		{"an empty range", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 7e6, 6e6)}}), nil},
		{"price, highest first; none in roubles last", tenders(tenderbase.Search{Sort: tenderbase.SortPriceDesc}),
			[]string{mBridge, mTwin, mRoof, mFence, mPaper, mFree, mDollar}},
		{"price, lowest first; none in roubles last", tenders(tenderbase.Search{Sort: tenderbase.SortPriceAsc}),
			[]string{mPaper, mFence, mTwin, mRoof, mBridge, mFree, mDollar}},
		{"deadline, soonest first; none last", tenders(tenderbase.Search{Sort: tenderbase.SortDeadline}),
			[]string{mPaper, mFence, mBridge, mTwin, mFree, mRoof, mDollar}},
		{"words, a price range and a region, highest first", tenders(tenderbase.Search{Query: roof, Sort: tenderbase.SortPriceDesc,
			Filters: tenderbase.Filters{Regions: []int{77}}, Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 1e6, inf)}}),
			[]string{mTwin, mRoof}},
		{"OKPD2 class", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupOKPD2, "43")}), []string{mFence, mRoof}},
		{"OKPD2 group", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupOKPD2, "43.91")}), []string{mRoof}},
		{"OKPD2 class and a price range", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupOKPD2, "43"),
			Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 3e6, inf)}}), []string{mRoof}},
		{"OKPD2 class, a word and a placing method", tenders(tenderbase.Search{Query: roof, Where: append(lookup(tenderbase.LookupOKPD2, "43"),
			tenderbase.Lookup{Field: tenderbase.LookupPlatform, Value: "ETP_SBAST"})}), []string{mRoof}},
		{"OKPD2 code whole", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupOKPD2, "17.12.14.110")}), []string{mPaper}},
		{"placing method", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupPlacingMethod, "OK20")}), []string{mFence}},
		{"platform", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupPlatform, "ETP_SBAST"), Sort: tenderbase.SortPriceAsc}),
			[]string{mPaper, mTwin, mRoof, mBridge, mFree, mDollar}},
		{"participant of a protocol", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupParticipantINN, innRoofer)}), []string{mFence}},
		{"contracts by price", tenderbase.Search{Kind: tenderbase.KindContract, Sort: tenderbase.SortPriceAsc}, []string{mContrB, mContrC, mContrA}},
		{"contracts by end, soonest first; none last", tenderbase.Search{Kind: tenderbase.KindContract, Sort: tenderbase.SortEnds},
			[]string{mContrB, mContrA, mContrC}},
		{"contracts ending from day 96", contracts(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureEnds, unix(96), inf)}}),
			[]string{mContrA}},
		{"contracts ending up to day 100, both ends included", contracts(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureEnds, unix(95), unix(100))}}),
			[]string{mContrB, mContrA}},
		{"a contract without an end lies in no range", contracts(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureEnds, -inf, inf)}}),
			[]string{mContrB, mContrA}},
		{"contracts of a customer and an OKPD2 class ending in a range", contracts(tenderbase.Search{
			Where:  append(lookup(tenderbase.LookupCustomerINN, "7701000001"), tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "43"}),
			Ranges: []tenderbase.Range{between(tenderbase.MeasureEnds, unix(90), unix(110))}, Sort: tenderbase.SortEnds}), []string{mContrA}},
		{"words, an end range and the sort by end", contracts(tenderbase.Search{Query: roof, Sort: tenderbase.SortEnds,
			Ranges: []tenderbase.Range{between(tenderbase.MeasureEnds, unix(90), inf)}}), []string{mContrA}},
		{"tenders have no end", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureEnds, -inf, inf)}}), nil},
		{"contracts by OKPD2", tenderbase.Search{Kind: tenderbase.KindContract, Where: lookup(tenderbase.LookupOKPD2, "17.12")}, []string{mContrB}},
		{"world tenders by CPV division", tenderbase.Search{Kind: tenderbase.KindWorldTender, Where: lookup(tenderbase.LookupCPV, "45")}, []string{mWorldA}},
		{"world tenders by deadline", tenderbase.Search{Kind: tenderbase.KindWorldTender, Sort: tenderbase.SortDeadline}, []string{mWorldB, mWorldA}},
		{"world tenders have no price in roubles", tenderbase.Search{Kind: tenderbase.KindWorldTender,
			Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 0, inf)}}, nil},
		{"lots by price", tenderbase.Search{Kind: tenderbase.KindLot, Sort: tenderbase.SortPriceDesc}, []string{mLotHigh, mLotLow}},
		{"lots by end of applications", tenderbase.Search{Kind: tenderbase.KindLot, Ranges: []tenderbase.Range{between(tenderbase.MeasureDeadline, unix(86), inf)}},
			[]string{mLotHigh}},
		// Searches that differ from one above in one value alone, so that
		// a total cached for one and read for the other shows below.
		{"published range, later days", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePublished, unix(64), unix(66))}}),
			[]string{mTwin, mFree, mDollar}},
		{"published from a day", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePublished, unix(65), inf)}}),
			[]string{mTwin, mFree}},
		{"contracts ending from day 95", contracts(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureEnds, unix(95), inf)}}),
			[]string{mContrB, mContrA}},
		{"price from 9 mln", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 9e6, inf)}}),
			[]string{mBridge}},
		{"deadline from day 73", tenders(tenderbase.Search{Ranges: []tenderbase.Range{between(tenderbase.MeasureDeadline, unix(73), inf)}}),
			[]string{mTwin, mFree, mRoof}},
		{"words and a price range", tenders(tenderbase.Search{Query: roof, Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 1e6, inf)}}),
			[]string{mTwin, mRoof}},
		{"words and another price range", tenders(tenderbase.Search{Query: roof, Ranges: []tenderbase.Range{between(tenderbase.MeasurePrice, 6.3e6, inf)}}),
			nil},
		{"words, published from a day", tenders(tenderbase.Search{Query: roof, Ranges: []tenderbase.Range{between(tenderbase.MeasurePublished, unix(65), inf)}}),
			[]string{mTwin, mFree}},
		{"region 50", tenders(tenderbase.Search{Filters: tenderbase.Filters{Regions: []int{50}}}), []string{mBridge}},
		{"223-FZ", tenders(tenderbase.Search{Filters: tenderbase.Filters{Laws: []string{"223"}}}), []string{mDollar, mPaper}},
		{"OKPD2 class 17", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupOKPD2, "17")}), []string{mPaper}},
		{"another platform", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupPlatform, "ETP_RTS")}), []string{mFence}},
		{"another placing method", tenders(tenderbase.Search{Where: lookup(tenderbase.LookupPlacingMethod, "EA20")}),
			[]string{mTwin, mFree, mDollar, mPaper, mBridge, mRoof}},
		{"another word", tenders(tenderbase.Search{Query: mustParse(t, "моста", query.MCP)}), []string{mBridge}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = []string{}
			}
			got, total := searchAll(t, s, tc.s)
			if diff := cmp.Diff(want, got); diff != "" || total != len(want) {
				t.Errorf("total %d (-want +got):\n%s", total, diff)
			}
			if paged := searchPaged(t, s, tc.s, 2); !cmp.Equal(got, paged) {
				t.Errorf("pages of 2 give %v, one page %v", paged, got)
			}
		})
	}
	// Every search above ran in this generation of the data, so each
	// total is now cached; read again, last first, each must be its own.
	t.Run("cached totals", func(t *testing.T) {
		for _, tc := range slices.Backward(cases) {
			tc.s.PageSize = 1
			p, err := s.Search(t.Context(), tc.s)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if p.Total != len(tc.want) {
				t.Errorf("%s: total %d, want %d", tc.name, p.Total, len(tc.want))
			}
		}
	})
	t.Run("contracts by end, by cursor", func(t *testing.T) {
		// From a contract with an end to one without: the keyset crosses
		// from keys to none.
		srch := tenderbase.Search{Kind: tenderbase.KindContract, Sort: tenderbase.SortEnds, PageSize: 1}
		var got []string
		for range 4 {
			p, err := s.Search(t.Context(), srch)
			if err != nil {
				t.Fatal(err)
			}
			if got = append(got, keysOf(p.Items)...); p.Next == "" {
				break
			}
			srch.Cursor = p.Next
		}
		if want := []string{mContrB, mContrA, mContrC}; !cmp.Equal(want, got) {
			t.Errorf("pages of 1 by cursor give %v, want %v", got, want)
		}
	})
	t.Run("relevance", func(t *testing.T) {
		// mRoof says "кровли" twice; every other match once.
		got, total := searchAll(t, s, tenders(tenderbase.Search{Query: roof, Sort: tenderbase.SortRelevance}))
		if total != 4 || len(got) != 4 || got[0] != mRoof {
			t.Errorf("by relevance: total %d, %v; want 4 with %s first", total, got, mRoof)
		}
		if paged := searchPaged(t, s, tenders(tenderbase.Search{Query: roof, Sort: tenderbase.SortRelevance}), 1); !cmp.Equal(got, paged) {
			t.Errorf("pages of 1 give %v, one page %v", paged, got)
		}
	})
}

// searchPaged returns the keys of every match of s, fetched in pages of
// size.
func searchPaged(t *testing.T, st tenderbase.Store, s tenderbase.Search, size int) []string {
	t.Helper()
	keys := []string{}
	for s.Page, s.PageSize = 0, size; ; s.Page++ {
		p, err := st.Search(t.Context(), s)
		if err != nil {
			t.Fatalf("Search page %d: %v", s.Page, err)
		}
		keys = append(keys, keysOf(p.Items)...)
		if len(p.Items) < size || s.Page > 100 {
			return keys
		}
	}
}

// OldCodeLookups returns the lookups a store kept for r's classification
// codes before records carried them as flags (migrations 0019 of SQLite,
// 0016 of PostgreSQL): every prefix of each OKPD2 and CPV code.
func OldCodeLookups(r tenderbase.Record) []tenderbase.Lookup {
	var objects []tenderbase.PurchaseObject
	var cpvs []string
	switch r := r.(type) {
	case *tenderbase.Tender:
		for _, l := range r.Lots {
			objects = append(objects, l.Objects...)
		}
	case *tenderbase.Contract:
		objects = r.Objects
	case *tenderbase.WorldTender:
		cpvs = r.CPVCodes
		for _, l := range r.Lots {
			cpvs = append(cpvs, l.CPVCodes...)
		}
	}
	var ls []tenderbase.Lookup
	for _, o := range objects {
		for _, p := range tenderbase.CodePrefixes(o.OKPD2Code) {
			ls = append(ls, tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: p})
		}
	}
	for _, c := range cpvs {
		for _, p := range tenderbase.CPVPrefixes(c) {
			ls = append(ls, tenderbase.Lookup{Field: tenderbase.LookupCPV, Value: p})
		}
	}
	return ls
}
