package tools

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/partial"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/spelling"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/thesaurus"
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

// searchArgs are the arguments of every search tool. A tool takes the
// query, page, sort and filters, and of the named filters those its
// records can be narrowed by (searchTool.filters); the others are no
// arguments of it, in its schema or its decoding. A named filter's
// jsonschema tag is what a model reads in every tool's schema, kept short;
// its doc tag says it whole, for GET /search/syntax (FilterDocs).
type searchArgs struct {
	Query          string         `json:"query,omitempty" jsonschema:"Words; see the instructions."`
	Exact          bool           `json:"exact,omitempty" doc:"true: the query exactly as written: no synonym, word family, abbreviation or category is searched too, a word no record holds is not corrected to a known one (a typo, the other keyboard layout), and no partial matches follow a short first page."`
	Regions        []int          `json:"regions,omitempty" jsonschema:"Region codes: 77 Moscow..." doc:"Region codes of the Russian Federation (1-99) to search in, e.g. [77, 50] for Moscow and Moscow oblast; a record in any of them matches. Empty: all regions."`
	Countries      []int          `json:"countries,omitempty" jsonschema:"ISO numeric codes: 276 Germany..." doc:"ISO 3166 numeric country codes (1-999), e.g. [276, 250] for Germany and France; a tender in any of them matches. Empty: all countries."`
	Laws           []int          `json:"laws,omitempty" doc:"Laws the records fall under: 44 (44-FZ), 223 (223-FZ); a record under any of them matches. Empty: every law."`
	PriceMin       int            `json:"price_min,omitempty" jsonschema:"Roubles." doc:"Lowest price in roubles, included: a tender's maximum price, a contract's price, a lot's starting price, the money a plan position plans in all. Records without a price in roubles do not match a price bound."`
	PriceMax       int            `json:"price_max,omitempty" doc:"Highest price in roubles, included."`
	PublishedFrom  string         `json:"published_from,omitempty" jsonschema:"2026-12-01 or 01.12.2026, Moscow." doc:"Published on or after this day (Moscow time): 2026-12-01, 01.12.2026 or an RFC 3339 time."`
	PublishedTo    string         `json:"published_to,omitempty" doc:"Published on or before this day (Moscow time), included."`
	DeadlineFrom   string         `json:"deadline_from,omitempty" jsonschema:"Applications close then or later." doc:"Applications close on or after this day (Moscow time): 2026-12-01, 01.12.2026 or an RFC 3339 time. For a tender, the deadline once its date changes are applied."`
	DeadlineTo     string         `json:"deadline_to,omitempty" doc:"Applications close on or before this day (Moscow time), included."`
	EndsFrom       string         `json:"ends_from,omitempty" jsonschema:"Term ends then or later; no end: no match." doc:"The contract's term ends on or after this day (Moscow time): 2026-12-01, 01.12.2026 or an RFC 3339 time, as its registry entry gives the end (44-FZ executionPeriod, or the month of performance of a 94-FZ contract; 223-FZ endExecutionDate). A contract whose entry gives no end matches no bound of it."`
	EndsTo         string         `json:"ends_to,omitempty" doc:"The contract's term ends on or before this day (Moscow time), included."`
	Open           bool           `json:"open,omitempty" jsonschema:"Deadline ahead." doc:"true: only records that take applications now: the deadline is still ahead (and a tender's state is active)."`
	State          string         `json:"state,omitempty" jsonschema:"Derived, as ru.detail." doc:"Only tenders in this state once their protocols and events are applied, as ru.detail derives it: active, completed, cancelled or failed; only positions of purchase plans in this status, as the current version of their plan gives it: planned, changed or cancelled. Empty: every state."`
	OKPD2          string         `json:"okpd2,omitempty" jsonschema:"Code prefix: 43.91." doc:"OKPD2 code or its beginning, of any purchase object: 43 (a class), 43.91, 43.91.19.110."`
	CPV            string         `json:"cpv,omitempty" jsonschema:"Code prefix: 4526." doc:"CPV code or its significant digits, of the tender or a lot: 45 (the division), 4526, 45261910-6."`
	CustomerINN    string         `json:"customer_inn,omitempty" doc:"INN of the customer (10 or 12 digits)."`
	OrganizerINN   string         `json:"organizer_inn,omitempty" doc:"INN of who placed the tender: the organizer its notice names (an authorized body, a joint purchase's organizer), else its customer (10 or 12 digits)."`
	ParticipantINN string         `json:"participant_inn,omitempty" jsonschema:"In the protocols." doc:"INN of a participant that the tender's protocols name (10 or 12 digits)."`
	SupplierINN    string         `json:"supplier_inn,omitempty" doc:"INN of the supplier (10 or 12 digits)."`
	WinnerID       string         `json:"winner_id,omitempty" jsonschema:"VAT/company no." doc:"National registration number of a winner that a world tender's award names, as the notice publishes it (a VAT or company number such as DE811128135 or 09506232); letters and digits count, spaces, dots and dashes do not."`
	PlacingMethod  string         `json:"placing_method,omitempty" jsonschema:"EA20, OK20, ZK20, ZP20..." doc:"Placing method code as the EIS gives it: EA20 (electronic auction), OK20 (open tender), ZK20 (request for quotations), ZP20 (request for proposals)..."`
	Platform       string         `json:"platform,omitempty" jsonschema:"ETP_SBAST, ETP_RTS, ETP_EETP..." doc:"Electronic platform code as the EIS gives it: ETP_SBAST (Sberbank-AST), ETP_RTS (RTS-tender), ETP_EETP (Roseltorg), ETP_AVK (NEP), ETP_GPB..."`
	IKZ            string         `json:"ikz,omitempty" doc:"Identification code of the purchase (IKZ, 36 digits), which a 44-FZ plan position, its notice and its contract share."`
	PlanNumber     string         `json:"plan_number,omitempty" doc:"Registry number of a purchase plan: 18 digits (a 44-FZ plan-schedule) or 10 (a 223-FZ plan); every position it lists, in any of its versions, matches."`
	PublishIn      string         `json:"publish_in,omitempty" jsonschema:"Notice planned: 2026 or 2026-03." doc:"When the purchase's notice is planned to be published: a year (2026) or a month (2026-03). 44-FZ plan-schedules give the year alone, so a month finds 223-FZ positions only."`
	Sort           string         `json:"sort,omitempty"`
	Page           int            `json:"page,omitempty"`
	Cursor         string         `json:"cursor,omitempty" jsonschema:"From next_cursor; not with page."`
	Filters        map[string]any `json:"filters,omitempty"`
}

