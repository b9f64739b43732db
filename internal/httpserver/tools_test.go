package httpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// newDemoServer serves the tools over a SQLite store loaded with the demo
// dataset.
func newDemoServer(t *testing.T) *httptest.Server {
	t.Helper()
	store := demoStore(t)
	srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts
}

// fakeKeys knows a key of each kind the tests need, whose secret is its
// name: "free", "paid" and "limited".
type fakeKeys struct{ tenderbase.KeyStore }

func (fakeKeys) Authenticate(ctx context.Context, secret string) (tenderbase.Key, error) {
	switch secret {
	case "free", "limited":
		return tenderbase.Key{ID: "k_" + secret, Plan: tenderbase.PlanFree, Status: tenderbase.KeyActive}, nil
	case "paid":
		return tenderbase.Key{ID: "k_paid", Plan: tenderbase.PlanStandard, Status: tenderbase.KeyActive}, nil
	case "guru":
		return tenderbase.Key{ID: "k_guru", Plan: tenderbase.PlanGuru, Status: tenderbase.KeyActive}, nil
	}
	return tenderbase.Key{}, tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "unknown key")
}

// fakeLimiter refuses the key k_limited for 42 s.
type fakeLimiter struct{}

func (fakeLimiter) Allow(ctx context.Context, k tenderbase.Key) (time.Duration, error) {
	if k.ID == "k_limited" {
		return 42 * time.Second, nil
	}
	return 0, nil
}

// answer is what a test checks of a response.
type answer struct {
	status     int
	header     string // "Name: value" that must be present, if any
	bodyPrefix string // the start of the body, if given
	contains   string // a part of the body, if given
}

