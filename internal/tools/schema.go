package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// innPattern is what an INN looks like: 10 digits for an organization, 12
// for a person or an individual entrepreneur.
const innPattern = `^\d{10}(\d{2})?$`

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
)

// argumentLimits bound every argument that is not an integer (integers have
// ranges in argumentRules): the characters of a string, the items of an
// array, the keys of an object. Like argumentRules they are keyed by
// argument name. The decoder refuses a value past its limit and the input
// schema states it as maxLength, maxItems (with uniqueItems) or
// maxProperties; both read this one table, so the two agree, and a tool
// whose argument is missing here fails to build.
var argumentLimits = map[string]int{
	"query":     query.MaxLength,
	"id":        maxIDLength,
	"tend_num":  maxNumberLength,
	"inn":       maxINNLength,
	"regions":   maxRegions,
	"countries": maxCountries,
	"filters":   maxFilterKeys,
	"state":     maxStateLength,
}

// limitSchema states the argument's limit in its schema p. An array says
// uniqueItems too: a repeated code adds nothing, and the decoder takes it
// once rather than refusing it.
func (f argField) limitSchema(p *jsonschema.Schema) {
	switch f.typ.Kind() {
	case reflect.String:
		p.MaxLength = jsonschema.Ptr(f.limit)
	case reflect.Slice:
		p.MaxItems, p.UniqueItems = jsonschema.Ptr(f.limit), true
	case reflect.Map:
		p.MaxProperties = jsonschema.Ptr(f.limit)
	}
}

// inputSchema generates the input schema of the argument type A, whose
// arguments are fields: the descriptions of its jsonschema tags, or of
// params where given, no other properties, the argument rules and limits.
func inputSchema[A any](fields argFields, params map[string]string) (json.RawMessage, error) {
	s, err := jsonschema.For[A](nil)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		p := s.Properties[f.name]
		if rule := argumentRules[f.name]; rule != nil {
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
		for _, name := range more.PropertyOrder {
			if s.Properties[name] != nil {
				return nil, fmt.Errorf("member %s of the result is a field of %s", name, k)
			}
			s.Properties[name] = more.Properties[name]
			s.PropertyOrder = append(s.PropertyOrder, name)
		}
		s.Required = append(s.Required, more.Required...)
		return marshal(s)
	}
}

// recordSchema generates the schema of the canonical JSON of kind k as a plan
// may see it: the record's own fields, its tariff fields also null.
func recordSchema(k tenderbase.Kind) (*jsonschema.Schema, error) {
	r, err := tenderbase.NewRecord(k)
	if err != nil {
		return nil, err
	}
	s, err := jsonschema.ForType(reflect.TypeOf(r).Elem(), nil)
	if err != nil {
		return nil, err
	}
	for _, f := range tenderbase.TariffFields[k] {
		p := s.Properties[f]
		if p == nil {
			return nil, fmt.Errorf("tariff field %s of %s is no field of the record", f, k)
		}
		allowNull(p)
	}
	return s, nil
}

// allowNull lets s also be null.
func allowNull(s *jsonschema.Schema) {
	switch {
	case s.Type != "":
		s.Types = []string{"null", s.Type}
		s.Type = ""
	case len(s.Types) > 0 && !slices.Contains(s.Types, "null"):
		s.Types = append([]string{"null"}, s.Types...)
	}
}