func (a searchArgs) check() error {
	if err := checkPage(a.Page); err != nil {
		return err
	}
	if a.Cursor != "" && a.Page != 0 {
		return argErrorf("give \"page\" or \"cursor\", not both: a cursor names the page after the one that gave it")
	}
	if err := checkCodes("regions", a.Regions, minRegion, maxRegion); err != nil {
		return err
	}
	return checkCodes("countries", a.Countries, minCountry, maxCountry)
}

func (a searchArgs) request() searchRequest {
	return searchRequest{query: a.Query, exact: a.Exact, page: a.Page, cursor: a.Cursor, sort: a.Sort, named: a, filters: a.Filters}
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
	exact   bool // the query as written: no expansion by the thesaurus, no word corrected
	page    int
	cursor  string // a next_cursor (pageCursor)
	sort    string
	named   searchArgs     // the named filters
	filters map[string]any // the filters object
}

// searcher is an argument type of a search tool.
type searcher interface{ request() searchRequest }

// searchTool is a search tool before its argument type is known.
type searchTool struct {
	name, title, description string
	kind                     tenderbase.Kind
	flags                    flagKinds
	// filters names the named filters the tool takes (filterSpecs), and
	// sorts the orders it offers beside newest.
	filters []string
	sorts   []tenderbase.Sort
	// params and rules say, for this tool, what a named filter means and
	// takes where that is not what it means in the others (definition).
	params map[string]string
	rules  map[string]func(*jsonschema.Schema)
}

