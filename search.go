package tenderbase

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// DefaultPageSize is the page size of the search tools.
const DefaultPageSize = 20

// Search asks a store for one page of records of one kind, in the order
// Sort names.
type Search struct {
	Kind    Kind
	Query   Query    // nil lists every record that the other conditions admit
	Filters Filters  // flags; empty admits everything
	Where   []Lookup // exact keys; every one must hold
	Ranges  []Range  // bounds of measures; every one must hold
	Sort    Sort     // the order of the results; "" is SortNewest
	// OpenTextOnly makes the query match only the text of the fields every
	// plan sees (OpenText), not that of tariff fields (TariffText). It is
	// set by Plan.Restrict for a caller whose plan hides fields.
	OpenTextOnly bool
	Page         int // from 0
	// PageSize is the number of records a page holds; 0 means DefaultPageSize.
	PageSize int
	// Cursor, the Next of a page of the same search, asks for the page
	// after that one. A page after a cursor costs what the first page
	// costs, where page N by number passes N pages first. Page must be 0.
	Cursor string
}

// Page is one page of search results with the exact total of matches.
type Page struct {
	Total    int      `json:"total"`
	Page     int      `json:"page"`
	PageSize int      `json:"page_size"`
	Items    []Record `json:"items"`
	// Next is the cursor of the page after this one, "" when this one is
	// the last.
	Next string `json:"next,omitempty"`
	// Generation is the generation of the data the page was read from: a
	// number that every Put that changes something raises, so that two
	// pages of one generation come from the same data, and the page after
	// this one by Next is then the page after it by number. 0 when the
	// store does not say.
	Generation int64 `json:"-"`
}

// PartialSearcher is a store that finds the partial matches of a search
// from its index in one read: the records that match some of the positive
// operands of its query, an AND, but not all, ranked by the rarity of what
// they hold (internal/postings: Partial). Both stores of the project are
// PartialSearchers.
type PartialSearcher interface {
	// SearchPartial returns up to want records, best first, that match
	// some but not all of the positive operands of s's query, an AND of
	// them beside its exclusions, each with what it holds; every exclusion
	// and filter of s holds. Records that hold at most half of the query's
	// weight are left out, and those of exactly half come only when no
	// record holds more. Within one set of operands held the records come
	// newest first, or by relevance for SortRelevance. The page and cursor
	// of s are ignored. It returns an error that wraps
	// errors.ErrUnsupported when the index does not answer s: a lookup or
	// a range among its conditions, another order, or a phrase the
	// postings do not match exactly.
	SearchPartial(ctx context.Context, s Search, want int) (PartialPage, error)
}

// PartialPage is the partial matches of a search, best first.
type PartialPage struct {
	Matches []PartialMatch
	// Counts are, for each positive operand of the query's AND, in order,
	// the records of the kind that match it alone, whatever the filters:
	// the total of a search of it alone, which the index reads on the way.
	Counts []int
	// Generation is that of the data read (Page.Generation).
	Generation int64
}

// PartialMatch is a record that matches some of a query's positive
// operands.
type PartialMatch struct {
	Record Record
	// Held are the positive operands of the query's AND, in order, that
	// the record matches.
	Held []bool
	// Weight is the weight of the operands held, by their rarity.
	Weight float64
}

// Groups returns the flag groups a record must match, one flag of each at
// least: the filters', and one for each lookup of Where that records carry
// as a flag (Lookup.Flag).
func (s Search) Groups() [][]string {
	groups := s.Filters.Groups()
	for _, l := range s.Where {
		if f, ok := l.Flag(); ok {
			groups = append(groups, []string{f})
		}
	}
	return groups
}

// Keys returns the lookups of Where that records carry as lookups, each of
// which must hold; the others are among Groups.
func (s Search) Keys() []Lookup {
	var keys []Lookup
	for _, l := range s.Where {
		if _, ok := l.Flag(); !ok {
			keys = append(keys, l)
		}
	}
	return keys
}

// Filters narrow a search by flags. Within one list any value admits a
// record; between lists all must.
type Filters struct {
	Regions   []int    // region codes; flag "r<code>"
	Countries []int    // ISO 3166 numeric codes; flag "cr<code>"
	Laws      []string // "44", "223"; flag "fz<law>"
}

