package storetest

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/query"
)

// testAggregateReference puts the demo data and checks that every
// aggregate, of every kind by every dimension it has, and over searches
// with a query and filters, agrees exactly with a slow reference computed
// from the records the searches return.
func testAggregateReference(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	put(t, st, recs...)
	ref, err := referenceOf(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.tenders) == 0 || len(ref.contracts) == 0 || len(ref.protocols) == 0 {
		t.Fatalf("the demo data lacks tenders, contracts or protocols: %d, %d, %d", len(ref.tenders), len(ref.contracts), len(ref.protocols))
	}
	searches := []tenderbase.Search{
		{Kind: tenderbase.KindTender},
		{Kind: tenderbase.KindTender, Query: mustParse(t, "поставка", query.MCP), Filters: tenderbase.Filters{Laws: []string{"44"}}},
		{Kind: tenderbase.KindTender, Ranges: []tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 1_000_000, Max: math.Inf(1)}}},
		{Kind: tenderbase.KindContract},
		{Kind: tenderbase.KindContract, Query: mustParse(t, "поставка", query.MCP)},
		{Kind: tenderbase.KindProtocol},
	}
	checked := 0
	for _, s := range searches {
		matches := everyMatch(t, st, s)
		for _, by := range tenderbase.Dimensions {
			a := tenderbase.Aggregation{Search: s, By: by, Top: tenderbase.MaxTop}
			if a.Validate() != nil {
				continue
			}
			want := ref.aggregate(a, matches)
			got := aggregate(t, st, a)
			got.Generation = 0
			if !referenceEqual(want, got) {
				t.Errorf("Aggregate %s by %s differs from the reference:\nwant %+v\ngot  %+v", describe(s), by, want, got)
			}
			checked++
		}
	}
	// The demo's tenders have contracts and protocols: the reference
	// checks joined figures, not empty ones.
	if total := aggregate(t, st, tenderbase.Aggregation{Search: tenderbase.Search{Kind: tenderbase.KindTender}, By: tenderbase.ByRegion}).Total; total.Drop == nil || total.Competition == nil {
		t.Errorf("the demo's tenders aggregate without a price drop or competition: %+v", total)
	}
	if checked < 20 {
		t.Fatalf("only %d aggregates checked", checked)
	}
}

func referenceEqual(a, b tenderbase.Aggregate) bool {
	clear := func(f *tenderbase.Figures) {
		if f.Drop != nil {
			d := *f.Drop
			d.BasisTotal = 0
			f.Drop = &d
		}
	}
	for _, x := range []*tenderbase.Aggregate{&a, &b} {
		clear(&x.Total)
		for i := range x.Groups {
			clear(&x.Groups[i].Figures)
		}
	}
	return gocmp.Equal(a, b)
}

// everyMatch returns every record s matches, page by page.
func everyMatch(t *testing.T, st tenderbase.Store, s tenderbase.Search) []tenderbase.Record {
	t.Helper()
	out, err := matchesOf(context.Background(), st, s)
	if err != nil {
		t.Fatalf("Search %s: %v", describe(s), err)
	}
	return out
}

func matchesOf(ctx context.Context, st tenderbase.Store, s tenderbase.Search) ([]tenderbase.Record, error) {
	s.PageSize = tenderbase.MaxPageSize
	var out []tenderbase.Record
	for s.Page = 0; ; s.Page++ {
		p, err := st.Search(ctx, s)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if len(out) >= p.Total || len(p.Items) == 0 {
			return out, nil
		}
	}
}

// referenceOf reads the current tenders, contracts, protocols and events
// of st for a reference.
func referenceOf(ctx context.Context, st tenderbase.Store) (*reference, error) {
	ref := &reference{tenders: map[string]*tenderbase.Tender{}, contracts: map[string][]*tenderbase.Contract{},
		protocols: map[string][]*tenderbase.Protocol{}, events: map[string][]*tenderbase.TenderEvent{},
		complaints: map[string][]*tenderbase.Complaint{}, results: map[string][]*tenderbase.ComplaintResult{}}
	for _, k := range []tenderbase.Kind{tenderbase.KindTender, tenderbase.KindContract, tenderbase.KindProtocol, tenderbase.KindTenderEvent,
		tenderbase.KindComplaint, tenderbase.KindComplaintResult} {
		recs, err := matchesOf(ctx, st, tenderbase.Search{Kind: k})
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			switch r := r.(type) {
			case *tenderbase.Tender:
				ref.tenders[r.Key()] = r
			case *tenderbase.Contract:
				ref.contracts[r.PurchaseNumber] = append(ref.contracts[r.PurchaseNumber], r)
			case *tenderbase.Protocol:
				ref.protocols[r.PurchaseNumber] = append(ref.protocols[r.PurchaseNumber], r)
			case *tenderbase.TenderEvent:
				ref.events[r.PurchaseNumber] = append(ref.events[r.PurchaseNumber], r)
			case *tenderbase.Complaint:
				ref.complaints[r.PurchaseNumber] = append(ref.complaints[r.PurchaseNumber], r)
			case *tenderbase.ComplaintResult:
				ref.results[r.PurchaseNumber] = append(ref.results[r.PurchaseNumber], r)
			}
		}
	}
	return ref, nil
}