// searchDefinition returns the tool t with the argument type A.
func searchDefinition[A searcher](s *Set, t searchTool) (*Tool, error) {
	s.searches[t.kind] = t
	// The sorts the tool offers, not every search's, and flags it takes.
	rules := map[string]func(*jsonschema.Schema){"sort": func(p *jsonschema.Schema) { p.Enum = anyOf(t.sortNames()) }}
	params := map[string]string{"filters": t.flags.example()}
	maps.Copy(rules, t.rules)
	maps.Copy(params, t.params)
	return build(definition[A]{
		name: t.name, title: t.title, description: t.description,
		output: searchOutput(t.kind),
		value:  recordsOutput(t.kind),
		only:   append([]string{"query", "exact", "sort", "page", "cursor", "filters"}, t.filters...),
		rules:  rules,
		params: params,
		run: func(ctx context.Context, args A) (Output, error) {
			return s.search(ctx, t, args.request())
		},
	})
}

// search runs one search tool call.
func (s *Set) search(ctx context.Context, t searchTool, req searchRequest) (Output, error) {
	srch, hints, err := t.storeSearch(req.query, req.sort, req.named, req.filters, time.Now())
	if err != nil {
		return Output{}, err
	}
	srch.Page, srch.PageSize = req.page, tenderbase.DefaultPageSize
	c := callerOf(ctx)
	start := 0
	if req.cursor != "" {
		var pc pageCursor
		if pc, err = parsePageCursor(req.cursor); err != nil {
			return Output{}, err
		}
		start, srch.Cursor = pc.start, pc.store
	} else {
		start = srch.Page * srch.PageSize
	}
	s = s.countingOnce()
	a, err := s.searchPage(ctx, req, srch, start, c)
	if err != nil {
		return Output{}, err
	}
	if a.res.Total == 0 && !req.exact {
		if a, err = s.correctedPage(ctx, req, srch, start, c, a); err != nil {
			return Output{}, err
		}
	}
	a.res.Hints = hints
	return s.answer(ctx, t, a.res, a.recs, a.matches, c)
}

// countingOnce returns the tools over the same store for one call, whose
// searches of one record (the counts of a word alone, which partial matches
// weigh words by and corrections look words up by) run once each: a word
// is weighed and then looked up in the same call.
func (s *Set) countingOnce() *Set {
	call := *s
	call.counts = &countCache{store: s.store, pages: map[string]tenderbase.Page{}, totals: map[string]tenderbase.Page{}}
	return &call
}

// counter returns what the counts of a call search with: its countCache,
// or the store outside a call.
func (s *Set) counter() partial.Searcher {
	if s.counts != nil {
		return s.counts
	}
	return s.store
}

// countCache is a searcher whose searches of one record, first page, are
// each run once and then answered from memory. It wraps the store's Search
// alone: the tools ask the store itself for what else it offers. Besides
// the pages, it keeps the totals that partial matches read from the index
// on the way (tenderbase.PartialPage.Counts): a word's count, which a
// correction looks it up by, is then no search at all.
type countCache struct {
	store  partial.Searcher
	mu     sync.Mutex
	pages  map[string]tenderbase.Page
	totals map[string]tenderbase.Page // Total and Generation only
}

// countKey names the count of the records of a search.
func countKey(srch tenderbase.Search) string {
	return fmt.Sprintf("%#v", srch)
}

func (c *countCache) Search(ctx context.Context, srch tenderbase.Search) (tenderbase.Page, error) {
	if srch.PageSize != 1 || srch.Page != 0 || srch.Cursor != "" {
		return c.store.Search(ctx, srch)
	}
	key := countKey(srch)
	c.mu.Lock()
	page, ok := c.pages[key]
	c.mu.Unlock()
	if ok {
		return page, nil
	}
	page, err := c.store.Search(ctx, srch)
	if err == nil {
		c.mu.Lock()
		c.pages[key] = page
		c.mu.Unlock()
	}
	return page, err
}

// count returns the total of srch, a search of one record, first page,
// and the generation it was counted in: from the totals partial matches
// read, or else by Search.
func (c *countCache) count(ctx context.Context, srch tenderbase.Search) (int, int64, error) {
	c.mu.Lock()
	page, ok := c.totals[countKey(srch)]
	c.mu.Unlock()
	if !ok {
		var err error
		if page, err = c.Search(ctx, srch); err != nil {
			return 0, 0, err
		}
	}
	return page.Total, page.Generation, nil
}

