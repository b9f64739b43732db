package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// criteria are the conditions that a search tool's filters come to.
type criteria struct {
	flags  tenderbase.Filters
	where  []tenderbase.Lookup
	ranges []tenderbase.Range
}

// narrow intersects the range of r's measure with r.
func (c *criteria) narrow(r tenderbase.Range) {
	for i, have := range c.ranges {
		if have.Measure == r.Measure {
			c.ranges[i].Min, c.ranges[i].Max = max(have.Min, r.Min), min(have.Max, r.Max)
			return
		}
	}
	c.ranges = append(c.ranges, r)
}

// filterSpec is one named filter: its argument name, the name TenderGuru's
// api2.3 gives it in the filters object where it has one, the form its
// value takes, and what it does.
type filterSpec struct {
	name  string
	alias string
	form  string
	apply func(f filterCall, v any) error
}

// filterCall is one filter being applied: the tool, the criteria it adds
// to, and the time "open" is judged at.
type filterCall struct {
	tool string
	kind tenderbase.Kind
	c    *criteria
	now  time.Time
	spec filterSpec
	key  string // the name the caller gave
}

func (f filterCall) wrong(v any) error {
	return tenderbase.Errorf(tenderbase.EINVALID, "filter %s takes %s, got %s", tenderbase.Quote(f.key), f.spec.form, describeAny(v))
}

// moscow is the time zone a day of a date filter is a day of: Russian
// publishers date their documents in it, and it has no summer time.
var moscow = time.FixedZone("MSK", 3*60*60)

// innForm is what an INN filter takes.
const innForm = "an INN of 10 or 12 digits"

var (
	innValue   = regexp.MustCompile(innPattern)
	okpd2Value = regexp.MustCompile(`^\d{1,2}(\.\d{0,3})*$`)
	cpvValue   = regexp.MustCompile(`^\d{1,8}(-\d)?$`)
	codeValue  = regexp.MustCompile(`^[A-Za-z0-9_]{1,32}$`)
	// An IKZ is 36 digits; a plan's number 18 (44-FZ) or 10 (223-FZ).
	ikzValue        = regexp.MustCompile(ikzPattern)
	planNumberValue = regexp.MustCompile(planNumberPattern)
	publishInValue  = regexp.MustCompile(publishInPattern)
	// flagKey is the shape of the flags of spec 4.3, which
	// tenderbase.ParseFilters reads.
	flagKey = regexp.MustCompile(`^(r\d+|cr\d+|fz\d+)$`)
)