// reference aggregates from current records, by the rules of
// tenderbase.Aggregate written out plainly: each figure from the records
// it rests on, without the stores' facts.
type reference struct {
	tenders   map[string]*tenderbase.Tender
	contracts map[string][]*tenderbase.Contract
	protocols map[string][]*tenderbase.Protocol
	events    map[string][]*tenderbase.TenderEvent
	// complaints and results are the complaints and check results by
	// their purchase number.
	complaints map[string][]*tenderbase.Complaint
	results    map[string][]*tenderbase.ComplaintResult
}

// outcomes returns the outcome of every complaint against a purchase:
// each number a complaint or a check result of the purchase names, decided
// by the newest result naming it that decides one, else pending.
func (ref *reference) outcomes(purchase string) []string {
	if purchase == "" {
		return nil
	}
	numbers := map[string]bool{}
	for _, c := range ref.complaints[purchase] {
		if c.ComplaintNumber != "" {
			numbers[c.ComplaintNumber] = true
		}
	}
	for _, r := range ref.results[purchase] {
		if n := cmp.Or(r.ComplaintNumber, r.ComplaintRegNumber); n != "" {
			numbers[n] = true
		}
	}
	var out []string
	for n := range numbers {
		outcome, newest := tenderbase.ComplaintPending, time.Time{}
		for _, r := range ref.results[purchase] {
			if o := tenderbase.ComplaintOutcome(r.ComplaintResult); o != "" && cmp.Or(r.ComplaintNumber, r.ComplaintRegNumber) == n &&
				(newest.IsZero() || r.Date().After(newest)) {
				outcome, newest = o, r.Date()
			}
		}
		out = append(out, outcome)
	}
	return out
}

// refRow is what one record adds.
type refRow struct {
	purchase          string
	key, name         string
	amount            int64
	currency          string
	base, final, bids int64
	outcome           string
}

func (ref *reference) standing(number string) (tenderbase.TenderStanding, bool) {
	t := ref.tenders[number]
	if t == nil {
		return tenderbase.TenderStanding{}, false
	}
	newest := func(a, b tenderbase.Record) int { return b.Date().Compare(a.Date()) }
	ps := slices.Clone(ref.protocols[number])
	slices.SortStableFunc(ps, func(a, b *tenderbase.Protocol) int { return newest(a, b) })
	es := slices.Clone(ref.events[number])
	slices.SortStableFunc(es, func(a, b *tenderbase.TenderEvent) int { return newest(a, b) })
	return tenderbase.StandingOf(t, ps, es), true
}

func (ref *reference) row(a tenderbase.Aggregation, r tenderbase.Record) refRow {
	f, _ := tenderbase.FactsOf(r)
	var tf tenderbase.Facts
	tender := ref.tenders[f.Purchase]
	if tender != nil && r.Kind() != tenderbase.KindTender {
		tf, _ = tenderbase.FactsOf(tender)
	}
	row := refRow{purchase: f.Purchase, amount: f.Amount, currency: f.Currency}
	pick := func(own, ownName, joined, joinedName string) {
		row.key, row.name = own, ownName
		if own == "" {
			row.key, row.name = joined, joinedName
		}
	}
	region := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	switch a.By {
	case tenderbase.ByCustomer:
		pick(f.CustomerINN, f.CustomerName, tf.CustomerINN, tf.CustomerName)
	case tenderbase.BySupplier:
		pick(f.SupplierINN, f.SupplierName, tf.SupplierINN, tf.SupplierName)
	case tenderbase.ByOrganizer:
		pick(f.OrganizerINN, f.OrganizerName, tf.OrganizerINN, tf.OrganizerName)
	case tenderbase.ByRegion:
		pick(region(f.Region), "", region(tf.Region), "")
	case tenderbase.ByOKPD2:
		pick(f.OKPD2, "", tf.OKPD2, "")
		row.key = tenderbase.OKPD2Class(row.key, a.Digits())
	case tenderbase.ByMethod:
		pick(f.MethodCode, f.Method, tf.MethodCode, tf.Method)
	case tenderbase.ByLaw:
		pick(f.Law, "", tf.Law, "")
	case tenderbase.ByMonth, tenderbase.ByQuarter:
		row.key = tenderbase.Period(a.By, f.Published)
	}
	standingOf := func() {
		if s, ok := ref.standing(f.Purchase); ok {
			row.bids, row.outcome = int64(len(s.Participants)), s.State
		}
	}
	switch r.Kind() {
	case tenderbase.KindTender:
		row.base = f.Base
		if cs := ref.contracts[f.Purchase]; len(cs) == 1 {
			if cf, _ := tenderbase.FactsOf(cs[0]); cf.Currency == f.Currency {
				row.final = cf.Amount
			}
		}
		standingOf()
	case tenderbase.KindContract:
		if tender != nil && tf.Currency == f.Currency {
			row.base = tf.Base
		}
		row.final = f.Amount
		standingOf()
	case tenderbase.KindProtocol:
		row.currency = "RUB"
		if tender != nil {
			row.currency, row.base = tf.Currency, tf.Base
		}
		row.final, row.bids, row.outcome = f.Amount, int64(f.Bids), f.Outcome
	}
	return row
}

