package storetest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// sharedData is where the real published files beside the project are,
// seen from a store's package (internal/<store>), when they are.
var sharedData = filepath.Join("..", "..", "..", "shared", "data")

// realRecords decodes real EIS files of ../shared/data (PROVENANCE.md
// there says where each was published), or skips the test when they are
// not beside the project.
func realRecords(t *testing.T, files ...string) []tenderbase.Record {
	t.Helper()
	var out []tenderbase.Record
	for _, name := range files {
		f, err := os.Open(filepath.Join(sharedData, name))
		if errors.Is(err, os.ErrNotExist) {
			t.Skipf("the real EIS files are not beside the project: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		err = eis.Format{}.Decode(name, f, func(_ int, r tenderbase.Record, err error) error {
			if err != nil {
				return err
			}
			out = append(out, r)
			return nil
		})
		f.Close()
		if err != nil {
			t.Fatalf("decode %s: %v", name, err)
		}
	}
	return out
}

// aggregate asks st, which must be an Aggregator, for a.
func aggregate(t *testing.T, st tenderbase.Store, a tenderbase.Aggregation) tenderbase.Aggregate {
	t.Helper()
	ag, ok := st.(tenderbase.Aggregator)
	if !ok {
		t.Fatalf("%T is no tenderbase.Aggregator", st)
	}
	got, err := ag.Aggregate(context.Background(), a)
	if err != nil {
		t.Fatalf("Aggregate %s by %s: %v", describe(a.Search), a.By, err)
	}
	return got
}

// checkAggregate compares an aggregate with the one worked out.
func checkAggregate(t *testing.T, st tenderbase.Store, a tenderbase.Aggregation, want tenderbase.Aggregate) {
	t.Helper()
	got := aggregate(t, st, a)
	if diff := gocmp.Diff(want, got, cmpopts.IgnoreFields(tenderbase.Aggregate{}, "Generation"),
		cmpopts.IgnoreFields(tenderbase.Drop{}, "BasisTotal")); diff != "" {
		t.Errorf("Aggregate %s by %s (-want +got):\n%s", describe(a.Search), a.By, diff)
	}
}

func rub(minor int64, n int) []tenderbase.Sum {
	return []tenderbase.Sum{{Currency: "RUB", Minor: minor, Count: n}}
}

// testAggregates checks aggregates against figures worked out by hand
// from real EIS files and from records whose joins are known, and against
// a slow reference over the demo data.
func testAggregates(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	t.Run("RealNotices", func(t *testing.T) { testRealNotices(t, open) })
	t.Run("RealProtocols", func(t *testing.T) { testRealProtocols(t, open) })
	t.Run("Joined", func(t *testing.T) { testJoinedFacts(t, open) })
	t.Run("RealComplaints", func(t *testing.T) { testRealComplaints(t, open) })
	t.Run("CustomerFigures", func(t *testing.T) { testCustomerFigures(t, open) })
	t.Run("Reference", func(t *testing.T) { testAggregateReference(t, open) })
	t.Run("RivalryReference", func(t *testing.T) { testRivalryReference(t, open) })
	t.Run("Invalid", func(t *testing.T) { testAggregateInvalid(t, open) })
}

// The real notices: three 44-FZ electronic auctions of Sverdlovsk oblast
// (region 66) and two 223-FZ notices.
var realNotices = []string{
	// maxPrice 165600, OKPD2 10.83.11.110 (coffee, the largest of its
	// two objects: 125,100 of 165,600), customer INN 6616004892
	"eis44-notices/ISErmakov__zakupkigovru/epNotificationEF2020_0162100008725000054_1_019AA4796C7075FAACB870598DA461E3.xml",
	// maxPrice 548000, OKPD2 21.20.10.143 (a diuretic), INN 6660010415
	"eis44-notices/ISErmakov__zakupkigovru/epNotificationEF2020_0162200009125000312_1_019AA57C43DF7869B4D3CB1312DB2A41.xml",
	// maxPrice 134000, OKPD2 71.12.19.100 (engineering design), INN 6657001604
	"eis44-notices/ISErmakov__zakupkigovru/epNotificationEF2020_0162300017925000067_2_019A7BC4EB52714896AE2D0A22FCA5A1.xml",
	// 223-FZ, region 1 (Adygea), initialSum 280000, an OKDP code only
	"eis223/Homyakin__ZakupkiParser/purchaseNoticeZK_test.xml",
	// 223-FZ, region 77 (Moscow), initialSum 3077055.86, OKPD2 41.20.20.310
	"eis223/Homyakin__ZakupkiParser/purchaseNotice_test.xml",
}

