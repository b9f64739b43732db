package storetest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

// EndsCustomers is how many customers the contracts of ContractCorpus
// share; the first of them, EndsCustomer(0), has the most.
const EndsCustomers = 500

// EndsCustomer returns the INN of the i-th customer of ContractCorpus.
func EndsCustomer(i int) string { return fmt.Sprintf("77%08d", i) }

// endsClasses are the OKPD2 codes of ContractCorpus's objects, a few
// classes of many codes each.
var endsClasses = []string{"43.91.19.110", "43.29.19.000", "43.99.90.190", "81.21.10.000", "81.29.12.000",
	"17.12.14.110", "86.10.10.000", "62.01.11.000", "49.39.11.000", "35.30.11.120"}

// ContractCorpus returns n contracts as of now, seeded: customers drawn
// by a Zipf law (the first has the most), one object of one of a few
// classes each, signed over the 6 years before now, with terms of 1 to 36
// months, and one in ten with no end given, for the benchmarks of the
// renewal searches.
func ContractCorpus(n int, now time.Time) []tenderbase.Record {
	r := rand.New(rand.NewPCG(36, 4))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(4, 36)), 1.1, 1, EndsCustomers-1)
	out := make([]tenderbase.Record, 0, n)
	for i := range n {
		code := endsClasses[r.IntN(len(endsClasses))]
		c := &tenderbase.Contract{RegNumber: fmt.Sprintf("37%017d", i), Law: "44", Version: 1, Subject: "Контракт " + code,
			Customer: tenderbase.Party{INN: EndsCustomer(int(zipf.Uint64()))}, Region: 77,
			Price: float64(10_000 + r.IntN(10_000_000)), Currency: "RUB",
			SignedAt: now.Add(-time.Duration(r.Int64N(int64(6 * 365 * 24 * time.Hour)))).Truncate(time.Second),
			Objects:  []tenderbase.PurchaseObject{{OKPD2Code: code, Name: "Объект " + code}}}
		if r.IntN(10) > 0 {
			c.EndsAt = c.SignedAt.AddDate(0, 1+r.IntN(36), 0)
		}
		out = append(out, c)
	}
	return out
}

// PutContractCorpus stores ContractCorpus(n) as of now in s, size
// records a Put, and returns the now it is of.
func PutContractCorpus(tb testing.TB, s tenderbase.Store, n, size int) time.Time {
	tb.Helper()
	now := time.Now()
	for batch := range slices.Chunk(ContractCorpus(n, now), size) {
		if _, err := s.Put(context.Background(), batch); err != nil {
			tb.Fatal(err)
		}
	}
	return now
}

// BenchEnds times the searches of contracts ending soon on s, holding
// ContractCorpus as of now: every contract ending in the next 3 months,
// soonest first; those of an OKPD2 class; those of the busiest customer
// in a class. Each reports its total.
func BenchEnds(b *testing.B, s tenderbase.Store, now time.Time) {
	soon := tenderbase.Range{Measure: tenderbase.MeasureEnds, Min: float64(now.Unix()), Max: float64(now.AddDate(0, 3, 0).Unix())}
	class := tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "43"}
	customer := tenderbase.Lookup{Field: tenderbase.LookupCustomerINN, Value: EndsCustomer(0)}
	for _, c := range []struct {
		name string
		s    tenderbase.Search
	}{
		{"ending soon", tenderbase.Search{Ranges: []tenderbase.Range{soon}, Sort: tenderbase.SortEnds}},
		{"by end", tenderbase.Search{Sort: tenderbase.SortEnds}},
		{"class ending soon", tenderbase.Search{Where: []tenderbase.Lookup{class}, Ranges: []tenderbase.Range{soon}, Sort: tenderbase.SortEnds}},
		{"customer and class ending soon", tenderbase.Search{Where: []tenderbase.Lookup{customer, class},
			Ranges: []tenderbase.Range{soon}, Sort: tenderbase.SortEnds}},
		{"any end, newest", tenderbase.Search{Ranges: []tenderbase.Range{{Measure: tenderbase.MeasureEnds, Min: math.Inf(-1), Max: math.Inf(1)}}}},
	} {
		c.s.Kind, c.s.PageSize = tenderbase.KindContract, tenderbase.DefaultPageSize
		b.Run(c.name, func(b *testing.B) {
			var total int
			for b.Loop() {
				// A total cached by the store would time nothing but
				// the page after the first loop: every search after an
				// import counts anew.
				if f, ok := s.(interface{ ForgetTotals() }); ok {
					f.ForgetTotals()
				}
				p, err := s.Search(b.Context(), c.s)
				if err != nil {
					b.Fatal(err)
				}
				total = p.Total
			}
			b.ReportMetric(float64(total), "total")
		})
	}
}
