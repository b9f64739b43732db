package openapi

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// TestDocument checks that every schema of the document resolves as a JSON
// Schema, that every tool and every export parameter is in it, and that it
// comes out the same every time it is built.
func TestDocument(t *testing.T) {
	list := tools.New(nil, nil).List()
	body, err := Document(list)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Document(list)
	if string(again) != string(body) {
		t.Error("the document differs between two builds")
	}
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	walkSchemas(doc, func(s any) {
		n++
		raw, _ := json.Marshal(s)
		var js jsonschema.Schema
		if err := json.Unmarshal(raw, &js); err != nil {
			t.Errorf("%v: %s", err, raw)
			return
		}
		if _, err := js.Resolve(nil); err != nil {
			t.Errorf("%v: %s", err, raw)
		}
	})
	paths := doc["paths"].(map[string]any)
	for _, tool := range list {
		if paths["/mcp/"+tool.Group+"/"+tool.Operation] == nil {
			t.Errorf("no path for %s", tool.Name)
		}
	}
	params := paths["/api2.3/export"].(map[string]any)["get"].(map[string]any)["parameters"].([]any)
	if len(params) != len(export.Params) {
		t.Errorf("%d export parameters, want %d", len(params), len(export.Params))
	}
	if n < 3*len(list) {
		t.Errorf("only %d schemas checked", n)
	}
	// Linters (@redocly/cli) want the servers named and every
	// operation's security said, an open one as an empty requirement.
	if servers, _ := doc["servers"].([]any); len(servers) == 0 {
		t.Error("no servers")
	}
	for path, item := range paths {
		for method, op := range item.(map[string]any) {
			if _, ok := op.(map[string]any)["security"].([]any); !ok {
				t.Errorf("%s %s says nothing of its security", method, path)
			}
		}
	}
}

// walkSchemas calls f with the value of every "schema" member in v.
func walkSchemas(v any, f func(any)) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if k == "schema" {
				f(e)
				continue
			}
			walkSchemas(e, f)
		}
	case []any:
		for _, e := range v {
			walkSchemas(e, f)
		}
	}
}