// filterSpecs are the named filters, in the order the tools list them.
var filterSpecs = []filterSpec{
	{name: "regions", form: "a list of region codes from 1 to 99", apply: func(f filterCall, v any) error {
		codes, ok := intList(v, minRegion, maxRegion)
		if !ok {
			return f.wrong(v)
		}
		f.c.flags.Regions = append(f.c.flags.Regions, codes...)
		return nil
	}},
	{name: "countries", form: "a list of ISO 3166 numeric country codes from 1 to 999", apply: func(f filterCall, v any) error {
		codes, ok := intList(v, minCountry, maxCountry)
		if !ok {
			return f.wrong(v)
		}
		f.c.flags.Countries = append(f.c.flags.Countries, codes...)
		return nil
	}},
	{name: "laws", alias: "f", form: "44 or 223, or a list of them", apply: func(f filterCall, v any) error {
		laws, ok := intList(v, 0, math.MaxInt)
		for _, l := range laws {
			if l != 44 && l != 223 {
				ok = false
			}
		}
		if !ok {
			return f.wrong(v)
		}
		for _, l := range laws {
			f.c.flags.Laws = append(f.c.flags.Laws, strconv.Itoa(l))
		}
		return nil
	}},
	priceBound("price_min", "price1", func(p float64) tenderbase.Range {
		return tenderbase.Range{Measure: tenderbase.MeasurePrice, Min: p, Max: math.Inf(1)}
	}),
	priceBound("price_max", "price2", func(p float64) tenderbase.Range {
		return tenderbase.Range{Measure: tenderbase.MeasurePrice, Min: math.Inf(-1), Max: p}
	}),
	dateBound("published_from", "date_start", tenderbase.MeasurePublished, true),
	dateBound("published_to", "date_end", tenderbase.MeasurePublished, false),
	dateBound("deadline_from", "", tenderbase.MeasureDeadline, true),
	dateBound("deadline_to", "", tenderbase.MeasureDeadline, false),
	dateBound("ends_from", "", tenderbase.MeasureEnds, true),
	dateBound("ends_to", "", tenderbase.MeasureEnds, false),
	{name: "open", alias: "actual", form: "true or 1", apply: func(f filterCall, v any) error {
		on, ok := flagValue(v)
		if !ok {
			return f.wrong(v)
		}
		if !on {
			return nil
		}
		f.c.narrow(tenderbase.Range{Measure: tenderbase.MeasureDeadline, Min: float64(f.now.Unix()), Max: math.Inf(1)})
		if f.kind == tenderbase.KindTender {
			f.c.where = append(f.c.where, tenderbase.Lookup{Field: tenderbase.LookupState, Value: tenderbase.TenderActive})
		}
		return nil
	}},
	{name: "state", form: "one of " + strings.Join(tenderbase.TenderStates, ", ") + " (a tender), or " +
		strings.Join(tenderbase.PlannedStates, ", ") + " (a planned purchase)", apply: func(f filterCall, v any) error {
		s, ok := v.(string)
		if !ok || !slices.Contains(statesOf(f.kind), s) {
			return f.wrong(v)
		}
		field := tenderbase.LookupState
		if f.kind == tenderbase.KindPlannedPurchase {
			field = tenderbase.LookupPlanStatus
		}
		f.c.where = append(f.c.where, tenderbase.Lookup{Field: field, Value: s})
		return nil
	}},
	lookupFilter("okpd2", "an OKPD2 code or its beginning, such as 43.91", func(s string) (string, bool) {
		s = tenderbase.CodePrefix(s)
		return s, okpd2Value.MatchString(s)
	}, nil),
	lookupFilter("cpv", "a CPV code or its beginning, such as 45 or 45261910-6", func(s string) (string, bool) {
		p := tenderbase.CPVPrefix(s)
		return p, p != "" && cpvValue.MatchString(strings.TrimSpace(s))
	}, nil),
	lookupFilter("customer_inn", innForm, inn, nil),
	lookupFilter("participant_inn", innForm, inn, nil),
	// A tender's organizer is who placed it: the organizer a notice
	// names, else its customer, as the grouping by organizer counts.
	lookupFilter("organizer_inn", innForm, inn, map[tenderbase.Kind]string{tenderbase.KindTender: tenderbase.LookupPlacerINN}),
	// The register of unfair suppliers keeps its supplier's INN as "inn".
	lookupFilter("supplier_inn", innForm, inn, map[tenderbase.Kind]string{tenderbase.KindUnfairSupplier: tenderbase.LookupINN}),
	lookupFilter("winner_id", "a national registration number, such as DE811128135", winnerID, nil),
	lookupFilter("placing_method", "a placing method code such as EA20", code, nil),
	lookupFilter("platform", "a platform code such as ETP_SBAST", code, nil),
	lookupFilter("ikz", "an IKZ of 36 digits", matching(ikzValue), nil),
	lookupFilter("plan_number", "a plan's registry number, digits", matching(planNumberValue), nil),
	lookupFilter("publish_in", "a year such as 2026 or a month such as 2026-03", matching(publishInValue),
		map[tenderbase.Kind]string{tenderbase.KindPlannedPurchase: tenderbase.LookupPlannedPublish}),
}

// statesOf returns the states the records of kind k are found in by the
// filter "state": a planned purchase's as its plan says, a tender's as
// derived.
func statesOf(k tenderbase.Kind) []string {
	if k == tenderbase.KindPlannedPurchase {
		return tenderbase.PlannedStates
	}
	return tenderbase.TenderStates
}

// matching returns the norm of a value of the form re: the value given,
// trimmed, when it matches.
func matching(re *regexp.Regexp) func(string) (string, bool) {
	return func(s string) (string, bool) {
		s = strings.TrimSpace(s)
		return s, re.MatchString(s)
	}
}

// lookupParams names, for an error of tenderbase.Plan.Restrict, the filter
// that selected by a lookup field.
var lookupParams = map[string]string{
	tenderbase.LookupState: "state", tenderbase.LookupOKPD2: "okpd2", tenderbase.LookupCPV: "cpv",
	tenderbase.LookupCustomerINN: "customer_inn", tenderbase.LookupParticipantINN: "participant_inn", tenderbase.LookupPlacerINN: "organizer_inn",
	tenderbase.LookupSupplierINN: "supplier_inn", tenderbase.LookupINN: "supplier_inn",
	tenderbase.LookupPlacingMethod: "placing_method", tenderbase.LookupPlatform: "platform",
	tenderbase.LookupWinnerID: "winner_id", tenderbase.LookupIKZ: "ikz", tenderbase.LookupPlanNumber: "plan_number",
	tenderbase.LookupPlannedPublish: "publish_in", tenderbase.LookupPlanStatus: "state",
}

func inn(s string) (string, bool) {
	s = strings.TrimSpace(s)
	return s, innValue.MatchString(s)
}

