package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// The rules below are those of the MCP Inspector's tool-schema lint, which
// `inspector --cli URL --method tools/list --strict` applies to every input
// and output schema (@modelcontextprotocol/inspector 2.12.0, its
// core/json/schemaLint.ts); e2e/inspector_test.go runs the Inspector itself
// against the binary. Each rule names the Inspector's own, and says why a
// client cares:
//
//   - type-union (warning): "type" is an array, such as ["null", "array"].
//     Clients that map a tool schema onto a dialect in which a schema has
//     one type (the OpenAPI subset of Gemini's function declarations) reject
//     the tool or drop the constraint.
//   - remote-ref (warning): a $ref outside the document, which no client
//     fetches.
//   - untyped-schema (warning): a schema object without one keyword that
//     constrains a value, which accepts anything.
//   - boolean-schema (error): true or false where a schema object is
//     expected; additionalProperties, unevaluatedProperties, additionalItems
//     and unevaluatedItems may be booleans.

// schemaMaps, schemaLists and schemaKeywords are the keywords whose values
// are schemas: maps of them, lists of them, one each.
var (
	schemaMaps     = []string{"properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"}
	schemaLists    = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaKeywords = []string{"items", "contains", "not", "propertyNames", "if", "then", "else", "additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems", "contentSchema"}
	booleanAllowed = []string{"additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"}
	// constraining are the keywords that make a schema object say something
	// of a value (if counts only with then or else).
	constraining = []string{
		"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "format", "contentMediaType", "contentEncoding", "contentSchema",
		"maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties",
		"required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items", "prefixItems", "contains",
		"additionalItems", "unevaluatedItems", "properties", "patternProperties", "additionalProperties",
		"unevaluatedProperties", "propertyNames", "dependentSchemas", "dependencies", "$ref", "$dynamicRef", "$recursiveRef",
	}
)

// portabilityFindings returns what the Inspector's lint finds in a schema,
// one line each: rule, path, what.
func portabilityFindings(schema json.RawMessage) ([]string, error) {
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	var findings []string
	var walk func(node any, path, keyword string)
	walk = func(node any, path, keyword string) {
		if b, ok := node.(bool); ok {
			if !slices.Contains(booleanAllowed, keyword) {
				findings = append(findings, fmt.Sprintf("boolean-schema %s: %v", path, b))
			}
			return
		}
		s, ok := node.(map[string]any)
		if !ok {
			return
		}
		if types, ok := s["type"].([]any); ok {
			findings = append(findings, fmt.Sprintf("type-union %s: %v", path, types))
		}
		if ref, ok := s["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
			findings = append(findings, fmt.Sprintf("remote-ref %s: %s", path, ref))
		}
		_, ifThen := s["then"]
		_, ifElse := s["else"]
		_, hasIf := s["if"]
		if !slices.ContainsFunc(constraining, func(k string) bool { _, ok := s[k]; return ok }) &&
			!(hasIf && (ifThen || ifElse)) && keyword != "not" {
			findings = append(findings, fmt.Sprintf("untyped-schema %s", path))
		}
		for _, k := range schemaMaps {
			m, _ := s[k].(map[string]any)
			for name, sub := range m {
				walk(sub, path+"/"+k+"/"+name, k)
			}
		}
		for _, k := range schemaLists {
			l, _ := s[k].([]any)
			for i, sub := range l {
				walk(sub, fmt.Sprintf("%s/%s/%d", path, k, i), k)
			}
		}
		for _, k := range schemaKeywords {
			switch sub := s[k].(type) {
			case nil:
			case []any: // items as a tuple, of draft 2019-09 and before
				for i, item := range sub {
					walk(item, fmt.Sprintf("%s/%s/%d", path, k, i), k)
				}
			default:
				walk(sub, path+"/"+k, k)
			}
		}
	}
	walk(root, "", "")
	return findings, nil
}

