package httpserver_test

import (
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// send sends a request with the given headers to ts and returns the
// response and its body.
func send(t *testing.T, ts *httptest.Server, method, path, body string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range header {
		req.Header.Set(name, value)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, got
}

// TestErrorsDoNotEchoHugeValues sends a value of 900 KB, in every place a
// caller's value can come back in an error, through each interface, and
// checks that the error stays small.
func TestErrorsDoNotEchoHugeValues(t *testing.T) {
	ts := newDemoServer(t)
	huge := strings.Repeat("7", 900<<10)
	word := strings.Repeat("x", 900<<10)
	rpc := func(method, params string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	}
	call := func(args string) string { return rpc("tools/call", `{"name":"ru.detail","arguments":`+args+`}`) }
	tests := []struct {
		name, method, path, body string
		header                   map[string]string
	}{
		{"export id", "GET", "/api2.3/export?mode=fas&id=1" + word, "", nil},
		{"export mode", "GET", "/api2.3/export?mode=" + word, "", nil},
		{"export dtype", "GET", "/api2.3/export?mode=fas&dtype=" + word, "", nil},
		{"export parameter name", "GET", "/api2.3/export?mode=fas&" + word + "=1", "", nil},
		{"export tend_num", "GET", "/api2.3/export?mode=fasEIS&tend_num=" + word, "", nil},
		{"export INN", "GET", "/api2.3/export?mode=fasEIS&fasSupplierInn=" + word, "", nil},
		{"export kwords", "GET", "/api2.3/export?mode=fas&kwords=" + word, "", nil},
		{"export page", "GET", "/api2.3/export?mode=fas&page=" + word, "", nil},
		{"path", "GET", "/" + word, "", nil},
		{"method", word, "/health", "", nil},
		{"debug path", "POST", "/mcp/ru/" + word, "{}", nil},
		{"debug id", "POST", "/mcp/ru/detail", `{"id":"` + huge + `"}`, nil},
		{"debug argument name", "POST", "/mcp/ru/detail", `{"` + word + `":1}`, nil},
		{"debug digits", "POST", "/mcp/contragent/byInn", `{"inn":` + huge + `}`, nil},
		{"debug filter name", "POST", "/mcp/ru/search", `{"query":"a","filters":{"` + word + `":1}}`, nil},
		{"debug filter value", "POST", "/mcp/ru/search", `{"query":"a","filters":{"r77":"` + word + `"}}`, nil},
		{"debug query", "POST", "/mcp/ru/search", `{"query":"` + word + `"}`, nil},
		{"debug content type", "POST", "/mcp/ru/detail", "{}", map[string]string{"Content-Type": "text/" + word}},
		{"mcp method", "POST", "/mcp", rpc(word, "{}"), nil},
		{"mcp tool", "POST", "/mcp", rpc("tools/call", `{"name":"`+word+`"}`), nil},
		{"mcp id", "POST", "/mcp", `{"jsonrpc":"2.0","id":"` + word + `","method":"nope"}`, nil},
		{"mcp detail id", "POST", "/mcp", call(`{"id":"` + huge + `"}`), nil},
		{"mcp argument name", "POST", "/mcp", call(`{"` + word + `":1}`), nil},
		{"mcp HTTP method", word, "/mcp", "", nil},
		{"mcp origin", "POST", "/mcp", rpc("ping", "{}"), map[string]string{"Origin": "https://" + word}},
		{"mcp content type", "POST", "/mcp", rpc("ping", "{}"), map[string]string{"Content-Type": "text/" + word}},
		{"mcp protocol version", "POST", "/mcp", rpc("ping", "{}"), map[string]string{"MCP-Protocol-Version": word}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := map[string]string{"Authorization": "Bearer paid"}
			maps.Copy(header, tt.header)
			resp, body := send(t, ts, tt.method, tt.path, tt.body, header)
			if resp.StatusCode == http.StatusOK && !strings.Contains(string(body), `"isError":true`) && !strings.Contains(string(body), `"error"`) {
				t.Errorf("status 200 and no error: %.300s", body)
			}
			if len(body) > 2048 {
				t.Errorf("status %d, error of %d bytes: %.300s...", resp.StatusCode, len(body), body)
			}
		})
	}
}