func TestToolEndpoints(t *testing.T) {
	ts := newDemoServer(t)
	const tender = `{"id":"0162307330524391275"}`
	tests := []struct {
		name, key, method, path, contentType, body string
		want                                       answer
	}{
		{"detail", "free", "POST", "/mcp/ru/detail", "application/json", tender,
			answer{200, "X-Restricted-Fields: contact,customer_org,participants", `{"`, `"0162307330524391275"`}},
		// A standard key sees every field; the card's organization
		// information is the guru and corporate plans'.
		{"paid plan", "paid", "POST", "/mcp/ru/detail", "application/json", tender,
			answer{200, "X-Restricted-Fields: customer_org", `{"`, `"0162307330524391275"`}},
		{"paid plan with the right", "paid", "POST", "/mcp/contragent/contacts", "application/json", `{"inn":"1601303298"}`,
			answer{200, "", `{"`, ""}},
		{"no key", "", "POST", "/mcp/ru/detail", "application/json", tender,
			answer{401, "WWW-Authenticate: Bearer realm=\"tenderbase\"", `{"error":{"code":"unauthorized"`, ""}},
		{"rate limited", "limited", "POST", "/mcp/ru/detail", "application/json", tender,
			answer{429, "Retry-After: 42", `{"error":{"code":"rate_limited"`, ""}},
		{"no content type", "free", "POST", "/mcp/ru/detail", "", tender,
			answer{200, "Content-Type: application/json; charset=utf-8", `{"`, `"0162307330524391275"`}},
		{"JSON with a charset", "free", "POST", "/mcp/ru/detail", "application/json; charset=utf-8", tender,
			answer{200, "", `{"`, `"0162307330524391275"`}},
		// What curl -d and fetch send unless told otherwise: a tool that
		// only reads takes JSON under them (spec 4 sends no Content-Type).
		{"form content type", "free", "POST", "/mcp/ru/detail", "application/x-www-form-urlencoded", tender,
			answer{200, "", `{"`, `"0162307330524391275"`}},
		{"text content type", "free", "POST", "/mcp/ru/detail", "text/plain;charset=UTF-8", tender,
			answer{200, "", `{"`, `"0162307330524391275"`}},
		{"a real form", "free", "POST", "/mcp/ru/detail", "application/x-www-form-urlencoded", "id=0162307330524391275",
			answer{400, "", `{"error":{"code":"invalid","message":"the body is not valid JSON; send the tool's arguments as a JSON object"}}`, ""}},
		// A tool that changes what the server keeps reads JSON alone, as
		// /mcp does.
		{"form to a tool that writes", "paid", "POST", "/mcp/subscriptions/create", "application/x-www-form-urlencoded", `{}`,
			answer{415, "", `{"error":{"code":"invalid","message":"Content-Type \"application/x-www-form-urlencoded\" is not JSON; send application/json (with curl: -H 'Content-Type: application/json'); subscriptions.create changes what the server keeps, and reads JSON alone"}}`, ""}},
		{"another type", "free", "POST", "/mcp/ru/detail", "application/xml", tender,
			answer{415, "", `{"error":{"code":"invalid","message":"Content-Type \"application/xml\" is not JSON`, ""}},
		{"a member twice", "free", "POST", "/mcp/ru/detail", "application/json", `{"id":"0000000000000000000","id":"0162307330524391275"}`,
			answer{400, "", `{"error":{"code":"invalid","message":"member \"/id\" is given twice; give each member of a JSON object once"}}`, ""}},
		{"a nested member twice", "free", "POST", "/mcp/ru/search", "application/json", `{"query":"школа","filters":{"r77":1,"r77":1}}`,
			answer{400, "", `{"error":{"code":"invalid","message":"member \"/filters/r77\" is given twice; give each member of a JSON object once"}}`, ""}},
		// An empty body is no arguments, so the tool itself says what is
		// missing.
		{"empty body", "free", "POST", "/mcp/torgi/detail", "", "",
			answer{400, "", `{"error":{"code":"invalid","message":"argument \"id\" is required`, ""}},
		// A search without arguments lists the newest records.
		{"search without arguments", "free", "POST", "/mcp/torgi/search", "", "",
			answer{200, "", `{"total":30,"page":0,"page_size":20,"items":[{"id":"efrsb-17423037_1"`, ""}},
		{"blank body", "free", "POST", "/mcp/ru/detail", "", " \n",
			answer{400, "", `{"error":{"code":"invalid","message":"argument \"id\" is required`, ""}},
		{"argument of a wrong type", "free", "POST", "/mcp/ru/detail", "application/json", `{"id":true}`,
			answer{400, "", `{"error":{"code":"invalid"`, "id"}},
		{"not an object", "free", "POST", "/mcp/ru/detail", "application/json", `["0162307330524391275"]`,
			answer{400, "", `{"error":{"code":"invalid","message":"the body must be a JSON object of the tool's arguments"}}`, ""}},
		{"not JSON", "free", "POST", "/mcp/ru/detail", "application/json", `{"id":`,
			answer{400, "", `{"error":{"code":"invalid","message":"the body is not valid JSON`, ""}},
		{"not found", "free", "POST", "/mcp/ru/detail", "application/json", `{"id":"0000000000000000000"}`,
			answer{404, "", `{"error":{"code":"not_found"`, ""}},
		{"plan without the right", "free", "POST", "/mcp/contragent/contacts", "application/json", `{"inn":"1601303298"}`,
			answer{403, "", `{"error":{"code":"forbidden"`, ""}},
		{"unknown tool", "free", "POST", "/mcp/ru/nope", "application/json", `{}`,
			answer{404, "", `{"error":{"code":"not_found","message":"no tool at \"/mcp/ru/nope\"; the tools are at /mcp/ru/search, /mcp/ru/detail,`, "/mcp/torgi/detail"}},
		{"wrong method", "free", "GET", "/mcp/ru/search", "", "",
			answer{405, "Allow: OPTIONS, POST", `{"error":{"code":"invalid","message":"method \"GET\" not allowed on \"/mcp/ru/search\"; allowed: OPTIONS, POST"}}`, ""}},
		{"wrong method elsewhere", "free", "PUT", "/health", "", "",
			answer{405, "Allow: GET, HEAD", `{"error":{"code":"invalid"`, ""}},
		{"no such path", "free", "POST", "/mcp/ru/search/more", "", "",
			answer{404, "", `{"error":{"code":"not_found","message":"no such endpoint: \"POST /mcp/ru/search/more\""}}`, ""}},
		{"mcp", "free", "POST", "/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.detail","arguments":` + tender + `}}`,
			answer{200, "X-Restricted-Fields: contact,customer_org,participants", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{`, `"structuredContent":{`}},
		{"mcp paid plan", "paid", "POST", "/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.detail","arguments":` + tender + `}}`,
			answer{200, "X-Restricted-Fields: customer_org", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{`, `"isError":false}}`}},
		{"mcp no key", "", "POST", "/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
			answer{401, "WWW-Authenticate: Bearer realm=\"tenderbase\"", `{"error":{"code":"unauthorized"`, ""}},
		{"mcp rate limited", "limited", "POST", "/mcp", "application/json", `{"jsonrpc":"2.0","id":"a","method":"ping"}`,
			answer{429, "Retry-After: 42", `{"jsonrpc":"2.0","id":"a","error":{"code":-32029,"message":"rate limit exceeded for this key: retry in 42 s","data":{"retry_after":42}}}`, ""}},
		{"mcp GET", "free", "GET", "/mcp", "", "",
			answer{405, "Allow: POST", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			if tt.key != "" {
				req.Header.Set("Authorization", "Bearer "+tt.key)
			}
			checkAnswer(t, ts.Client(), req, tt.want)
		})
	}
}

