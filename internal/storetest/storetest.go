// Package storetest is the behaviour suite every tenderbase.Store must pass,
// so that the embedded and the scale-out stores give the same answers to the
// same questions. It is written from the Store contract, not from any store:
// known answers are spelled out, and every search result is also checked
// against a brute-force scan with query.Match.
package storetest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Open returns a fresh, empty store, and a function that opens one more
// store on the same data, as another process opens the same SQLite file or
// another server the same database. The suite closes every store either
// returns, when the subtest that opened it ends.
type Open func(t *testing.T) (tenderbase.Store, func(t *testing.T) tenderbase.Store)

// Run runs the suite against the stores that open returns, calling it once
// per group of subtests.
func Run(t *testing.T, open Open) {
	fresh := func(t *testing.T) tenderbase.Store {
		st, _ := open(t)
		return st
	}
	t.Run("Corpus", func(t *testing.T) {
		st := openStore(t, fresh)
		corpus := Corpus()
		got := put(t, st, corpus...)
		if diff := gocmp.Diff(tenderbase.PutResult{Inserted: len(corpus)}, got); diff != "" {
			t.Fatalf("Put of the corpus (-want +got):\n%s", diff)
		}
		c := &corpusStore{st: st, records: Corpus()}
		t.Run("Get", c.testGet)
		t.Run("Query", c.testQueries)
		t.Run("Order", c.testOrder)
		t.Run("Paging", c.testPaging)
		t.Run("Cursors", c.testCursors)
		t.Run("Filters", c.testFilters)
		t.Run("Where", c.testWhere)
		t.Run("Related", c.testRelated)
		t.Run("Reimport", c.testReimport) // last: it puts the corpus again
	})
	t.Run("Versions", func(t *testing.T) { testVersions(t, fresh) })
	t.Run("Ties", func(t *testing.T) { testTies(t, fresh) })
	t.Run("Withdrawals", func(t *testing.T) { testWithdrawals(t, fresh) })
	t.Run("Words", func(t *testing.T) { testWords(t, fresh) })
	t.Run("Batch", func(t *testing.T) { testBatch(t, fresh) })
	t.Run("Feed", func(t *testing.T) { testFeed(t, open) })
	t.Run("Subscriptions", func(t *testing.T) { testSubscriptions(t, open) })
	t.Run("OrgMerge", func(t *testing.T) { testOrgMerge(t, fresh) })
	t.Run("OrgBranchLookup", func(t *testing.T) { testOrgBranchLookup(t, fresh) })
	t.Run("LotEvents", func(t *testing.T) { testLotEvents(t, fresh) })
	t.Run("LotStops", func(t *testing.T) { testLotStops(t, fresh) })
	t.Run("UnfairExclusion", func(t *testing.T) { testUnfairExclusion(t, fresh) })
	t.Run("PlannedPurchases", func(t *testing.T) { testPlannedPurchases(t, fresh) })
	t.Run("SharedData", func(t *testing.T) { testSharedData(t, open) })
	t.Run("Aggregates", func(t *testing.T) { testAggregates(t, fresh) })
	t.Run("Generation", func(t *testing.T) { testGeneration(t, open) })
	t.Run("Unholdable", func(t *testing.T) { testUnholdable(t, fresh) })
	// Search.OpenTextOnly: a search that may not match the text of tariff
	// fields finds records by the rest of their text only, and its total
	// counts only those.
	t.Run("TariffText", checkPut(fresh, TariffRecords(), CheckTariffText))
	// Each record is found by the words a user of its language types.
	t.Run("Languages", checkPut(fresh, LanguageRecords(), CheckLanguages))
	// Each record is found by every form of its words, and by words
	// written with Latin look-alike letters.
	t.Run("Morphology", checkPut(fresh, MorphologyRecords(), CheckMorphology))
	// Records that hold most of a query's weight, from the index.
	t.Run("Partial", checkPut(fresh, PartialRecords(), CheckPartial))
	t.Run("Cancel", func(t *testing.T) { testCancel(t, fresh) })
	t.Run("PutEmpty", func(t *testing.T) {
		st := openStore(t, fresh)
		for _, rs := range [][]tenderbase.Record{nil, {}} {
			if diff := gocmp.Diff(tenderbase.PutResult{}, put(t, st, rs...)); diff != "" {
				t.Errorf("Put of no records (-want +got):\n%s", diff)
			}
		}
	})
}

// corpusStore is a store holding the fixture corpus, with the records that
// were put, in order, for the brute-force oracle.
type corpusStore struct {
	st      tenderbase.Store
	records []tenderbase.Record
}