// IsZero reports whether the filters admit everything.
func (f Filters) IsZero() bool {
	return len(f.Regions) == 0 && len(f.Countries) == 0 && len(f.Laws) == 0
}

// Groups returns the filters as flag groups: a record must carry at least one
// flag of every group. No group holds a flag twice, however often the lists
// repeat a value, since a store's work grows with every flag it matches.
func (f Filters) Groups() [][]string {
	f = f.Normalize()
	var groups [][]string
	if len(f.Regions) > 0 {
		groups = append(groups, mapInts(f.Regions, RegionFlag))
	}
	if len(f.Countries) > 0 {
		groups = append(groups, mapInts(f.Countries, CountryFlag))
	}
	if len(f.Laws) > 0 {
		var g []string
		for _, l := range f.Laws {
			g = append(g, "fz"+l)
		}
		groups = append(groups, g)
	}
	return groups
}

// ParseFilters reads the raw filters object of the search tools (spec 4.3):
// keys "r<code>" (region), "cr<code>" (country) and "fz44"/"fz223" (law), each
// with the value 1 (or true, or "1"). Any other key or value is an EINVALID
// error naming it; an unknown key is never ignored.
func ParseFilters(raw map[string]any) (Filters, error) {
	var f Filters
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !filterOn(raw[k]) {
			return Filters{}, Errorf(EINVALID, "filter %s: value must be 1, got %s", Quote(k), Quote(fmt.Sprint(raw[k])))
		}
		switch {
		case k == "fz44" || k == "fz223":
			f.Laws = append(f.Laws, strings.TrimPrefix(k, "fz"))
		case strings.HasPrefix(k, "cr"):
			code, err := flagCode(k, "cr", 1, 999)
			if err != nil {
				return Filters{}, err
			}
			f.Countries = append(f.Countries, code)
		case strings.HasPrefix(k, "r"):
			code, err := flagCode(k, "r", 1, 99)
			if err != nil {
				return Filters{}, err
			}
			f.Regions = append(f.Regions, code)
		default:
			return Filters{}, Errorf(EINVALID, "unknown filter %s: filters are r<region code>, cr<country code>, fz44, fz223", Quote(k))
		}
	}
	return f, nil
}

// Merge returns f with the values of g added, without duplicates.
func (f Filters) Merge(g Filters) Filters {
	return Filters{
		Regions:   slices.Concat(f.Regions, g.Regions),
		Countries: slices.Concat(f.Countries, g.Countries),
		Laws:      slices.Concat(f.Laws, g.Laws),
	}.Normalize()
}

// Normalize returns f with every value once, where it first appears.
func (f Filters) Normalize() Filters {
	return Filters{Regions: distinct(f.Regions), Countries: distinct(f.Countries), Laws: distinct(f.Laws)}
}

func filterOn(v any) bool {
	switch v := v.(type) {
	case float64:
		return v == 1
	case int:
		return v == 1
	case bool:
		return v
	case string:
		return v == "1"
	}
	return false
}

func flagCode(key, prefix string, lo, hi int) (int, error) {
	code, err := strconv.Atoi(strings.TrimPrefix(key, prefix))
	if err != nil || code < lo || code > hi {
		return 0, Errorf(EINVALID, "unknown filter %s: %s must be followed by a code from %d to %d", Quote(key), prefix, lo, hi)
	}
	return code, nil
}

func mapInts(codes []int, flag func(int) string) []string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = flag(c)
	}
	return out
}