// TestSchemasPortable checks every tool's input and output schema against
// the Inspector's lint: no finding at all, warnings included.
func TestSchemasPortable(t *testing.T) {
	for _, tool := range demoSet.List() {
		for _, s := range []struct {
			name   string
			schema json.RawMessage
		}{{"inputSchema", tool.InputSchema}, {"outputSchema", tool.OutputSchema}} {
			findings, err := portabilityFindings(s.schema)
			if err != nil {
				t.Fatalf("%s %s: %v", tool.Name, s.name, err)
			}
			for _, f := range findings {
				t.Errorf("%s %s: %s", tool.Name, s.name, f)
			}
		}
	}
}

// TestPortabilityFindings checks the lint itself on schemas that break each
// rule, so that TestSchemasPortable cannot pass by finding nothing.
func TestPortabilityFindings(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type": "object", "properties": {"a": {"type": ["null", "array"], "items": {"type": "string"}}}}`, `type-union /properties/a: [null array]`},
		{`{"type": "array", "items": {"type": ["string", "integer"]}}`, `type-union /items: [string integer]`},
		{`{"type": "array", "items": [{"type": "string"}, {}]}`, `untyped-schema /items/1`},
		{`{"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}`, `remote-ref /properties/a: https://example.com/a.json`},
		{`{"type": "object", "properties": {"a": {"description": "anything"}}}`, `untyped-schema /properties/a`},
		{`{"type": "object", "properties": {"a": true}}`, `boolean-schema /properties/a: true`},
		{`{"anyOf": [{"type": "string"}, {"type": "null"}], "description": "x"}`, ``},
		{`{"type": "object", "additionalProperties": false, "properties": {"f": {"type": "object", "additionalProperties": true}}}`, ``},
		{`{"not": {}}`, ``},
		{`{"$ref": "#/$defs/a", "$defs": {"a": {"type": "string"}}}`, ``},
	} {
		got, err := portabilityFindings(json.RawMessage(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("%s: findings %q, want %q", c.schema, got, c.want)
		}
	}
}

// TestSchemaNulls checks where the schemas allow null: in an output schema
// wherever encoding/json or a plan writes it (a tariff field a plan hides, a
// nil slice or pointer that no omitempty leaves out, a count a plan hides),
// as an anyOf branch; nowhere else, and never in an input schema, where
// null for an argument is its absence.
func TestSchemaNulls(t *testing.T) {
	for _, c := range []struct {
		tool, path string // path: property names, [] for the items of an array
		input      bool
		null       bool
		typ        string // the value's own type
	}{
		{"ru.search", "regions", true, false, "array"},
		{"ru.search", "page", true, false, "integer"},
		{"ru.detail", "contact", false, true, "object"},                      // a tariff field of tenders
		{"ru.detail", "participants", false, true, "array"},                  // a tariff field, a slice too
		{"contracts.detail", "suppliers", false, true, "array"},              // the tariff field of contracts
		{"ru.detail", "lots", false, false, "array"},                         // omitempty: never null
		{"ru.search", "items", false, false, "array"},                        // a page's summaries are [] when empty, never null
		{"ru.search", "items/[]/prices", false, false, "array"},              // a summary's list
		{"ru.contractByNum", "contracts/[]/suppliers", false, true, "array"}, // a record's tariff field in a list
		{"contragent.byInn", "org", false, true, "object"},                   // declared nullable: none stored
		{"contragent.byInn", "as_supplier", false, true, "object"},
		{"contragent.byInn", "complaints/as_supplier", false, true, "integer"},
		{"ru.contractByNum", "winners", false, true, "array"},
		{"ru.izm", "timeline/[]/participants", false, true, "integer"}, // a count, omitempty and null
		{"ru.izm", "timeline/[]/changed", false, false, "array"},
		{"ru.izm", "versions/[]/changed", false, true, "array"},
	} {
		tool, _ := demoSet.Lookup(c.tool)
		raw := tool.OutputSchema
		if c.input {
			raw = tool.InputSchema
		}
		var s map[string]any
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		for _, step := range strings.Split(c.path, "/") {
			value, _ := valueAndNull(s)
			if step == "[]" {
				s, _ = value["items"].(map[string]any)
			} else {
				props, _ := value["properties"].(map[string]any)
				s, _ = props[step].(map[string]any)
			}
			if s == nil {
				t.Fatalf("%s: no schema at %s", c.tool, c.path)
			}
		}
		value, null := valueAndNull(s)
		if null != c.null || value["type"] != c.typ {
			t.Errorf("%s %s: type %v, null %v; want %s, null %v", c.tool, c.path, value["type"], null, c.typ, c.null)
		}
	}
}