func (ref *reference) aggregate(a tenderbase.Aggregation, matches []tenderbase.Record) tenderbase.Aggregate {
	groups := map[string][]refRow{}
	var all []refRow
	for _, r := range matches {
		row := ref.row(a, r)
		groups[row.key] = append(groups[row.key], row)
		all = append(all, row)
	}
	out := tenderbase.Aggregate{Kind: a.Search.Kind, By: a.By, Groups: []tenderbase.Group{}, Total: ref.figures(all)}
	if a.By == tenderbase.ByOKPD2 {
		out.Level = a.Digits()
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	rubles := func(k string) int64 {
		for _, s := range ref.figures(groups[k]).Sums {
			if s.Currency == "RUB" {
				return s.Minor
			}
		}
		return 0
	}
	sort.Slice(keys, func(i, j int) bool {
		a1, b1 := keys[i], keys[j]
		if a.By == tenderbase.ByMonth || a.By == tenderbase.ByQuarter {
			return a1 > b1
		}
		if len(groups[a1]) != len(groups[b1]) {
			return len(groups[a1]) > len(groups[b1])
		}
		if rubles(a1) != rubles(b1) {
			return rubles(a1) > rubles(b1)
		}
		return a1 < b1
	})
	for i, k := range keys {
		if i == a.Size() {
			out.More = len(keys) - i
			break
		}
		out.Groups = append(out.Groups, tenderbase.Group{Key: k, Name: refName(groups[k]), Figures: ref.figures(groups[k])})
	}
	return out
}

func refName(rows []refRow) string {
	count := map[string]int{}
	for _, r := range rows {
		if r.name != "" {
			count[r.name]++
		}
	}
	var names []string
	for n := range count {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := names[i], names[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a < b
	})
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// figures returns the figures of rows, with the complaints against their
// purchases, each purchase once.
func (ref *reference) figures(rows []refRow) tenderbase.Figures {
	f := refFigures(rows)
	var claims tenderbase.Complaints
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.purchase] {
			continue
		}
		seen[r.purchase] = true
		for _, o := range ref.outcomes(r.purchase) {
			claims.Add(o)
		}
	}
	if claims.Count > 0 {
		f.Complaints = &claims
	}
	return f
}

func refFigures(rows []refRow) tenderbase.Figures {
	f := tenderbase.Figures{Count: len(rows)}
	sums := map[string]*tenderbase.Sum{}
	var prices []int64
	var drop tenderbase.Drop
	var bp []float64
	var comp tenderbase.Competition
	for _, r := range rows {
		if r.amount > 0 {
			if sums[r.currency] == nil {
				sums[r.currency] = &tenderbase.Sum{Currency: r.currency}
			}
			sums[r.currency].Minor += r.amount
			sums[r.currency].Count++
			if r.currency == "RUB" {
				prices = append(prices, r.amount)
			}
		}
		if r.base > 0 && r.final > 0 {
			drop.Count++
			drop.Initial += r.base
			drop.Final += r.final
			bp = append(bp, math.Round(float64(r.base-r.final)*10000/float64(r.base)))
		}
		if r.bids > 0 {
			comp.Procedures++
			comp.Participants += int(r.bids)
			if r.bids == 1 {
				comp.SingleBid++
			}
		}
		if r.outcome == tenderbase.TenderCompleted || r.outcome == tenderbase.TenderFailed {
			comp.Ended++
			if r.outcome == tenderbase.TenderFailed {
				comp.Failed++
			}
		}
	}
	if s := sums["RUB"]; s != nil {
		f.Sums = append(f.Sums, *s)
	}
	var others []string
	for c := range sums {
		if c != "RUB" {
			others = append(others, c)
		}
	}
	sort.Strings(others)
	for _, c := range others {
		f.Sums = append(f.Sums, *sums[c])
	}
	if len(prices) > 0 {
		sort.Slice(prices, func(i, j int) bool { return prices[i] < prices[j] })
		at := func(p float64) int64 { return prices[int(math.Max(math.Ceil(p*float64(len(prices))), 1))-1] }
		f.Prices = &tenderbase.Quantiles{Count: len(prices), P25: at(0.25), Median: at(0.5), P75: at(0.75)}
	}
	if drop.Count > 0 {
		total := 0.0
		for _, b := range bp {
			total += b
		}
		drop.MeanBasis = int64(math.Round(total / float64(drop.Count)))
		f.Drop = &drop
	}
	if comp != (tenderbase.Competition{}) {
		f.Competition = &comp
	}
	return f
}