func testRealNotices(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	put(t, st, realRecords(t, realNotices...)...)
	// Region 66 holds the three 44-FZ notices: 165,600 + 548,000 +
	// 134,000 = 847,600.00 roubles. Their prices sorted are 134,000,
	// 165,600 and 548,000: by the nearest rank, p25 is the 1st
	// (ceil(0.25*3) = 1), the median the 2nd, p75 the 3rd. Regions 77
	// and 1 hold one notice each; 77 comes first, by its larger sum, and
	// with top 2 region 1 is the one more group. The total adds all five:
	// 847,600 + 3,077,055.86 + 280,000 = 4,204,655.86.
	regions := tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByRegion, Top: 2}
	checkAggregate(t, st, regions, tenderbase.Aggregate{
		Kind: tenderbase.KindTender, By: tenderbase.ByRegion, More: 1,
		Groups: []tenderbase.Group{
			{Key: "66", Figures: tenderbase.Figures{Count: 3, Sums: rub(84_760_000, 3),
				Prices: &tenderbase.Quantiles{Count: 3, P25: 13_400_000, Median: 16_560_000, P75: 54_800_000}}},
			{Key: "77", Figures: tenderbase.Figures{Count: 1, Sums: rub(307_705_586, 1),
				Prices: &tenderbase.Quantiles{Count: 1, P25: 307_705_586, Median: 307_705_586, P75: 307_705_586}}},
		},
		Total: tenderbase.Figures{Count: 5, Sums: rub(420_465_586, 5),
			// sorted: 134,000; 165,600; 280,000; 548,000; 3,077,055.86:
			// ranks ceil(1.25) = 2, ceil(2.5) = 3, ceil(3.75) = 4
			Prices: &tenderbase.Quantiles{Count: 5, P25: 16_560_000, Median: 28_000_000, P75: 54_800_000}},
	})
	// By OKPD2 division (two digits): 10, 21, 71 and 41 hold one notice
	// each, and the 223-FZ notice classed by OKDP alone has no OKPD2
	// class: the group "". Equal counts order by the sum in roubles.
	got := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByOKPD2})
	var keys []string
	for _, g := range got.Groups {
		keys = append(keys, g.Key)
	}
	if want := []string{"41", "21", "", "10", "71"}; !gocmp.Equal(want, keys) {
		t.Errorf("groups by OKPD2 division: want %q, got %q", want, keys)
	}
	// The search's conditions choose the matches: the word «кофе» in
	// region 66 is the coffee auction alone, of the customer 6616004892,
	// whose name is the notice's.
	coffee := tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, "кофе", query.MCP),
		Filters: tenderbase.Filters{Regions: []int{66}}}
	got = aggregate(t, st, tenderbase.Aggregation{Search: coffee, By: tenderbase.ByCustomer})
	if len(got.Groups) != 1 || got.Groups[0].Key != "6616004892" || got.Groups[0].Name == "" || got.Total.Count != 1 ||
		!gocmp.Equal(got.Total.Sums, rub(16_560_000, 1)) {
		t.Errorf("coffee in region 66 by customer: want the one customer 6616004892, named, with 165,600.00; got %+v", got)
	}
	// By law and by month: the months are those of publishDTInEIS in
	// Moscow time (2025-11-21 twice, 2025-11-13), and of the 223-FZ
	// notices' publicationDateTime (2016-07, 2012-11), the latest first.
	laws := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByLaw})
	if len(laws.Groups) != 2 || laws.Groups[0].Key != "44" || laws.Groups[0].Count != 3 || laws.Groups[1].Key != "223" || laws.Groups[1].Count != 2 {
		t.Errorf("by law: want 44 (3) and 223 (2), got %+v", laws.Groups)
	}
	months := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByMonth})
	keys = nil
	for _, g := range months.Groups {
		keys = append(keys, g.Key)
	}
	if want := []string{"2025-11", "2016-07", "2012-11"}; !gocmp.Equal(want, keys) || months.Groups[0].Count != 3 {
		t.Errorf("by month: want %q, 3 in 2025-11; got %+v", want, months.Groups)
	}
}

