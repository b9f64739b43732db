package tools

import (
	"encoding/json"
	"fmt"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// innPattern is what an INN looks like: 10 digits for an organization, 12
// for a person or an individual entrepreneur.
const innPattern = `^\d{10}(\d{2})?$`

// The patterns of the numbers of purchase plans: an IKZ, a plan's number
// and the year or month a notice is planned for.
const (
	ikzPattern        = `^\d{36}$`
	planNumberPattern = `^\d{10}(\d{8})?$`
	publishInPattern  = `^\d{4}(-(0[1-9]|1[0-2]))?$`
)

// argumentRules add to a generated input schema what Go types cannot say.
// They are keyed by argument name because an argument means the same in
// every tool that takes it; each argument type's check method enforces the
// same rules, and a test holds the two together.
var argumentRules = map[string]func(*jsonschema.Schema){
	"page":      func(s *jsonschema.Schema) { bound(s, 0, maxPage) },
	"regions":   func(s *jsonschema.Schema) { bound(s.Items, minRegion, maxRegion) },
	"countries": func(s *jsonschema.Schema) { bound(s.Items, minCountry, maxCountry) },
	"id":        func(s *jsonschema.Schema) { s.MinLength = jsonschema.Ptr(1) },
	"tend_num":  func(s *jsonschema.Schema) { s.MinLength = jsonschema.Ptr(1) },
	"inn":       func(s *jsonschema.Schema) { s.Pattern = innPattern },
	"laws":      func(s *jsonschema.Schema) { s.Items.Enum = []any{44, 223} },
	"price_min": func(s *jsonschema.Schema) { bound(s, 0, maxPrice) },
	"price_max": func(s *jsonschema.Schema) { bound(s, 0, maxPrice) },
	"sort": func(s *jsonschema.Schema) {
		s.Enum = nil
		for _, o := range tenderbase.Sorts {
			s.Enum = append(s.Enum, string(o))
		}
	},
	"resource":        func(s *jsonschema.Schema) { s.Enum = feedResourceEnum() },
	"limit":           func(s *jsonschema.Schema) { bound(s, 0, tenderbase.MaxFeedPage) },
	"customer_inn":    func(s *jsonschema.Schema) { s.Pattern = innPattern },
	"participant_inn": func(s *jsonschema.Schema) { s.Pattern = innPattern },
	"organizer_inn":   func(s *jsonschema.Schema) { s.Pattern = innPattern },
	"supplier_inn":    func(s *jsonschema.Schema) { s.Pattern = innPattern },
	"hour":            func(s *jsonschema.Schema) { bound(s, 0, 23) },
	"schedule": func(s *jsonschema.Schema) {
		s.Enum = []any{tenderbase.SchedulePublished, tenderbase.ScheduleDaily, tenderbase.ScheduleWeekly}
	},
	"weekday":     func(s *jsonschema.Schema) { s.Enum = anyOf(tenderbase.Weekdays) },
	"watch_inns":  func(s *jsonschema.Schema) { s.Items.Pattern = innPattern },
	"name":        func(s *jsonschema.Schema) { s.MinLength = jsonschema.Ptr(1) },
	"state":       func(s *jsonschema.Schema) { s.Enum = anyOf(tenderbase.TenderStates) },
	"ikz":         func(s *jsonschema.Schema) { s.Pattern = ikzPattern },
	"plan_number": func(s *jsonschema.Schema) { s.Pattern = planNumberPattern },
	"publish_in":  func(s *jsonschema.Schema) { s.Pattern = publishInPattern },
}

// anyOf returns vs as the values of an enum.
func anyOf(vs []string) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func bound(s *jsonschema.Schema, lo, hi float64) {
	s.Minimum, s.Maximum = &lo, &hi
}

// Bounds of the string arguments, in characters: a purchase number is 19
// digits and an INN 12, and the ids of every source stay far below 128.
const (
	maxIDLength     = 128
	maxNumberLength = 32
	maxINNLength    = 12
	maxDateLength   = 35 // an RFC 3339 time with nanoseconds and a zone
	// maxPrice bounds a price filter: a quadrillion roubles is more than
	// any purchase, and exact in every client's numbers.
	maxPrice = 1e15
)

// argumentLimits bound every argument that is not an integer (integers have
// ranges in argumentRules): the characters of a string, the items of an
// array, the keys of an object. Like argumentRules they are keyed by
// argument name. The decoder refuses a value past its limit and the input
// schema states it as maxLength, maxItems (with uniqueItems) or
// maxProperties; both read this one table, so the two agree, and a tool
// whose argument is missing here fails to build.
var argumentLimits = map[string]int{
	"query":    query.MaxLength,
	"id":       maxIDLength,
	"tend_num": maxNumberLength,
	// docs.analyze: one tender, or the tenders compared.
	"purchase_number":  maxNumberLength,
	"purchase_numbers": docjobs.MaxCompared,
	"inn":              maxINNLength,
	// The named filters of the search tools.
	"laws":            2,
	"published_from":  maxDateLength,
	"published_to":    maxDateLength,
	"deadline_from":   maxDateLength,
	"deadline_to":     maxDateLength,
	"ends_from":       maxDateLength,
	"ends_to":         maxDateLength,
	"okpd2":           maxNumberLength,
	"cpv":             maxNumberLength,
	"customer_inn":    maxINNLength,
	"participant_inn": maxINNLength,
	"organizer_inn":   maxINNLength,
	"winner_id":       maxNumberLength,
	"supplier_inn":    maxINNLength,
	"placing_method":  maxNumberLength,
	"platform":        maxNumberLength,
	"sort":            maxStateLength,
	"cursor":          maxCursorLength,
	"resource":        16,
	"regions":         maxRegions,
	"countries":       maxCountries,
	"filters":         maxFilterKeys,
	"state":           maxStateLength,
	"ikz":             36,
	"plan_number":     18,
	"publish_in":      7,
	// The grouping of analytics.aggregate, the spend's of analytics.profile.
	"by": maxStateLength,
	// The role and the period of analytics.profile: dates YYYY-MM-DD.
	"role": maxStateLength,
	"from": len(time.DateOnly),
	"to":   len(time.DateOnly),
	// The arguments of subscriptions.create.
	"name":       200,
	"search":     maxFilterKeys,
	"schedule":   maxStateLength,
	"weekday":    maxStateLength,
	"recipients": tenderbase.MaxRecipients,
	"webhook":    2000,
	"watch_inns": tenderbase.MaxWatchINNs,
	"branch":     200,
	// The source data.freshness reports on: a name such as torgi-cards.
	"source": 32,
}

// limitSchema states the argument's limit in its schema p. An array says
// uniqueItems too: a repeated code adds nothing, and the decoder takes it
// once rather than refusing it. A string whose schema has an enum or a
// pattern is bounded by it already, and an object may have any members
// unless its schema says otherwise: saying so again would only lengthen
// what a model reads of every tool.
func (f argField) limitSchema(p *jsonschema.Schema) {
	switch f.typ.Kind() {
	case reflect.String:
		if p.Enum == nil && p.Pattern == "" {
			p.MaxLength = jsonschema.Ptr(f.limit)
		}
	case reflect.Slice:
		p.MaxItems, p.UniqueItems = jsonschema.Ptr(f.limit), true
	case reflect.Map:
		p.MaxProperties = jsonschema.Ptr(f.limit)
		p.AdditionalProperties = nil
	}
}

// inputSchema generates the input schema of the argument type A, whose
// arguments are fields: the descriptions of its jsonschema tags, or of
// params where given, each with the other form the decoder takes, no other
// properties, the argument rules and limits. An argument has the one type
// to send: null, which the decoder takes as the argument's absence, is left
// unsaid, since a client says that by leaving the argument out.
func inputSchema[A any](fields argFields, params map[string]string, rules map[string]func(*jsonschema.Schema)) (json.RawMessage, error) {
	s, err := jsonschema.For[A](nil)
	if err != nil {
		return nil, err
	}
	oneType(s, false)
	for _, f := range fields {
		p := s.Properties[f.name]
		if rule := argumentRules[f.name]; rule != nil {
			rule(p)
		}
		if rule := rules[f.name]; rule != nil {
			rule(p)
		}
		f.limitSchema(p)
		if d, ok := params[f.name]; ok {
			p.Description = d
		}
	}
	for name := range params {
		if s.Properties[name] == nil {
			return nil, fmt.Errorf("description of %q, which is no argument", name)
		}
	}
	return marshal(s)
}

// outputSchema generates the output schema of a tool.
type outputSchema func() (json.RawMessage, error)

// outputOf returns the output schema of the result type R, in which every
// json.RawMessage is a record of kind k as a plan may see it. Properties
// named in nullable may also be null.
func outputOf[R any](k tenderbase.Kind, nullable ...string) outputSchema {
	return outputWith[R](k, nil, nullable...)
}

// outputWith is outputOf for a result that holds records of other kinds too:
// the items of each property named in others are records of its kind.
func outputWith[R any](k tenderbase.Kind, others map[string]tenderbase.Kind, nullable ...string) outputSchema {
	return func() (json.RawMessage, error) {
		opts := jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
			reflect.TypeFor[count](): {Types: []string{"null", "integer"}},
		}}
		if k != "" {
			rec, err := recordSchema(k)
			if err != nil {
				return nil, err
			}
			opts.TypeSchemas[reflect.TypeFor[json.RawMessage]()] = rec
		}
		s, err := jsonschema.For[R](&opts)
		if err != nil {
			return nil, err
		}
		omitNulls(s, reflect.TypeFor[R]())
		for name, kind := range others {
			p := s.Properties[name]
			if p == nil || p.Items == nil {
				return nil, fmt.Errorf("records of %s at %s, which is no list of the result", kind, name)
			}
			if p.Items, err = recordSchema(kind); err != nil {
				return nil, err
			}
		}
		for _, name := range nullable {
			allowNull(s.Properties[name])
		}
		oneType(s, true)
		return marshal(s)
	}
}