// SearchPartial finds partial matches through the store's index when it
// has one (tenderbase.PartialSearcher), and keeps the counts of the
// query's operands it read, each as the total of a search of the operand
// alone. The matches are never kept, as they follow a page of a search
// that is.
func (c *countCache) SearchPartial(ctx context.Context, srch tenderbase.Search, want int) (tenderbase.PartialPage, error) {
	ix, ok := c.store.(tenderbase.PartialSearcher)
	if !ok {
		return tenderbase.PartialPage{}, fmt.Errorf("%T finds no partial matches from an index: %w", c.store, errors.ErrUnsupported)
	}
	found, err := ix.SearchPartial(ctx, srch, want)
	if err != nil {
		return found, err
	}
	and, _ := srch.Query.(tenderbase.AndQuery)
	if ops, _ := and.Split(); len(ops) == len(found.Counts) {
		c.mu.Lock()
		for i, o := range ops {
			c.totals[countKey(partial.Count(srch.Kind, o, srch.OpenTextOnly))] = tenderbase.Page{Total: found.Counts[i], Generation: found.Generation}
		}
		c.mu.Unlock()
	}
	return found, nil
}

// searchAnswer is a search page before it is written: the strict records
// with the coded ones after them (recs), and the partial matches.
type searchAnswer struct {
	res     searchResult
	recs    []tenderbase.Record
	matches []partial.Match
}

// empty reports whether the answer shows no record at all.
func (a searchAnswer) empty() bool {
	return a.res.Total == 0 && len(a.recs) == 0 && len(a.matches) == 0
}

// searchPage answers srch, its query as written: expanded by the
// thesaurus unless req asks for it as written, restricted to the caller's
// plan, with the records coded in the classes the query names and the
// partial matches after the strict records.
func (s *Set) searchPage(ctx context.Context, req searchRequest, srch tenderbase.Search, start int, c caller) (searchAnswer, error) {
	var exps []thesaurus.Expansion
	written := srch.Query
	if !req.exact {
		srch.Query, exps = expandQuery(srch.Query)
	}
	srch, err := c.plan.Restrict(srch, lookupParams)
	if err != nil {
		return searchAnswer{}, err
	}
	var a searchAnswer
	if a.res, a.recs, err = s.cappedPage(ctx, srch, start, c); err != nil {
		return searchAnswer{}, err
	}
	if a.recs, a.res.Expansions, err = s.addCoded(ctx, srch, start == 0, a.res, a.recs, exps, c); err != nil {
		return searchAnswer{}, err
	}
	a.res.Sort = srch.Sort
	if a.matches, err = s.partialMatches(ctx, srch, written, exps, a.recs, wantsPartial(req, a.res, a.recs)); err != nil {
		return searchAnswer{}, err
	}
	if a.matches, err = s.codedPartialMatches(ctx, req, srch, a.res, exps, a.recs, a.matches, c); err != nil {
		return searchAnswer{}, err
	}
	return a, nil
}

// correctedPage answers srch, whose query as written matched no record,
// as it was meant: the whole query read on the other keyboard layout, or
// each word no record holds replaced by the known word nearest it
// (spelling.Corrector); the answer says what it searched for instead. The
// meant query is taken when it matches records, or when the written one
// showed nothing at all; else a is kept (its partial matches, its coded
// records), since a correction that finds no more is a guess.
func (s *Set) correctedPage(ctx context.Context, req searchRequest, srch tenderbase.Search, start int, c caller, a searchAnswer) (searchAnswer, error) {
	if srch.Query == nil {
		return a, nil
	}
	meants, err := s.meantQueries(ctx, req.query, srch)
	if err != nil {
		return searchAnswer{}, err
	}
	for _, meant := range meants {
		alt := srch
		alt.Query = meant.query
		b, err := s.searchPage(ctx, req, alt, start, c)
		if err != nil {
			return searchAnswer{}, err
		}
		if b.res.Total > 0 || a.empty() && !b.empty() {
			b.res.Corrected = meant.fixes
			return b, nil
		}
	}
	return a, nil
}