// The real protocols: the 223-FZ protocol of purchase 31400935277, eight
// lots of one competition of the customer 7707049388, and four 44-FZ
// protocols.
var realProtocols = []string{
	"eis223/andreiSaw__zakupki/31400935277.xml",
	// the auction of 0111100000217000017: two applications made offers
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF2_0111100000217000017_15528232.xml",
	// its summary: two applications ranked, the first (INN 1660086239) wins
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF3_0111100000217000017_15585361.xml",
	// a single application (INN 1660291887): the procedure failed
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEFSingleApp_0111100000217000018_15537445.xml",
	// a single second part (INN 1644040195), refused: failed
	"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEFSinglePart_0111100000217000028_15570374.xml",
}

func testRealProtocols(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	put(t, st, realRecords(t, realProtocols...)...)
	// The 223-FZ protocol's lots, each with its applications and the
	// winner's (winnerIndication F) price:
	//   1: 7327056389 61,232,675 and 5256051148 62,023,920.67 (F)
	//   2: 5256051148 54,566,757.33 (F) and 7327056389 57,189,600
	//   3: 5256051148 8,981,800.27 (F) and 7327056389 9,047,800
	//   4: 7327056389 2,828,400 (F); 5: 7327056389 633,000 (F)
	//   6, 7, 8: 5256051148 1,033,695, 1,327,150, 659,205 (F)
	// 5256051148 («Коммерческие автомобили-Группа ГАЗ») won lots 1, 2,
	// 3, 6, 7 and 8: 128,592,528.27 roubles;
	// 7327056389 («Дистрибьюторский центр УАЗ») lots 4 and 5: 3,461,400. Lots 1 to 3 had two
	// participants, 4 to 8 one: 11 participants in 8 procedures, 5 of
	// them single-bid; every lot named a winner, so all 8 ended, none
	// failed. A protocol's offers are in its notice's currency, which is
	// not stored here: roubles.
	law223 := tenderbase.Search{Kind: tenderbase.KindProtocol, Where: []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: "31400935277"}}}
	comp := &tenderbase.Competition{Procedures: 8, Participants: 11, SingleBid: 5, Ended: 8}
	checkAggregate(t, st, tenderbase.Aggregation{Search: law223, By: tenderbase.BySupplier}, tenderbase.Aggregate{
		Kind: tenderbase.KindProtocol, By: tenderbase.BySupplier,
		Groups: []tenderbase.Group{
			{Key: "5256051148", Name: "Общество с ограниченной ответственностью «Коммерческие автомобили-Группа ГАЗ»", Figures: tenderbase.Figures{Count: 6, Sums: rub(12_859_252_827, 6),
				// sorted: 65,920,500; 103,369,500; 132,715,000;
				// 898,180,027; 5,456,675,733; 6,202,392,067 kopecks:
				// ranks ceil(1.5) = 2, 3, ceil(4.5) = 5
				Prices:      &tenderbase.Quantiles{Count: 6, P25: 103_369_500, Median: 132_715_000, P75: 5_456_675_733},
				Competition: &tenderbase.Competition{Procedures: 6, Participants: 9, SingleBid: 3, Ended: 6}}},
			{Key: "7327056389", Name: `Общество с ограниченной ответственностью "Дистрибьюторский центр УАЗ"`, Figures: tenderbase.Figures{Count: 2, Sums: rub(346_140_000, 2),
				Prices:      &tenderbase.Quantiles{Count: 2, P25: 63_300_000, Median: 63_300_000, P75: 282_840_000},
				Competition: &tenderbase.Competition{Procedures: 2, Participants: 2, SingleBid: 2, Ended: 2}}},
		},
		Total: tenderbase.Figures{Count: 8, Sums: rub(13_205_392_827, 8),
			Prices:      &tenderbase.Quantiles{Count: 8, P25: 65_920_500, Median: 132_715_000, P75: 898_180_027},
			Competition: comp},
	})
	// The 44-FZ protocols by law: four, 2 + 2 + 1 + 1 = 6 participants,
	// two single-bid (the single application and the single second
	// part); three ended: the summary won, the other two failed. The
	// summary names no price (its applications are ranked only).
	laws := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindProtocol}, By: tenderbase.ByLaw})
	want := tenderbase.Group{Key: "44", Figures: tenderbase.Figures{Count: 4,
		Competition: &tenderbase.Competition{Procedures: 4, Participants: 6, SingleBid: 2, Ended: 3, Failed: 2}}}
	if i := indexOfGroup(laws.Groups, "44"); i < 0 {
		t.Errorf("protocols by law: no group 44 in %+v", laws.Groups)
	} else if diff := gocmp.Diff(want, laws.Groups[i], cmpopts.IgnoreFields(tenderbase.Figures{}, "Sums", "Prices")); diff != "" {
		t.Errorf("44-FZ protocols (-want +got):\n%s", diff)
	}
}

