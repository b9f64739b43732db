package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Bounds of the search arguments. maxPage keeps page × page size far from
// overflowing; no plan pages that far. maxRegions is every region once;
// ISO 3166-1 assigns maxCountries numeric codes, so a longer list names a
// code no country has. maxFilterKeys admits every flag one tool takes: 99
// regions and the 2 laws, or every country.
const (
	minRegion, maxRegion   = 1, 99
	minCountry, maxCountry = 1, 999
	maxPage                = 1_000_000
	maxRegions             = maxRegion - minRegion + 1
	maxCountries           = 249
	maxFilterKeys          = max(maxRegions+2, maxCountries)
	maxStateLength         = 16 // "completed" and the rest, with room
)

// searchArgs are the arguments of ru.search, docs.search, contracts.search
// and torgi.search.
type searchArgs struct {
	Query   string         `json:"query" jsonschema:"What to find, in the query language: words in any form, & or a space for AND, | for OR, !word to exclude, \"words\" for a phrase, =word for the exact form, ( ) to group. Required."`
	Regions []int          `json:"regions,omitempty" jsonschema:"Region codes of the Russian Federation (1-99) to search in, e.g. [77, 50] for Moscow and Moscow oblast; a record in any of them matches. Empty: all regions."`
	Page    int            `json:"page,omitempty" jsonschema:"Page number from 0; 20 records a page. Default 0."`
	Filters map[string]any `json:"filters,omitempty" jsonschema:"Raw filter flags, each with the value 1: r<region code> (r77), fz44 or fz223 where the records have a law. Merged with regions."`
}

func (a searchArgs) check() error {
	if err := checkPage(a.Page); err != nil {
		return err
	}
	return checkCodes("regions", a.Regions, minRegion, maxRegion)
}

func (a searchArgs) request() searchRequest {
	return searchRequest{query: a.Query, page: a.Page, filters: a.Filters, flags: tenderbase.Filters{Regions: a.Regions}}
}

// ruSearchArgs are the arguments of ru.search: those of searchArgs and the
// state a tender is in.
type ruSearchArgs struct {
	Query   string         `json:"query" jsonschema:"What to find, in the query language: words in any form, & or a space for AND, | for OR, !word to exclude, \"words\" for a phrase, =word for the exact form, ( ) to group. Required."`
	Regions []int          `json:"regions,omitempty" jsonschema:"Region codes of the Russian Federation (1-99) to search in, e.g. [77, 50] for Moscow and Moscow oblast; a record in any of them matches. Empty: all regions."`
	Page    int            `json:"page,omitempty" jsonschema:"Page number from 0; 20 records a page. Default 0."`
	Filters map[string]any `json:"filters,omitempty" jsonschema:"Raw filter flags, each with the value 1: r<region code> (r77), fz44 or fz223 where the records have a law. Merged with regions."`
	State   string         `json:"state,omitempty" jsonschema:"Only tenders in this state once their protocols and events are applied, as ru.detail derives it: active, completed, cancelled or failed. Empty: every state."`
}

func (a ruSearchArgs) common() searchArgs {
	return searchArgs{Query: a.Query, Regions: a.Regions, Page: a.Page, Filters: a.Filters}
}

func (a ruSearchArgs) check() error {
	if a.State != "" && !slices.Contains(tenderbase.TenderStates, a.State) {
		return argErrorf("argument \"state\" is one of %s, got %s", strings.Join(tenderbase.TenderStates, ", "), tenderbase.Quote(a.State))
	}
	return a.common().check()
}

func (a ruSearchArgs) request() searchRequest {
	r := a.common().request()
	if a.State != "" {
		r.where = []tenderbase.Lookup{{Field: tenderbase.LookupState, Value: a.State}}
	}
	return r
}

// worldSearchArgs are the arguments of world.search.
type worldSearchArgs struct {
	Query     string         `json:"query" jsonschema:"What to find, in the query language: words in any form (in each notice's language: English, German, French, Spanish... are stemmed; Polish, Czech... only folded; diacritics never matter), & or a space for AND, | for OR, !word to exclude, \"words\" for a phrase, =word for the exact form, ( ) to group. Required."`
	Countries []int          `json:"countries,omitempty" jsonschema:"ISO 3166 numeric country codes (1-999), e.g. [276, 250] for Germany and France; a tender in any of them matches. Empty: all countries."`
	Page      int            `json:"page,omitempty" jsonschema:"Page number from 0; 20 records a page. Default 0."`
	Filters   map[string]any `json:"filters,omitempty" jsonschema:"Raw filter flags, each with the value 1: cr<country code> (cr276). Merged with countries."`
}

func (a worldSearchArgs) check() error {
	if err := checkPage(a.Page); err != nil {
		return err
	}
	return checkCodes("countries", a.Countries, minCountry, maxCountry)
}

func (a worldSearchArgs) request() searchRequest {
	return searchRequest{query: a.Query, page: a.Page, filters: a.Filters, flags: tenderbase.Filters{Countries: a.Countries}}
}

func checkPage(page int) error {
	if page < 0 || page > maxPage {
		return argErrorf("argument \"page\" must be from 0 to %d (pages count from 0), got %d", maxPage, page)
	}
	return nil
}

func checkCodes(name string, codes []int, lo, hi int) error {
	for _, c := range codes {
		if c < lo || c > hi {
			return argErrorf("argument %q holds codes from %d to %d, got %d", name, lo, hi, c)
		}
	}
	return nil
}