// distinct returns the values of vs once each, in the order they first
// appear, in time linear in len(vs); nil stays nil.
func distinct[T comparable](vs []T) []T {
	if len(vs) == 0 {
		return nil
	}
	seen := make(map[T]bool, len(vs))
	out := make([]T, 0, len(vs))
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// Resource is a searchable collection as the tools and the command line name
// it: "ru", "docs", "contracts", "world", "torgi", "complaints", "fas".
type Resource string

// Resources maps every searchable resource to the kind of record it holds.
var Resources = []struct {
	Name Resource
	Kind Kind
}{
	{"ru", KindTender},
	{"docs", KindDoc},
	{"contracts", KindContract},
	{"world", KindWorldTender},
	{"torgi", KindLot},
	{"complaints", KindComplaint},
	{"fas", KindFASCase},
	{"rnp", KindUnfairSupplier},
	{"plans", KindPlannedPurchase},
}

// ResourceKind returns the kind of record a resource holds, or an EINVALID
// error naming the known resources.
func ResourceKind(name string) (Kind, error) {
	var names []string
	for _, r := range Resources {
		if string(r.Name) == name {
			return r.Kind, nil
		}
		names = append(names, string(r.Name))
	}
	return "", Errorf(EINVALID, "unknown resource %s (known: %s)", Quote(name), strings.Join(names, ", "))
}

// Sort is an order of search results. Every order is total: records it
// ranks alike come newest first, as SortNewest orders them, so that pages
// never overlap or skip a record.
type Sort string

// The orders. A record without the measure an order sorts by (no deadline,
// no price in roubles) comes after every record with it, either way.
const (
	SortNewest    Sort = "newest"     // by Date, newest first
	SortDeadline  Sort = "deadline"   // the soonest deadline first
	SortPriceAsc  Sort = "price_asc"  // the lowest price first
	SortPriceDesc Sort = "price_desc" // the highest price first
	SortEnds      Sort = "ends"       // the soonest end of a contract's term first
	SortRelevance Sort = "relevance"  // the best match of the query first, by the impact levels of the postings
)

// Sorts lists the orders, the default first.
var Sorts = []Sort{SortNewest, SortDeadline, SortPriceAsc, SortPriceDesc, SortEnds, SortRelevance}

// Measure returns the measure the order sorts by, "" for newest and
// relevance.
func (s Sort) Measure() Measure {
	switch s {
	case SortDeadline:
		return MeasureDeadline
	case SortPriceAsc, SortPriceDesc:
		return MeasurePrice
	case SortEnds:
		return MeasureEnds
	}
	return ""
}

// Order returns the search's order, SortNewest when none is set.
func (s Search) Order() Sort {
	if s.Sort == "" {
		return SortNewest
	}
	return s.Sort
}

// Validate checks a search's paging, order and ranges, and returns an
// EINVALID error for a negative page, a page size out of range, an unknown
// order, relevance without a query, or a range of an unknown measure.
func (s Search) Validate() error {
	if !slices.Contains(Sorts, s.Order()) {
		return Errorf(EINVALID, "unknown sort %s (known: %s)", Quote(string(s.Sort)), joinSorts())
	}
	if s.Order() == SortRelevance && s.Query == nil {
		return Errorf(EINVALID, "sort %s ranks the matches of a query; give a query with words, or another sort", SortRelevance)
	}
	for _, r := range s.Ranges {
		switch r.Measure {
		case MeasurePublished, MeasurePrice, MeasureDeadline, MeasureEnds:
		default:
			return Errorf(EINVALID, "unknown measure %s", Quote(string(r.Measure)))
		}
		if math.IsNaN(r.Min) || math.IsNaN(r.Max) {
			return Errorf(EINVALID, "range of %s is not a number", r.Measure)
		}
	}
	if s.Page < 0 {
		return Errorf(EINVALID, "page must be 0 or more, got %d", s.Page)
	}
	if s.Cursor != "" && s.Page != 0 {
		return Errorf(EINVALID, "give a page number or a cursor, not both: a cursor names the page after the one that gave it")
	}
	if s.PageSize < 0 || s.PageSize > MaxPageSize {
		return Errorf(EINVALID, "page size must be from 1 to %d, got %d", MaxPageSize, s.PageSize)
	}
	return nil
}

func joinSorts() string {
	names := make([]string, len(Sorts))
	for i, s := range Sorts {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// MaxPageSize bounds one page of any search.
const MaxPageSize = 1000

// Size returns the effective page size.
func (s Search) Size() int {
	if s.PageSize == 0 {
		return DefaultPageSize
	}
	return s.PageSize
}

func (l Lookup) String() string { return fmt.Sprintf("%s=%s", l.Field, l.Value) }