func indexOfGroup(groups []tenderbase.Group, key string) int {
	for i, g := range groups {
		if g.Key == key {
			return i
		}
	}
	return -1
}

// Purchases whose notices, protocols and contracts join by number.
const (
	aggRoads  = "0348300000125000901" // three participants, a winner, a contract 15% below
	aggSingle = "0348300000125000902" // one participant, failed, a contract 1% below
	aggIdle   = "0373200000125000903" // no protocol, no contract yet
)

// AggregateRecords are two road repairs in region 50 with their
// protocols and contracts, and one notice in region 77 (CheckAggregates).
func AggregateRecords() []tenderbase.Record {
	customer := tenderbase.Party{INN: "5001000001", Name: "ГКУ МО «Дирекция дорожного строительства»"}
	notice := func(number string, region int, price float64, d int) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: number, Law: tenderbase.Law44, Version: 1, Title: "Ремонт автомобильной дороги",
			PlacingMethodCode: "EA44", PlacingMethod: "Электронный аукцион", Customer: customer, Region: region,
			MaxPrice: price, Currency: "RUB", PublishedAt: day(d)}
	}
	bidder := func(inn string, price float64, winner bool) tenderbase.Participant {
		return tenderbase.Participant{Party: tenderbase.Party{INN: inn, Name: "ООО «Дорстрой " + inn + "»"}, Price: price, Winner: winner}
	}
	contract := func(reg, number string, price float64, supplier string, d int) *tenderbase.Contract {
		return &tenderbase.Contract{RegNumber: reg, Law: tenderbase.Law44, Version: 1, PurchaseNumber: number,
			Subject: "Ремонт автомобильной дороги", Customer: customer, Region: 50, Price: price, Currency: "RUB",
			Suppliers: []tenderbase.Party{{INN: supplier}}, SignedAt: day(d), PublishedAt: day(d)}
	}
	return []tenderbase.Record{
		notice(aggRoads, 50, 1_000_000, 1), notice(aggSingle, 50, 1_000_000, 2), notice(aggIdle, 77, 500_000, 3),
		&tenderbase.Protocol{ID: "agg-p1", PurchaseNumber: aggRoads, Law: tenderbase.Law44, Type: "fcsProtocolEF3", PublishedAt: day(10),
			Participants: []tenderbase.Participant{bidder("5002000001", 850_000, true), bidder("5002000002", 900_000, false), bidder("5002000003", 950_000, false)}},
		&tenderbase.Protocol{ID: "agg-p2", PurchaseNumber: aggSingle, Law: tenderbase.Law44, Type: "fcsProtocolEFSingleApp", PublishedAt: day(11),
			Failed: true, Participants: []tenderbase.Participant{bidder("5002000001", 990_000, false)}},
		contract("2500100000125000001", aggRoads, 850_000, "5002000001", 20),
		contract("2500100000125000002", aggSingle, 990_000, "5002000001", 21),
	}
}