// winnerID is a winner's id as its lookup holds it (tenderbase.WinnerIDKey).
func winnerID(s string) (string, bool) {
	k := tenderbase.WinnerIDKey(s)
	return k, k != ""
}

func code(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	return s, codeValue.MatchString(s)
}

// lookupFilter returns the filter that selects records by the lookup field
// of its own name (or, for a kind in fields, that kind's field) holding the
// value that norm makes of the one given.
func lookupFilter(name, form string, norm func(string) (string, bool), fields map[tenderbase.Kind]string) filterSpec {
	return filterSpec{name: name, form: form, apply: func(f filterCall, v any) error {
		s, ok := textValue(v)
		if ok {
			s, ok = norm(s)
		}
		if !ok {
			return f.wrong(v)
		}
		field := name
		if other, ok := fields[f.kind]; ok {
			field = other
		}
		f.c.where = append(f.c.where, tenderbase.Lookup{Field: field, Value: s})
		return nil
	}}
}

func priceBound(name, alias string, bound func(float64) tenderbase.Range) filterSpec {
	return filterSpec{name: name, alias: alias, form: "a price in roubles, such as 5000000", apply: func(f filterCall, v any) error {
		p, ok := numberValue(v)
		if !ok || p < 0 {
			return f.wrong(v)
		}
		f.c.narrow(bound(p))
		return nil
	}}
}

// dateBound returns the filter that bounds m from a day on (from) or up to
// a day, included. A day is a day in Moscow; a time (RFC 3339) is that
// instant.
func dateBound(name, alias string, m tenderbase.Measure, from bool) filterSpec {
	return filterSpec{name: name, alias: alias, form: "a date such as 2026-12-01, 01.12.2026 or 2026-12-01T10:00:00+03:00",
		apply: func(f filterCall, v any) error {
			s, ok := v.(string)
			if !ok {
				return f.wrong(v)
			}
			start, end, ok := parseDay(strings.TrimSpace(s))
			if !ok {
				return f.wrong(v)
			}
			r := tenderbase.Unbounded(m)
			if from {
				r.Min = float64(start.Unix())
			} else {
				r.Max = float64(end.Unix())
			}
			f.c.narrow(r)
			return nil
		}}
}

// dayLayouts are the forms of a day the date filters take: ISO 8601, the
// Russian form and TenderGuru's DD-MM-YYYY.
var dayLayouts = []string{"2006-01-02", "02.01.2006", "02-01-2006"}

// parseDay returns the first and the last second a date filter's value
// names: a whole day in Moscow, or one instant.
func parseDay(s string) (start, end time.Time, ok bool) {
	for _, layout := range dayLayouts {
		if d, err := time.ParseInLocation(layout, s, moscow); err == nil {
			return d, d.AddDate(0, 0, 1).Add(-time.Second), true
		}
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, t, true
	}
	return time.Time{}, time.Time{}, false
}

// criteria reads a search tool's named filters and its filters object. A
// name the tool does not take is an error naming those it does; a value of
// the wrong form says which form it takes.
func (t searchTool) criteria(named searchArgs, object map[string]any, now time.Time) (criteria, error) {
	var c criteria
	given, err := namedValues(named)
	if err != nil {
		return c, err
	}
	call := filterCall{tool: t.name, kind: t.kind, c: &c, now: now}
	for _, spec := range filterSpecs {
		if v, ok := given[spec.name]; ok {
			call.spec, call.key = spec, spec.name
			if err := spec.apply(call, v); err != nil {
				return c, err
			}
		}
	}
	if err := t.applyObject(call, object); err != nil {
		return c, err
	}
	c.flags = c.flags.Normalize()
	if err := t.flags.check(t.name, c.flags); err != nil {
		return c, err
	}
	for _, r := range c.ranges {
		if r.Empty() {
			return c, tenderbase.Errorf(tenderbase.EINVALID, "the %s filters exclude each other: the lower bound is past the upper one", r.Measure)
		}
	}
	return c, nil
}

// applyObject applies the filters object: flags, TenderGuru's names and the
// tool's named filters, in the order of their keys.
func (t searchTool) applyObject(call filterCall, object map[string]any) error {
	keys := make([]string, 0, len(object))
	for k := range object {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := object[k]
		if spec, ok := t.spec(k); ok {
			call.spec, call.key = spec, k
			if err := spec.apply(call, v); err != nil {
				return err
			}
			continue
		}
		if !flagKey.MatchString(k) {
			return tenderbase.Errorf(tenderbase.EINVALID, "unknown filter %s; the filters of %s are %s", tenderbase.Quote(k), t.name, t.knownFilters())
		}
		flags, err := tenderbase.ParseFilters(map[string]any{k: v})
		if err != nil {
			return err
		}
		call.c.flags = call.c.flags.Merge(flags)
	}
	return nil
}