// recordOutput returns the output schema of a tool that returns one record of
// kind k as it is.
func recordOutput(k tenderbase.Kind) outputSchema {
	return func() (json.RawMessage, error) {
		s, err := recordSchema(k)
		if err != nil {
			return nil, err
		}
		oneType(s, true)
		return marshal(s)
	}
}

// recordWith returns the output schema of a tool that returns one record of
// kind k with the members of X added to it; every json.RawMessage of X is a
// record of kind inner.
func recordWith[X any](k, inner tenderbase.Kind) outputSchema {
	return func() (json.RawMessage, error) {
		s, err := recordSchema(k)
		if err != nil {
			return nil, err
		}
		rec, err := recordSchema(inner)
		if err != nil {
			return nil, err
		}
		more, err := jsonschema.For[X](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): rec}})
		if err != nil {
			return nil, err
		}
		omitNulls(more, reflect.TypeFor[X]())
		for _, name := range more.PropertyOrder {
			if s.Properties[name] != nil {
				return nil, fmt.Errorf("member %s of the result is a field of %s", name, k)
			}
			s.Properties[name] = more.Properties[name]
			s.PropertyOrder = append(s.PropertyOrder, name)
		}
		s.Required = append(s.Required, more.Required...)
		oneType(s, true)
		return marshal(s)
	}
}

