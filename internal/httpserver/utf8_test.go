package httpserver_test

import (
	"strings"
	"testing"
)

// TestInvalidUTF8 sends a query that is not valid UTF-8 through each
// interface: each says so, naming where, rather than searching for
// something else (the JSON decoder turns the bytes into U+FFFD).
func TestInvalidUTF8(t *testing.T) {
	ts := newDemoServer(t)
	tests := []struct {
		name, method, path, body string
		status                   int
		message                  string
	}{
		{"mcp", "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"школа ` + "\xff" + `"}}}`,
			200, `"error":{"code":-32602,"message":"argument \"query\" is not valid UTF-8 text"}`},
		{"mcp, the byte alone", "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"` + "\xff" + `"}}}`,
			200, `"error":{"code":-32602,"message":"argument \"query\" is not valid UTF-8 text"}`},
		{"debug endpoint", "POST", "/mcp/ru/search", `{"query":"школа ` + "\xff" + `"}`,
			400, `{"error":{"code":"invalid","message":"argument \"query\" is not valid UTF-8 text"}}`},
		{"debug endpoint, an id", "POST", "/mcp/ru/detail", `{"id":"` + "\xc3" + `"}`,
			400, `{"error":{"code":"invalid","message":"argument \"id\" is not valid UTF-8 text"}}`},
		{"export", "GET", "/api2.3/export?dtype=json&mode=fas&kwords=%D1%88%FF", "",
			400, `{"error":{"code":"invalid","message":"parameter kwords is not valid UTF-8 text"}}`},
		{"export, an id", "GET", "/api2.3/export?dtype=json&mode=fasEIS&complaintID=%C3", "",
			400, `{"error":{"code":"invalid","message":"parameter complaintID is not valid UTF-8 text"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := send(t, ts, tt.method, tt.path, tt.body, map[string]string{"Authorization": "Bearer paid"})
			if resp.StatusCode != tt.status || !strings.Contains(string(body), tt.message) {
				t.Errorf("status %d, body %.300s\nwant %d and %s", resp.StatusCode, body, tt.status, tt.message)
			}
		})
	}
}