// meant is a query a search may have meant, and what it replaced.
type meant struct {
	query tenderbase.Query
	fixes []spelling.Correction
}

// meantQueries returns the queries a query as written may have meant, the
// likeliest first: the whole text on the other keyboard layout, whose
// signs keys are letters too (vjynf; j,jheljdfybz), the text with its
// Latin letters read as the Cyrillic ones they look like (TC-1), then the
// query with each unknown word corrected.
func (s *Set) meantQueries(ctx context.Context, text string, srch tenderbase.Search) ([]meant, error) {
	var out []meant
	if other, ok := spelling.OtherLayoutText(text); ok {
		if q, err := query.Parse(other, query.MCP); err == nil && q != nil {
			out = append(out, meant{query: q, fixes: []spelling.Correction{{Word: text, Instead: other, Layout: true}}})
		}
	}
	if cyr, ok := textproc.LookAlikeText(text); ok {
		if q, err := query.Parse(cyr, query.MCP); err == nil && q != nil {
			out = append(out, meant{query: q, fixes: []spelling.Correction{{Word: text, Instead: cyr}}})
		}
	}
	if s.vocab == nil {
		return out, nil
	}
	count := func(ctx context.Context, t tenderbase.TermQuery) (int, int64, error) {
		return s.widenedCount(ctx, srch.Kind, srch.OpenTextOnly, t)
	}
	known, err := thesaurusWords()
	if err != nil {
		return nil, fmt.Errorf("the thesaurus' words: %w", err)
	}
	q, fixes, err := spelling.Corrector{Count: count, Vocab: s.vocab, Kind: srch.Kind, Known: known}.Correct(ctx, srch.Query)
	if err != nil {
		return nil, fmt.Errorf("%s search: correct the query: %w", srch.Kind, err)
	}
	if len(fixes) > 0 {
		out = append(out, meant{query: q, fixes: fixes})
	}
	return out, nil
}

// widenedCount returns how many records of kind the word t finds alone,
// as a search widens it, in the text the caller's plan matches (openOnly),
// and the generation of the store it counted in. A category word that no
// record's text holds counts the records coded in its first class that
// has any (лекарства, whose contracts of 2011 name only their drugs).
func (s *Set) widenedCount(ctx context.Context, kind tenderbase.Kind, openOnly bool, t tenderbase.TermQuery) (int, int64, error) {
	q, exps := expandQuery(t)
	n, gen, err := s.countOnce(ctx, partial.Count(kind, q, openOnly))
	if err != nil || n > 0 {
		return n, gen, err
	}
	var classes []thesaurus.Class
	for _, e := range exps {
		classes = append(classes, e.Classes...)
	}
	for _, cl := range classes[:min(len(classes), maxCodedClasses)] {
		coded, err := s.counter().Search(ctx, tenderbase.Search{Kind: kind, Where: []tenderbase.Lookup{cl.Lookup()}, PageSize: 1})
		if err != nil || coded.Total > 0 {
			return coded.Total, coded.Generation, err
		}
	}
	return 0, gen, nil
}

// countOnce returns the total of srch, a search of one record, and the
// generation it was counted in, once a call (countCache).
func (s *Set) countOnce(ctx context.Context, srch tenderbase.Search) (int, int64, error) {
	if s.counts != nil {
		return s.counts.count(ctx, srch)
	}
	page, err := s.store.Search(ctx, srch)
	return page.Total, page.Generation, err
}

// thesaurusWords is the index of the thesaurus' words, which a query word
// may be corrected to.
var thesaurusWords = sync.OnceValues(func() (*spelling.Index, error) {
	return spelling.Build(thesaurus.Default().Words())
})