// checkPut returns the test that puts recs into a fresh store and runs
// check against it.
func checkPut(open func(t *testing.T) tenderbase.Store, recs []tenderbase.Record, check func(*testing.T, tenderbase.Store)) func(*testing.T) {
	return func(t *testing.T) {
		st := openStore(t, open)
		put(t, st, recs...)
		check(t, st)
	}
}

func openStore(t *testing.T, open func(t *testing.T) tenderbase.Store) tenderbase.Store {
	t.Helper()
	return closing(t, open(t))
}

// closing closes st when the test ends.
func closing(t *testing.T, st tenderbase.Store) tenderbase.Store {
	t.Helper()
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return st
}

func put(t *testing.T, st tenderbase.Store, rs ...tenderbase.Record) tenderbase.PutResult {
	t.Helper()
	res, err := st.Put(context.Background(), rs)
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	return res
}

func get(t *testing.T, st tenderbase.Store, k tenderbase.Kind, key string) tenderbase.Record {
	t.Helper()
	r, err := st.Get(context.Background(), k, key)
	if err != nil {
		t.Fatalf("Get(%s, %q): %v", k, key, err)
	}
	return r
}

// searchAll returns the keys of every match of s, fetched in one page.
func searchAll(t *testing.T, st tenderbase.Store, s tenderbase.Search) (keys []string, total int) {
	t.Helper()
	s.Page, s.PageSize = 0, tenderbase.MaxPageSize
	p, err := st.Search(context.Background(), s)
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	if p.Total != len(p.Items) {
		t.Errorf("Search: total %d, but %d items in a page that holds all", p.Total, len(p.Items))
	}
	return keysOf(p.Items), p.Total
}

func keysOf(rs []tenderbase.Record) []string {
	keys := []string{}
	for _, r := range rs {
		keys = append(keys, r.Key())
	}
	return keys
}

// check searches and compares the keys found, newest first, with want and
// with the brute-force answer over the corpus.
func (c *corpusStore) check(t *testing.T, s tenderbase.Search, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	got, _ := searchAll(t, c.st, s)
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("Search %s (-want +got):\n%s", describe(s), diff)
	}
	if diff := gocmp.Diff(bruteForce(c.records, s), got); diff != "" {
		t.Errorf("Search %s differs from a brute-force scan (-scan +got):\n%s", describe(s), diff)
	}
}

// bruteForce answers s by scanning records, which were stored in this order
// and are all current versions.
func bruteForce(records []tenderbase.Record, s tenderbase.Search) []string {
	type hit struct {
		r   tenderbase.Record
		seq int
	}
	var hits []hit
	for i, r := range records {
		if r.Kind() == s.Kind && admits(s, r) {
			hits = append(hits, hit{r, i})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := b.r.Date().Compare(a.r.Date()); c != 0 {
			return c
		}
		return cmp.Compare(b.seq, a.seq)
	})
	keys := []string{}
	for _, h := range hits {
		keys = append(keys, h.r.Key())
	}
	return keys
}

func admits(s tenderbase.Search, r tenderbase.Record) bool {
	if s.Query != nil && !query.MatchRecord(s.Query, r, s.OpenTextOnly) {
		return false
	}
	for _, group := range s.Groups() {
		if !slices.ContainsFunc(group, func(f string) bool { return slices.Contains(r.Flags(), f) }) {
			return false
		}
	}
	for _, l := range s.Keys() {
		if !slices.Contains(r.Lookups(), l) {
			return false
		}
	}
	return true
}

func describe(s tenderbase.Search) string {
	d := string(s.Kind)
	if s.Query != nil {
		d += " " + query.Format(s.Query)
	}
	if s.OpenTextOnly {
		d += " (open text only)"
	}
	if !s.Filters.IsZero() {
		d += fmt.Sprintf(" filters %+v", s.Filters)
	}
	for _, l := range s.Where {
		d += " where " + l.String()
	}
	return d
}

// mustParse parses a query in one syntax.
func mustParse(t *testing.T, text string, syntax query.Syntax) tenderbase.Query {
	t.Helper()
	q, err := query.Parse(text, syntax)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return q
}

// sameRecord compares records by content; stores may return empty slices as
// nil and times in another location.
var sameRecord = gocmp.Options{cmpopts.EquateEmpty()}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := tenderbase.ErrorCode(err); got != code {
		t.Errorf("%s: error %v has code %q, want %q", what, err, got, code)
	}
}