// recordSchema generates the schema of the canonical JSON of kind k as a plan
// may see it: the record's own fields, its tariff fields also null. Its type
// arrays are left for the output schema that holds it to rewrite.
func recordSchema(k tenderbase.Kind) (*jsonschema.Schema, error) {
	r, err := tenderbase.NewRecord(k)
	if err != nil {
		return nil, err
	}
	t := reflect.TypeOf(r).Elem()
	s, err := jsonschema.ForType(t, nil)
	if err != nil {
		return nil, err
	}
	omitNulls(s, t)
	for _, f := range tenderbase.TariffFields[k] {
		p := s.Properties[f]
		if p == nil {
			return nil, fmt.Errorf("tariff field %s of %s is no field of the record", f, k)
		}
		allowNull(p)
	}
	return s, nil
}

// allowNull lets s also be null. It says so with a type array, as
// jsonschema-go does for slices and pointers; oneType rewrites them all.
func allowNull(s *jsonschema.Schema) {
	switch {
	case s.Type != "":
		s.Types = []string{"null", s.Type}
		s.Type = ""
	case len(s.Types) > 0 && !slices.Contains(s.Types, "null"):
		s.Types = append([]string{"null"}, s.Types...)
	}
}

// Type arrays. jsonschema-go says that a Go slice or pointer may be null
// with "type": ["null", "array"], and allowNull says it the same way. A type
// array is valid JSON Schema, but clients that map tool schemas onto a
// dialect in which a schema has one type (the OpenAPI subset of Gemini's
// function declarations) reject such a tool or drop the constraint, and the
// MCP Inspector's schema lint (--strict) warns of each one. So no schema a
// tool publishes has one: omitNulls takes out the nulls encoding/json never
// writes, and oneType turns what is left into a single type, or into anyOf
// branches of one type each.