func testJoinedFacts(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	put(t, st, AggregateRecords()...)
	CheckAggregates(t, st)
	tenders := tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByRegion}
	// The roads' protocol withdrawn: its tender's standing no longer
	// names participants or a winner, so region 50 counts the single bid
	// alone.
	put(t, st, &tenderbase.Withdrawal{ID: "agg-w1", TargetKind: tenderbase.KindProtocol, TargetKey: "agg-p1",
		Document: "fcsProtocolCancel", PublishedAt: day(30)})
	// A new notice of the roads with a maximum price of 900,000: its
	// contract is then (900,000 - 850,000) / 900,000 = 5.5556% below,
	// 556 bp, and the mean (556 + 100) / 2 = 328 bp.
	roads := AggregateRecords()[0].(*tenderbase.Tender)
	roads.Version, roads.MaxPrice = 2, 900_000
	put(t, st, roads)
	got := aggregate(t, st, tenders)
	want := tenderbase.Group{Key: "50", Figures: tenderbase.Figures{Count: 2, Sums: rub(190_000_000, 2),
		Prices:      &tenderbase.Quantiles{Count: 2, P25: 90_000_000, Median: 90_000_000, P75: 100_000_000},
		Drop:        &tenderbase.Drop{Count: 2, MeanBasis: 328, Initial: 190_000_000, Final: 184_000_000},
		Competition: &tenderbase.Competition{Procedures: 1, Participants: 1, SingleBid: 1, Ended: 1, Failed: 1}}}
	if diff := gocmp.Diff(want, got.Groups[0], cmpopts.IgnoreFields(tenderbase.Drop{}, "BasisTotal")); diff != "" {
		t.Errorf("region 50 after the protocol's withdrawal and a new notice (-want +got):\n%s", diff)
	}
}

// CheckAggregates checks the aggregates of a store holding
// AggregateRecords: figures that join notices, protocols and contracts by
// purchase number.
func CheckAggregates(t *testing.T, st tenderbase.Store) {
	t.Helper()
	tenders := tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByRegion}
	one := func(minor int64) *tenderbase.Quantiles {
		return &tenderbase.Quantiles{Count: 1, P25: minor, Median: minor, P75: minor}
	}
	two := &tenderbase.Quantiles{Count: 2, P25: 100_000_000, Median: 100_000_000, P75: 100_000_000}
	// Region 50: two notices of 1,000,000.00. The roads' contract of
	// 850,000 is 15.00% (1,500 bp) below its notice, the single bid's
	// of 990,000 1.00% (100 bp): a mean of 800 bp over 2,000,000 initial
	// and 1,840,000 paid. Their protocols name 3 and 1 participants; the
	// roads were won, the single bid failed. Region 77's notice has no
	// protocol and no contract.
	comp := &tenderbase.Competition{Procedures: 2, Participants: 4, SingleBid: 1, Ended: 2, Failed: 1}
	drop := &tenderbase.Drop{Count: 2, MeanBasis: 800, Initial: 200_000_000, Final: 184_000_000}
	region50 := tenderbase.Group{Key: "50", Figures: tenderbase.Figures{Count: 2, Sums: rub(200_000_000, 2), Prices: two, Drop: drop, Competition: comp}}
	region77 := tenderbase.Group{Key: "77", Figures: tenderbase.Figures{Count: 1, Sums: rub(50_000_000, 1), Prices: one(50_000_000)}}
	checkAggregate(t, st, tenders, tenderbase.Aggregate{Kind: tenderbase.KindTender, By: tenderbase.ByRegion,
		Groups: []tenderbase.Group{region50, region77},
		Total: tenderbase.Figures{Count: 3, Sums: rub(250_000_000, 3),
			Prices: &tenderbase.Quantiles{Count: 3, P25: 50_000_000, Median: 100_000_000, P75: 100_000_000}, Drop: drop, Competition: comp}})

	// The same by words and a filter: the road repairs of region 50, from
	// the text index (on PostgreSQL the postings, joined by doc).
	roads := tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, "ремонт дороги", query.MCP), Filters: tenderbase.Filters{Regions: []int{50}}}
	checkAggregate(t, st, tenderbase.Aggregation{Search: roads, By: tenderbase.ByRegion}, tenderbase.Aggregate{Kind: tenderbase.KindTender, By: tenderbase.ByRegion,
		Groups: []tenderbase.Group{region50}, Total: region50.Figures})

	// The contracts say no placing method: they take their notices'. Both
	// are of one supplier.
	contracts := tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindContract}, By: tenderbase.ByMethod}
	paid := tenderbase.Figures{Count: 2, Sums: rub(184_000_000, 2),
		Prices: &tenderbase.Quantiles{Count: 2, P25: 85_000_000, Median: 85_000_000, P75: 99_000_000}, Drop: drop, Competition: comp}
	checkAggregate(t, st, contracts, tenderbase.Aggregate{Kind: tenderbase.KindContract, By: tenderbase.ByMethod,
		Groups: []tenderbase.Group{{Key: "EA44", Name: "Электронный аукцион", Figures: paid}}, Total: paid})

}