// spec returns the named filter of the tool called name, by its own name
// or TenderGuru's.
func (t searchTool) spec(name string) (filterSpec, bool) {
	for _, s := range filterSpecs {
		if slices.Contains(t.filters, s.name) && (s.name == name || s.alias != "" && s.alias == name) {
			return s, true
		}
	}
	return filterSpec{}, false
}

// knownFilters lists the keys the tool's filters object takes.
func (t searchTool) knownFilters() string {
	known := []string{t.flags.String()}
	for _, s := range filterSpecs {
		if !slices.Contains(t.filters, s.name) {
			continue
		}
		name := s.name
		if s.alias != "" {
			name += " (or " + s.alias + ")"
		}
		known = append(known, name)
	}
	return strings.Join(slices.DeleteFunc(known, func(s string) bool { return s == "" }), ", ")
}

// namedValues returns the named filters given, by name, as JSON values:
// those whose value is not the zero one, which means "not given".
func namedValues(a searchArgs) (map[string]any, error) {
	a.Query, a.Sort, a.Page, a.Filters = "", "", 0, nil
	body, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("read filters: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("read filters: %w", err)
	}
	return m, nil
}

// numberValue reads a number given as a JSON number or a string.
func numberValue(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, !math.IsInf(v, 0) && !math.IsNaN(v)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	return 0, false
}

// textValue reads a code or an INN given as a string, or as a JSON number
// of digits alone.
func textValue(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case float64:
		if v >= 0 && v == math.Trunc(v) && v <= maxExactInteger {
			return strconv.FormatFloat(v, 'f', -1, 64), true
		}
	}
	return "", false
}

// flagValue reads a switch: true, 1, "1" or "true" is on; false, 0, "0" or
// "false" off.
func flagValue(v any) (on, ok bool) {
	switch v := v.(type) {
	case bool:
		return v, true
	case float64:
		return v == 1, v == 0 || v == 1
	case string:
		return v == "1" || v == "true", v == "0" || v == "1" || v == "true" || v == "false"
	}
	return false, false
}

// intList reads one integer or a list of them, each from lo to hi, given as
// JSON numbers or strings of digits.
func intList(v any, lo, hi int) ([]int, bool) {
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	var out []int
	for _, item := range items {
		f, ok := numberValue(item)
		if !ok || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
			return nil, false
		}
		out = append(out, int(f))
	}
	return out, true
}

// describeAny names a decoded JSON value for an error, with the value
// itself when it is short.
func describeAny(v any) string {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return describeValue(body)
}

// FilterDoc describes a named filter of the search tools for GET
// /search/syntax.
type FilterDoc struct {
	Name    string   `json:"name"`
	Alias   string   `json:"tenderguru_name,omitempty"` // its name in TenderGuru's api2.3, in the filters object
	Takes   string   `json:"takes"`
	Meaning string   `json:"meaning"`
	Tools   []string `json:"tools"`
}

// SortDoc describes an order of the search tools.
type SortDoc struct {
	Name  string   `json:"name"`
	Tools []string `json:"tools"`
}

// FilterDocs returns the named filters of the search tools, each with the
// tools that take it and its meaning in full (searchArgs' doc tags).
func (s *Set) FilterDocs() []FilterDoc {
	meaning := map[string]string{}
	t := reflect.TypeFor[searchArgs]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		meaning[name] = t.Field(i).Tag.Get("doc")
	}
	var out []FilterDoc
	for _, spec := range filterSpecs {
		d := FilterDoc{Name: spec.name, Alias: spec.alias, Takes: spec.form, Meaning: meaning[spec.name], Tools: []string{}}
		for _, tool := range s.list {
			if st, ok := s.searchTool(tool.Name); ok && slices.Contains(st.filters, spec.name) {
				d.Tools = append(d.Tools, tool.Name)
			}
		}
		out = append(out, d)
	}
	return out
}

// SortDocs returns the orders of the search tools, each with the tools that
// offer it.
func (s *Set) SortDocs() []SortDoc {
	var out []SortDoc
	for _, order := range tenderbase.Sorts {
		d := SortDoc{Name: string(order), Tools: []string{}}
		for _, tool := range s.list {
			if st, ok := s.searchTool(tool.Name); ok && (order == tenderbase.SortNewest || slices.Contains(st.sorts, order)) {
				d.Tools = append(d.Tools, tool.Name)
			}
		}
		out = append(out, d)
	}
	return out
}

// searchTool returns the search tool called name.
func (s *Set) searchTool(name string) (searchTool, bool) {
	for _, st := range s.searches {
		if st.name == name {
			return st, true
		}
	}
	return searchTool{}, false
}