// oneType rewrites every node of s that has a type array. Without null, or
// with null dropped (keepNull false, for input schemas), a single type is
// left; otherwise the node becomes anyOf branches, the value's own
// assertions in its branch and {"type": "null"} last, and keeps its title
// and description.
func oneType(s *jsonschema.Schema, keepNull bool) {
	eachSchema(s, func(n *jsonschema.Schema) {
		if len(n.Types) == 0 {
			return
		}
		values := slices.DeleteFunc(slices.Clone(n.Types), func(t string) bool { return t == "null" })
		null := len(values) < len(n.Types) && keepNull
		switch {
		case len(values) == 0:
			n.Type, n.Types = "null", nil
		case len(values) == 1 && !null:
			n.Type, n.Types = values[0], nil
		default:
			var branches []*jsonschema.Schema
			for _, t := range values {
				b := *n
				b.Title, b.Description, b.Type, b.Types = "", "", t, nil
				branches = append(branches, &b)
			}
			if null {
				branches = append(branches, &jsonschema.Schema{Type: "null"})
			}
			*n = jsonschema.Schema{Title: n.Title, Description: n.Description, AnyOf: branches}
		}
	})
}

// valueBranch returns the branch of s other than null when oneType has made
// s anyOf a value and null, and s itself otherwise.
func valueBranch(s *jsonschema.Schema) *jsonschema.Schema {
	if s != nil && len(s.AnyOf) == 2 && s.AnyOf[1].Type == "null" {
		return s.AnyOf[0]
	}
	return s
}

// eachSchema calls f on s and then on every schema below it, so that f sees
// the branches it makes. Generated schemas nest only through these keywords.
func eachSchema(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	f(s)
	for _, p := range s.Properties {
		eachSchema(p, f)
	}
	eachSchema(s.Items, f)
	eachSchema(s.AdditionalProperties, f)
	for _, b := range s.AnyOf {
		eachSchema(b, f)
	}
}

// omitNulls takes null out of the schema s of the Go type t wherever
// encoding/json leaves a value out rather than writing null: a struct field
// with omitempty or omitzero whose nil slice, map or pointer is omitted.
// A type that encodes itself (json.RawMessage, count) may write null
// whatever the field's options, so its schema keeps what it says, and
// omitNulls does not look inside it: records have been through it already.
func omitNulls(s *jsonschema.Schema, t reflect.Type) {
	t = deref(t)
	if s == nil || encodesItself(t) {
		return
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		omitNulls(s.Items, t.Elem())
	case reflect.Map:
		omitNulls(s.AdditionalProperties, t.Elem())
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous || !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			p := s.Properties[name]
			if p == nil {
				continue
			}
			omitted := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
			if omitted && !encodesItself(deref(f.Type)) {
				p.Types = slices.DeleteFunc(p.Types, func(t string) bool { return t == "null" })
			}
			omitNulls(p, f.Type)
		}
	}
}

// encodesItself reports whether t has its own MarshalJSON.
func encodesItself(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[json.Marshaler]())
}

// deref returns the type a pointer type points to, through every pointer.
func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
