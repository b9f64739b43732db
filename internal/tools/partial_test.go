package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// partialPage is the part of a search answer the partial-match tests read,
// of the debug form and of the summary alike.
type partialPage struct {
	Total   int             `json:"total"`
	Items   []partialNumber `json:"items"`
	Partial []struct {
		partialNumber
		Lacks []string `json:"lacks"`
	} `json:"partial"`
}

// partialNumber is a tender's purchase number, as a whole record
// (purchase_number) or a summary (id) says it.
type partialNumber struct {
	PurchaseNumber string `json:"purchase_number"`
	ID             string `json:"id"`
}

// shown lists a page's strict records, then its partial matches with the
// words each lacks.
func (p partialPage) shown() []string {
	var out []string
	for _, it := range p.Items {
		out = append(out, it.PurchaseNumber+it.ID)
	}
	for _, it := range p.Partial {
		out = append(out, it.PurchaseNumber+it.ID+" lacks "+strings.Join(it.Lacks, ","))
	}
	return out
}

// partialTenders are tenders of a few words, the first published first:
// кровля (4 records) is rarer than здание (5), so that a record lacking
// здание outranks one lacking кровля although it is older.
func partialTenders() []tenderbase.Record {
	titles := []string{
		"Ремонт кровли здания",      // every word but the one no record has
		"Ремонт кровли",             // lacks здание: kept weight the higher
		"Ремонт здания",             // lacks кровля, and newer
		"Ремонт кровли и окон",      // excluded by !окно
		"Здание склада, поставка",   // здание alone: too little weight
		"Здание гаража, поставка",   // likewise
		"Ремонт дороги, поставка",   // ремонт alone
		"Ремонт забора, поставка",   // likewise
		"Кровля навеса, поставка",   // кровля alone
		"Ремонт здания школы, окна", // lacks кровля, and excluded
	}
	recs := make([]tenderbase.Record, len(titles))
	for i, title := range titles {
		recs[i] = &tenderbase.Tender{PurchaseNumber: fmt.Sprintf("03732000415250000%02d", i+1), Law: "44", Version: 1, Title: title, PublishedAt: day(1 + i)}
	}
	return recs
}

// TestPartialMatches checks, on both stores, that a query with a word no
// record has goes on after its strict set with the records that have most
// of its weight, each saying what it lacks, the rarer word's record first;
// that the total stays the strict one, exclusions hold, and strict or a
// page past the first shows none. Each store finds them from its index
// (tenderbase.PartialSearcher) and, hidden behind a plain Store, by
// dropped-word searches, alike.
func TestPartialMatches(t *testing.T) {
	for name, store := range bothStores(t) {
		if _, err := store.Put(context.Background(), partialTenders()); err != nil {
			t.Fatal(err)
		}
		for how, st := range map[string]tenderbase.Store{"index": store, "searches": plainStore{store}} {
			t.Run(name+"/"+how, func(t *testing.T) { testPartialMatches(t, st) })
		}
	}
}

// plainStore is a store with nothing but the methods of tenderbase.Store.
type plainStore struct{ tenderbase.Store }

func testPartialMatches(t *testing.T, store tenderbase.Store) {
	set := New(store, nil)
	for _, c := range []struct {
		args  string
		total int
		want  []string
	}{
		// The word no record has weighs as the rarest held: the
		// records with only two of the four words are short of half
		// the weight.
		{`"query": "ремонт кровли здания квазиграмматика"`, 0, []string{
			"0373200041525000001 lacks квазиграмматика",
		}},
		{`"query": "ремонт кровли здания"`, 1, []string{
			"0373200041525000001",
			"0373200041525000004 lacks здания",
			"0373200041525000002 lacks здания",
			"0373200041525000010 lacks кровли",
			"0373200041525000003 lacks кровли",
		}},
		{`"query": "ремонт кровли здания !окно"`, 1, []string{
			"0373200041525000001",
			"0373200041525000002 lacks здания",
			"0373200041525000003 lacks кровли",
		}},
		{`"query": "ремонт кровли здания", "exact": true`, 1, []string{"0373200041525000001"}},
		{`"query": "ремонт кровли здания", "page": 1`, 1, nil},
		// An OR group is one operand, kept or dropped whole.
		{`"query": "(кровли | навеса) ремонт здания"`, 1, []string{
			"0373200041525000001",
			"0373200041525000004 lacks здания",
			"0373200041525000002 lacks здания",
			"0373200041525000010 lacks кровли | навеса",
			"0373200041525000003 lacks кровли | навеса",
		}},
		{`"query": "ремонт квазиграмматика"`, 0, nil},
		{`"query": "квазиграмматика"`, 0, nil},
	} {
		p, out := decodeCall[partialPage](t, set, tenderbase.PlanCorporate, "ru.search", "{"+c.args+"}")
		var sum partialPage
		if err := json.Unmarshal(out.Summary, &sum); err != nil {
			t.Fatal(err)
		}
		if p.Total != c.total || sum.Total != c.total {
			t.Errorf("%s: total %d (summary %d), want %d", c.args, p.Total, sum.Total, c.total)
		}
		if diff := cmp.Diff(c.want, p.shown()); diff != "" {
			t.Errorf("%s: records (-want +got):\n%s", c.args, diff)
		}
		if diff := cmp.Diff(p.shown(), sum.shown()); diff != "" {
			t.Errorf("%s: the summary shows otherwise than the records (-records +summary):\n%s", c.args, diff)
		}
		if len(c.want) > c.total && !strings.Contains(out.Text, "lacks ") {
			t.Errorf("%s: the text says nothing of partial matches:\n%s", c.args, out.Text)
		}
	}
}

// searchCounter counts the searches of text a store is asked, and its
// partial matches.
type searchCounter struct {
	tenderbase.Store
	mu              sync.Mutex
	texts, partials int
}

func (s *searchCounter) Search(ctx context.Context, q tenderbase.Search) (tenderbase.Page, error) {
	if q.Query != nil {
		s.mu.Lock()
		s.texts++
		s.mu.Unlock()
	}
	return s.Store.Search(ctx, q)
}

func (s *searchCounter) SearchPartial(ctx context.Context, q tenderbase.Search, want int) (tenderbase.PartialPage, error) {
	s.mu.Lock()
	s.partials++
	s.mu.Unlock()
	return s.Store.(tenderbase.PartialSearcher).SearchPartial(ctx, q, want)
}

// TestPartialMatchesInOneRead checks, on both stores, that a query whose
// strict set is empty costs its strict search and one read of its partial
// matches: the words' counts, which corrections look the words up by, come
// with the partial matches instead of a search each.
func TestPartialMatchesInOneRead(t *testing.T) {
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := store.Put(context.Background(), partialTenders()); err != nil {
				t.Fatal(err)
			}
			counted := &searchCounter{Store: store}
			p, _ := decodeCall[partialPage](t, New(counted, nil), tenderbase.PlanCorporate, "ru.search", `{"query": "дороги навеса"}`)
			if len(p.Partial) == 0 {
				t.Fatalf("no partial matches: %v", p.shown())
			}
			if counted.texts != 1 || counted.partials != 1 {
				t.Errorf("%d searches of text and %d reads of partial matches, want 1 and 1", counted.texts, counted.partials)
			}
		})
	}
}