// searchRequest is what every search tool's arguments come to.
type searchRequest struct {
	query   string
	page    int
	flags   tenderbase.Filters // from regions or countries
	filters map[string]any     // the raw flags
	where   []tenderbase.Lookup
}

// searcher is an argument type of a search tool.
type searcher interface{ request() searchRequest }

// searchTool is a search tool before its argument type is known.
type searchTool struct {
	name, title, description string
	kind                     tenderbase.Kind
	flags                    flagKinds
}

// searchDefinition returns the tool t with the argument type A.
func searchDefinition[A searcher](s *Set, t searchTool) (*Tool, error) {
	out := outputOf[searchResult](t.kind)
	if t.kind == tenderbase.KindTender {
		out = withStates(out)
	}
	return build(definition[A]{
		name: t.name, title: t.title, description: t.description,
		output: out,
		run: func(ctx context.Context, args A) (Output, error) {
			return s.search(ctx, t, args.request())
		},
	})
}

// search runs one search tool call.
func (s *Set) search(ctx context.Context, t searchTool, req searchRequest) (Output, error) {
	q, err := query.Parse(req.query, query.MCP)
	if err != nil {
		return Output{}, err
	}
	raw, err := tenderbase.ParseFilters(req.filters)
	if err != nil {
		return Output{}, err
	}
	f := req.flags.Merge(raw)
	if err := t.flags.check(t.name, f); err != nil {
		return Output{}, err
	}
	c := callerOf(ctx)
	srch, err := c.plan.Restrict(tenderbase.Search{Kind: t.kind, Query: q, Filters: f, Where: req.where, Page: req.page, PageSize: tenderbase.DefaultPageSize}, nil)
	if err != nil {
		return Output{}, err
	}
	res, recs, err := s.cappedPage(ctx, srch, c)
	if err != nil {
		return Output{}, err
	}
	return s.answer(ctx, t, res, recs, c)
}

// cappedPage runs srch within the caller's row cap: a page that starts at or
// past the cap holds nothing, one that straddles it is cut at it, and the
// total stays exact either way.
func (s *Set) cappedPage(ctx context.Context, srch tenderbase.Search, c caller) (searchResult, []tenderbase.Record, error) {
	rowCap, start := c.limits.RowCap, srch.Page*srch.PageSize
	beyond := rowCap > 0 && start >= rowCap
	run := srch
	if beyond {
		// Only the total is wanted; the cheapest page gives it.
		run.Page, run.PageSize = 0, 1
	}
	page, err := s.store.Search(ctx, run)
	if err != nil {
		return searchResult{}, nil, fmt.Errorf("%s search: %w", srch.Kind, err)
	}
	recs := page.Items
	if beyond {
		recs = nil
	} else if rowCap > 0 && start+len(recs) > rowCap {
		recs = recs[:rowCap-start]
	}
	res := searchResult{Total: page.Total, Page: srch.Page, PageSize: srch.PageSize}
	if rowCap > 0 && page.Total > rowCap {
		res.RowCap = rowCap
		if start+srch.PageSize > rowCap {
			res.Notice = capNotice(c, start)
		}
	}
	return res, recs, nil
}

// capNotice says why a page stops at the row cap and which plans see more.
func capNotice(c caller, start int) string {
	var more []string
	for _, p := range tenderbase.PlanNames {
		l := tenderbase.Plans[p]
		switch {
		case l.RowCap == 0:
			more = append(more, fmt.Sprintf("%s (all rows)", p))
		case l.RowCap > c.limits.RowCap:
			more = append(more, fmt.Sprintf("%s (%d rows)", p, l.RowCap))
		}
	}
	n := c.limits.RowCap
	msg := fmt.Sprintf("Your plan (%s) shows the first %d rows of a search", c.plan, n)
	if start >= n {
		msg += fmt.Sprintf("; this page starts at row %d, past them", start+1)
	} else {
		msg += fmt.Sprintf("; this page stops at row %d", n)
	}
	if len(more) > 0 {
		msg += ". More rows: " + strings.Join(more, ", ")
	}
	return msg + ". Narrow the query or add filters to reach other records."
}

// flagKinds says which kinds of filter flag the records of a tool carry.
type flagKinds struct{ regions, countries, laws bool }

// check rejects filters the records cannot carry, which would otherwise
// silently find nothing.
func (k flagKinds) check(tool string, f tenderbase.Filters) error {
	var wrong string
	switch {
	case len(f.Regions) > 0 && !k.regions:
		wrong = tenderbase.RegionFlag(f.Regions[0])
	case len(f.Countries) > 0 && !k.countries:
		wrong = tenderbase.CountryFlag(f.Countries[0])
	case len(f.Laws) > 0 && !k.laws:
		wrong = "fz" + f.Laws[0]
	default:
		return nil
	}
	return tenderbase.Errorf(tenderbase.EINVALID, "filter %s does not apply to %s; its filters are %s", tenderbase.Quote(wrong), tool, k)
}

// String lists the flags, as the filters argument takes them.
func (k flagKinds) String() string {
	var fs []string
	if k.regions {
		fs = append(fs, "r<region code>")
	}
	if k.countries {
		fs = append(fs, "cr<country code>")
	}
	if k.laws {
		fs = append(fs, "fz44, fz223")
	}
	return strings.Join(fs, ", ")
}