func testAggregateInvalid(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	ag, ok := st.(tenderbase.Aggregator)
	if !ok {
		t.Fatalf("%T is no tenderbase.Aggregator", st)
	}
	for name, a := range map[string]tenderbase.Aggregation{
		"kind":            {Search: tenderbase.Search{Kind: tenderbase.KindComplaint}, By: tenderbase.ByCustomer},
		"dimension":       {Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: "colour"},
		"tender supplier": {Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.BySupplier},
		"level":           {Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByOKPD2, Level: 12},
		"top":             {Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByRegion, Top: 1000},
	} {
		if _, err := ag.Aggregate(context.Background(), a); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: want EINVALID, got %v", name, err)
		}
	}
}

// aggregateBenches are the aggregations BenchAggregates times over a
// store's benchmark corpus of tenders: every tender, a common word, the
// word with the filters of an analyst, a class and one customer.
func aggregateBenches(b *testing.B, inn string) []struct {
	name string
	a    tenderbase.Aggregation
} {
	word, err := query.Parse("поставка", query.MCP)
	if err != nil {
		b.Fatal(err)
	}
	tenders := func(q tenderbase.Query, f tenderbase.Filters, where ...tenderbase.Lookup) tenderbase.Search {
		return tenderbase.Search{Kind: tenderbase.KindTender, Query: q, Filters: f, Where: where}
	}
	return []struct {
		name string
		a    tenderbase.Aggregation
	}{
		{"all_by_region", tenderbase.Aggregation{Search: tenders(nil, tenderbase.Filters{}), By: tenderbase.ByRegion}},
		{"word_by_customer", tenderbase.Aggregation{Search: tenders(word, tenderbase.Filters{}), By: tenderbase.ByCustomer}},
		{"filters_by_month", tenderbase.Aggregation{Search: tenders(word, tenderbase.Filters{Regions: []int{77, 50}, Laws: []string{"44"}}), By: tenderbase.ByMonth}},
		{"okpd2_by_class", tenderbase.Aggregation{Search: tenders(nil, tenderbase.Filters{},
			tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "21.20"}), By: tenderbase.ByOKPD2, Level: 4}},
		{"customer_by_method", tenderbase.Aggregation{Search: tenders(nil, tenderbase.Filters{},
			tenderbase.Lookup{Field: tenderbase.LookupCustomerINN, Value: inn}), By: tenderbase.ByMethod}},
	}
}

// BenchAggregates times aggregates over a store's benchmark corpus, each
// a sub-benchmark reporting the matches it added up and the median and
// 95th percentile of its times; inn is a customer of the corpus.
func BenchAggregates(b *testing.B, st tenderbase.Aggregator, inn string) {
	for _, c := range aggregateBenches(b, inn) {
		b.Run(c.name, func(b *testing.B) {
			var times []time.Duration
			var n int
			for b.Loop() {
				start := time.Now()
				got, err := st.Aggregate(context.Background(), c.a)
				if err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
				n = got.Total.Count
			}
			slices.Sort(times)
			b.ReportMetric(float64(n), "matches")
			b.ReportMetric(float64(times[len(times)/2])/1e6, "p50-ms")
			b.ReportMetric(float64(times[len(times)*95/100])/1e6, "p95-ms")
		})
	}
}