// storeSearch returns the store search, neither paged nor restricted to a
// plan, that t makes of a query, a sort, the named filters and the filters
// object, judging "open" at now, and the hints of the query
// (query.ParseWithHints).
func (t searchTool) storeSearch(text, sort string, named searchArgs, filters map[string]any, now time.Time) (tenderbase.Search, []string, error) {
	var q tenderbase.Query
	var hints []string
	if strings.TrimSpace(text) != "" {
		var err error
		if q, hints, err = query.ParseWithHints(text, query.MCP); err != nil {
			return tenderbase.Search{}, nil, err
		}
	}
	order, err := t.order(sort, q)
	if err != nil {
		return tenderbase.Search{}, nil, err
	}
	crit, err := t.criteria(named, filters, now)
	if err != nil {
		return tenderbase.Search{}, nil, err
	}
	return tenderbase.Search{Kind: t.kind, Query: q, Filters: crit.flags, Where: crit.where, Ranges: crit.ranges, Sort: order}, hints, nil
}

// sortNames names the sorts t offers, newest first, as the enum of its
// sort argument.
func (t searchTool) sortNames() []string {
	names := []string{string(tenderbase.SortNewest)}
	for _, s := range t.sorts {
		names = append(names, string(s))
	}
	return names
}

// order returns the order a sort argument names, newest when none is given.
func (t searchTool) order(sort string, q tenderbase.Query) (tenderbase.Sort, error) {
	if sort == "" {
		return tenderbase.SortNewest, nil
	}
	names := t.sortNames()
	if !slices.Contains(names, sort) {
		return "", argErrorf("argument \"sort\" of %s is one of %s, got %s", t.name, strings.Join(names, ", "), tenderbase.Quote(sort))
	}
	if tenderbase.Sort(sort) == tenderbase.SortRelevance && q == nil {
		return "", argErrorf("sort relevance ranks the matches of a query: give a query with words, or another sort")
	}
	return tenderbase.Sort(sort), nil
}

// cappedPage runs srch, whose page starts at row start (its page or its
// cursor's), within the caller's row cap: a page that starts at or past
// the cap holds nothing, one that straddles it is cut at it, and the total
// stays exact either way.
func (s *Set) cappedPage(ctx context.Context, srch tenderbase.Search, start int, c caller) (searchResult, []tenderbase.Record, error) {
	rowCap := c.limits.RowCap
	beyond := rowCap > 0 && start >= rowCap
	run := srch
	if beyond {
		// Only the total is wanted; the cheapest page gives it.
		run.Page, run.PageSize, run.Cursor = 0, 1, ""
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
	res := searchResult{Total: page.Total, Page: start / srch.PageSize, PageSize: srch.PageSize}
	if next := start + len(recs); page.Next != "" && !beyond && (rowCap == 0 || next < rowCap) {
		res.NextCursor = pageCursor{start: next, store: page.Next}.String()
	}
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

// example describes the filters argument of a tool whose records carry
// these flags, with flags it takes: a flag of another kind is refused.
func (k flagKinds) example() string {
	var flags []string
	if k.regions {
		flags = append(flags, fmt.Sprintf("%q: 1", tenderbase.RegionFlag(77)))
	}
	if k.countries {
		flags = append(flags, fmt.Sprintf("%q: 1", tenderbase.CountryFlag(276)))
	}
	if k.laws {
		flags = append(flags, `"fz44": 1`)
	}
	return "Flags: {" + strings.Join(flags, ", ") + "}."
}

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

// SearchOf returns the store search that the search tool of kind k makes of
// a query, a sort and filters given as the tool's filters object takes
// them, values as strings too: the command line searches as the tools do.
// The search is not restricted to a plan.
func (s *Set) SearchOf(k tenderbase.Kind, text, sort string, filters map[string]any) (tenderbase.Search, error) {
	t, ok := s.searches[k]
	if !ok {
		// Records no search tool serves (complaints, FAS cases) take no
		// named filter and no sort but the newest.
		t = searchTool{name: "the search of " + string(k), kind: k}
	}
	srch, _, err := t.storeSearch(text, sort, searchArgs{}, filters, time.Now())
	if argErr, ok := errors.AsType[*ArgumentError](err); ok {
		// A command line has no arguments of a tool: its mistakes are
		// invalid input like any other.
		return tenderbase.Search{}, tenderbase.Errorf(tenderbase.EINVALID, "%s", argErr)
	}
	return srch, err
}