// checkAnswer sends req and checks the answer against want.
func checkAnswer(t *testing.T, client *http.Client, req *http.Request, want answer) {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want.status {
		t.Errorf("status %d, want %d; body %s", resp.StatusCode, want.status, body)
	}
	// A header with an empty value must be absent.
	if name, value, ok := strings.Cut(want.header, ": "); ok && resp.Header.Get(name) != value {
		t.Errorf("%s: %q, want %q", name, resp.Header.Get(name), value)
	}
	if !json.Valid(body) {
		t.Errorf("body is not JSON: %s", body)
	}
	if !strings.HasPrefix(string(body), want.bodyPrefix) || !strings.Contains(string(body), want.contains) {
		t.Errorf("body %s\nwant it to start with %s and contain %s", body, want.bodyPrefix, want.contains)
	}
}

// TestMCPToolList checks that MCP lists every tool with object schemas and
// the annotations of a read-only tool.
func TestMCPToolList(t *testing.T) {
	ts := newDemoServer(t)
	req, err := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer free")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Result struct {
			Tools []struct {
				Name, Title, Description string
				InputSchema              struct{ Type string }
				OutputSchema             json.RawMessage
				Annotations              map[string]bool
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if n, want := len(list.Result.Tools), len(tools.New(nil, nil).List()); n != want || n < 25 {
		t.Errorf("%d tools, want every one of the %d", n, want)
	}
	// Every tool reads, but the two that change an account's
	// subscriptions: a client may ask before it calls them.
	// A tool that reads says so alone: destructiveHint and idempotentHint
	// mean something only when readOnlyHint is false.
	readOnly := map[string]bool{"readOnlyHint": true, "openWorldHint": false}
	writes := map[string]map[string]bool{
		"subscriptions.create": {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false},
		"subscriptions.delete": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true, "openWorldHint": false},
	}
	for _, tool := range list.Result.Tools {
		// No output schema: they came to 77,000 characters a model would
		// read before its first call; /openapi.json has them.
		if tool.Title == "" || tool.Description == "" || tool.InputSchema.Type != "object" || tool.OutputSchema != nil {
			t.Errorf("%s: %+v", tool.Name, tool)
		}
		want, ok := writes[tool.Name]
		if !ok {
			want = readOnly
		}
		if diff := cmp.Diff(want, tool.Annotations); diff != "" {
			t.Errorf("%s annotations (-want +got):\n%s", tool.Name, diff)
		}
	}
}

// demoStore returns a new SQLite store holding the demo dataset.
func demoStore(tb testing.TB) *sqlite.Store {
	tb.Helper()
	store, err := sqlite.Open(tb.Context(), tb.TempDir()+"/demo.db", nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	putDemo(tb, store)
	return store
}

// putDemo stores the demo dataset in store.
func putDemo(tb testing.TB, store tenderbase.Store) {
	tb.Helper()
	recs, err := demo.Records()
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := store.Put(tb.Context(), recs); err != nil {
		tb.Fatal(err)
	}
}