// valueAndNull returns the schema of a node's value, from its anyOf when it
// is anyOf the value and null, and whether it allows null.
func valueAndNull(s map[string]any) (map[string]any, bool) {
	branches, _ := s["anyOf"].([]any)
	if len(branches) != 2 {
		return s, false
	}
	value, _ := branches[0].(map[string]any)
	null, _ := branches[1].(map[string]any)
	if null["type"] != "null" || len(null) != 1 {
		return s, false
	}
	return value, true
}

// TestOneType checks the rewriting of type arrays on its own, field by
// field, for nodes no tool has yet.
func TestOneType(t *testing.T) {
	for _, c := range []struct {
		in       string
		keepNull bool
		want     string
	}{
		{`{"type": ["null", "string"], "description": "d", "maxLength": 3}`, true,
			`{"description":"d","anyOf":[{"type":"string","maxLength":3},{"type":"null"}]}`},
		{`{"type": ["null", "string"], "description": "d", "maxLength": 3}`, false,
			`{"type":"string","description":"d","maxLength":3}`},
		{`{"type": ["string", "integer"]}`, false,
			`{"anyOf":[{"type":"string"},{"type":"integer"}]}`},
		{`{"type": "object", "properties": {"a": {"type": ["null", "array"], "items": {"type": ["null", "integer"]}}}}`, true,
			`{"type":"object","properties":{"a":{"anyOf":[{"type":"array","items":{"anyOf":[{"type":"integer"},{"type":"null"}]}},{"type":"null"}]}}}`},
		{`{"type": "string"}`, true, `{"type":"string"}`},
		{`{"type": ["null"]}`, false, `{"type":"null"}`},
	} {
		s := new(jsonschema.Schema)
		if err := json.Unmarshal([]byte(c.in), s); err != nil {
			t.Fatal(err)
		}
		oneType(s, c.keepNull)
		got, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("oneType(%s, %v) = %s, want %s", c.in, c.keepNull, got, c.want)
		}
	}
}

// TestOmitNulls checks that only a field left out when nil loses its null,
// and that a type which encodes itself keeps it.
func TestOmitNulls(t *testing.T) {
	type inner struct {
		List []string `json:"list,omitempty"`
	}
	type result struct {
		Kept    []string `json:"kept"`
		Gone    []string `json:"gone,omitempty"`
		Zero    *inner   `json:"zero,omitzero"`
		Pointer *inner   `json:"pointer"`
		Count   *count   `json:"count,omitempty"`
	}
	s, err := jsonschema.For[result](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[count](): {Types: []string{"null", "integer"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	omitNulls(s, reflect.TypeFor[result]())
	got := map[string][]string{}
	for name, p := range s.Properties {
		got[name] = append([]string{p.Type}, p.Types...)
	}
	got["pointer.list"] = append([]string{s.Properties["pointer"].Properties["list"].Type}, s.Properties["pointer"].Properties["list"].Types...)
	want := map[string][]string{
		"kept":         {"", "null", "array"},
		"gone":         {"", "array"},
		"zero":         {"", "object"},
		"pointer":      {"", "null", "object"},
		"pointer.list": {"", "array"},
		"count":        {"", "null", "integer"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("types after omitNulls (-want +got):\n%s", diff)
	}
}
