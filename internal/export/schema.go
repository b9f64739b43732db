package export

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
)

// Schema returns the JSON Schema of a record of kind k as dtype=json writes
// it: every field present, in the table's order; strings, dates and xml
// fields null when they have no value; any field null when the caller's
// plan hides it (a tariff field).
func Schema(k tenderbase.Kind) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, f := range Fields(k) {
		p := fieldSchema(f)
		s.Properties[f.Name] = p
		s.Required = append(s.Required, f.Name)
		s.PropertyOrder = append(s.PropertyOrder, f.Name)
	}
	return s
}

func fieldSchema(f Field) *jsonschema.Schema {
	p := &jsonschema.Schema{}
	nullable := f.Tariff
	switch f.Type {
	case TypeInt:
		p.Types = []string{"integer"}
	case TypeBool:
		p.Types = []string{"boolean"}
	case TypeDate:
		p.Types, p.Format, nullable = []string{"string"}, "date-time", true
	case TypeXML:
		p.Types, p.ContentMediaType, nullable = []string{"string"}, "application/xml", true
	default:
		p.Types, nullable = []string{"string"}, true
	}
	if nullable {
		p.Types = append(p.Types, "null")
	}
	if f.Tariff {
		p.Description = "Tariff field: null for the free view."
	}
	if len(p.Types) == 1 {
		p.Type, p.Types = p.Types[0], nil
	}
	return p
}
