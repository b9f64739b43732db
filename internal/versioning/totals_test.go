package versioning

import (
	"math"
	"reflect"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestTotalKey changes a search one field at a time: a field that selects
// records gives another key, one that places the page gives the same. A
// field the table does not name fails the test, so that a field added to
// tenderbase.Search is either part of the key or said not to count.
func TestTotalKey(t *testing.T) {
	base := tenderbase.Search{
		Kind:    tenderbase.KindTender,
		Query:   tenderbase.TermQuery{Form: "кровли", Stem: "кровл"},
		Filters: tenderbase.Filters{Regions: []int{77}, Countries: []int{276}, Laws: []string{"44"}},
		Where:   []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7701000001"}},
		Ranges:  []tenderbase.Range{{Measure: tenderbase.MeasurePublished, Min: 1.7e9, Max: math.Inf(1)}},
		Sort:    tenderbase.SortNewest,
	}
	selecting := map[string][]func(*tenderbase.Search){
		"Kind": {func(s *tenderbase.Search) { s.Kind = tenderbase.KindContract }},
		"Query": {
			func(s *tenderbase.Search) {
				s.Query = tenderbase.TermQuery{Form: "кровли", Stem: "кровл", Exact: true}
			},
			func(s *tenderbase.Search) { s.Query = tenderbase.OrQuery{Operands: []tenderbase.Query{base.Query}} },
			func(s *tenderbase.Search) { s.Query = tenderbase.AndQuery{Operands: []tenderbase.Query{base.Query}} },
			func(s *tenderbase.Search) { s.Query = nil },
		},
		"Filters": {
			func(s *tenderbase.Search) { s.Filters.Regions = []int{50} },
			func(s *tenderbase.Search) { s.Filters.Countries = nil },
			func(s *tenderbase.Search) { s.Filters.Laws = []string{"223"} },
		},
		"Where": {
			func(s *tenderbase.Search) {
				s.Where = []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7701000002"}}
			},
			func(s *tenderbase.Search) {
				s.Where = []tenderbase.Lookup{{Field: tenderbase.LookupSupplierINN, Value: "7701000001"}}
			},
		},
		"Ranges": {
			// Two published-date bounds a second apart once shared a key.
			func(s *tenderbase.Search) {
				s.Ranges = []tenderbase.Range{{Measure: tenderbase.MeasurePublished, Min: 1.7e9 + 1, Max: math.Inf(1)}}
			},
			func(s *tenderbase.Search) {
				s.Ranges = []tenderbase.Range{{Measure: tenderbase.MeasurePublished, Min: 1.7e9, Max: 1.8e9}}
			},
			func(s *tenderbase.Search) {
				s.Ranges = []tenderbase.Range{{Measure: tenderbase.MeasurePrice, Min: 1.7e9, Max: math.Inf(1)}}
			},
			func(s *tenderbase.Search) { s.Ranges = nil },
		},
		"Sort":         {func(s *tenderbase.Search) { s.Sort = tenderbase.SortPriceAsc }},
		"OpenTextOnly": {func(s *tenderbase.Search) { s.OpenTextOnly = true }},
	}
	placing := map[string]func(*tenderbase.Search){
		"Page":     func(s *tenderbase.Search) { s.Page = 3 },
		"PageSize": func(s *tenderbase.Search) { s.PageSize = 100 },
		"Cursor":   func(s *tenderbase.Search) { s.Cursor = "abc" },
	}
	for f := range reflect.TypeFor[tenderbase.Search]().Fields() {
		if selecting[f.Name] == nil && placing[f.Name] == nil {
			t.Errorf("tenderbase.Search.%s: say whether it selects records or places the page", f.Name)
		}
	}
	key := TotalKey(base)
	for name, changes := range selecting {
		for i, change := range changes {
			s := base
			change(&s)
			if TotalKey(s) == key {
				t.Errorf("%s, change %d: the key of the search before", name, i)
			}
		}
	}
	for name, change := range placing {
		s := base
		change(&s)
		if TotalKey(s) != key {
			t.Errorf("%s: another key, though the total is the same", name)
		}
	}
	// The order of filter values and lookups changes nothing.
	a, b := base, base
	a.Filters.Regions, b.Filters.Regions = []int{77, 50, 77}, []int{50, 77}
	a.Where = append([]tenderbase.Lookup{{Field: tenderbase.LookupOKPD2, Value: "43"}}, base.Where...)
	b.Where = append(append([]tenderbase.Lookup{}, base.Where...), tenderbase.Lookup{Field: tenderbase.LookupOKPD2, Value: "43"})
	if TotalKey(a) != TotalKey(b) {
		t.Errorf("filters or lookups in another order give another key:\n%s\n%s", TotalKey(a), TotalKey(b))
	}
}
