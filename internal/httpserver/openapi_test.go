package httpserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// openAPIDocument fetches and decodes GET /openapi.json.
func openAPIDocument(t *testing.T, ts *httptest.Server) map[string]any {
	t.Helper()
	resp, err := ts.Client().Get(ts.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %d, %v", resp.StatusCode, err)
	}
	if doc["openapi"] != "3.1.0" {
		t.Errorf("openapi %v, want 3.1.0", doc["openapi"])
	}
	return doc
}

// schemaAt resolves the schema at a path of keys in the document.
func schemaAt(t *testing.T, doc map[string]any, path ...string) *jsonschema.Resolved {
	t.Helper()
	var v any = doc
	for _, key := range path {
		m, ok := v.(map[string]any)
		if !ok || m[key] == nil {
			t.Fatalf("document has nothing at %s", strings.Join(path, " / "))
		}
		v = m[key]
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", strings.Join(path, " / "), err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(path, " / "), err)
	}
	return rs
}

// validate checks that body, JSON, fits rs.
func validate(t *testing.T, rs *jsonschema.Resolved, what string, body []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: body is not JSON: %v", what, err)
	}
	if err := rs.Validate(v); err != nil {
		t.Errorf("%s: the answer does not fit the document: %v\n%s", what, err, body)
	}
}

// TestOpenAPIExport validates real export answers, JSON, of every form
// against the document's schemas of the export's answers.
func TestOpenAPIExport(t *testing.T) {
	ts := newDemoServer(t)
	doc := openAPIDocument(t, ts)
	op := []string{"paths", "/api2.3/export", "get", "responses"}
	for _, form := range exportForms {
		for _, key := range []string{"", "&api_code=free", "&api_code=paid", "&api_code=nobody", "&api_code=limited"} {
			a := getExport(t, ts, form.query+"&dtype=json"+key)
			status := strconv.Itoa(a.status)
			rs := schemaAt(t, doc, append(op, status, "content", "application/json", "schema")...)
			validate(t, rs, form.name+key, a.body)
		}
	}
}

// toolCalls are arguments that find something on the demo dataset, for
// every tool.
var toolCalls = map[string]string{
	"/mcp/ru/search":           `{"query": "поставка"}`,
	"/mcp/ru/detail":           `{"id": "0162307330524391275"}`,
	"/mcp/ru/izm":              `{"tend_num": "0162307330524391275"}`,
	"/mcp/ru/contractByNum":    `{"tend_num": "0162307330523677748"}`,
	"/mcp/docs/search":         `{"query": "контракт"}`,
	"/mcp/contracts/search":    `{"query": "поставка"}`,
	"/mcp/contracts/detail":    `{"id": "3160130329823257539"}`,
	"/mcp/world/search":        `{"query": "school"}`,
	"/mcp/world/detail":        `{"id": "ted:800461-2024"}`,
	"/mcp/contragent/byInn":    `{"inn": "1601303298"}`,
	"/mcp/contragent/contacts": `{"inn": "1601303298"}`,
	"/mcp/torgi/search":        `{"query": "имущество"}`,
	"/mcp/torgi/detail":        `{"id": "efrsb-17423037_1"}`,
	"/mcp/rnp/search":          `{"query": "общество"}`,
	"/mcp/rnp/detail":          `{"id": "23003018"}`,
	"/mcp/plans/search":        `{"query": "оказание", "publish_in": "2023"}`,
	"/mcp/plans/detail":        `{"id": "202306621491460001000001"}`,
	"/mcp/feed/changes":        `{"resource": "fas"}`,
	"/mcp/prices/monitor":      `{"okpd2": "26.20"}`,
	"/mcp/ru/flags":            `{"tend_num": "0362064093423626283"}`,
	"/mcp/analytics/aggregate": `{"resource": "ru", "search": {"query": "поставка"}, "by": "region"}`,
	"/mcp/analytics/profile":   `{"inn": "5023870634", "top": 3}`,
	"/mcp/subscriptions/create": `{"name": "Поставки", "resource": "ru", "search": {"query": "поставка"}, ` +
		`"recipients": ["buyer@example.com"]}`,
	"/mcp/subscriptions/list":   `{}`,
	"/mcp/subscriptions/delete": `{"id": "s_00000000"}`,
	"/mcp/data/freshness":       `{}`,
	"/mcp/docs/analyze":         `{"purchase_number": "0662149146023646546"}`,
}

// TestOpenAPITools validates the document's request schema against the
// arguments sent, and real answers of every debug endpoint, for a free and
// a paid key and with bad arguments, against its response schemas.
func TestOpenAPITools(t *testing.T) {
	ts := newDemoServer(t)
	doc := openAPIDocument(t, ts)
	paths := doc["paths"].(map[string]any)
	for path, args := range toolCalls {
		if paths[path] == nil {
			t.Errorf("the document has no path %s", path)
			continue
		}
		op := []string{"paths", path, "post"}
		validate(t, schemaAt(t, doc, append(op, "requestBody", "content", "application/json", "schema")...), path+" arguments", []byte(args))
		for _, c := range []struct{ key, body string }{{"free", args}, {"paid", args}, {"paid", `{"nope": 1}`}, {"nobody", args}} {
			status, body := postTool(t, ts, path, c.key, c.body)
			rs := schemaAt(t, doc, append(op, "responses", strconv.Itoa(status), "content", "application/json", "schema")...)
			validate(t, rs, path+" "+c.key+" "+c.body, body)
		}
	}
	if n := len(paths) - 4; n != len(toolCalls) { // the export, the feed, the freshness and the document
		t.Errorf("the document has %d tool paths, want %d", n, len(toolCalls))
	}
}

// postTool calls a debug endpoint with the key and returns the status and
// the body.
func postTool(t *testing.T, ts *httptest.Server, path, key, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, buf.Bytes()
}

// TestOpenAPISchemasRefuse shows that the schemas the tests validate with
// do refuse what does not fit.
func TestOpenAPISchemasRefuse(t *testing.T) {
	ts := newDemoServer(t)
	doc := openAPIDocument(t, ts)
	rs := schemaAt(t, doc, "paths", "/api2.3/export", "get", "responses", "200", "content", "application/json", "schema")
	for _, body := range []string{`{}`, `[{"complaintNumber": 5}]`, `[{"id": "x"}]`} {
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		if rs.Validate(v) == nil {
			t.Errorf("%s fits the export's schema", body)
		}
	}
}

// TestOpenAPIExportConventions checks that the document describes the
// switch to TenderGuru's conventions from the export's table of parameters:
// compat takes tg alone, and dtype takes csv; and the spreadsheet, xlsx.
func TestOpenAPIExportConventions(t *testing.T) {
	ts := newDemoServer(t)
	doc := openAPIDocument(t, ts)
	get := doc["paths"].(map[string]any)["/api2.3/export"].(map[string]any)["get"].(map[string]any)
	enums := map[string]any{}
	for _, p := range get["parameters"].([]any) {
		p := p.(map[string]any)
		enums[p["name"].(string)] = p["schema"].(map[string]any)["enum"]
	}
	want := map[string]any{"compat": []any{"tg"}, "dtype": []any{"xml", "json", "csv", "xlsx"}}
	for name, enum := range want {
		if !cmp.Equal(enums[name], enum) {
			t.Errorf("%s: enum %v, want %v", name, enums[name], enum)
		}
	}
}
