package httpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCORS checks the answers browsers read: a preflight of every route a
// browser client reaches is answered without a key, with the MCP headers
// allowed, for an allowed origin and localhost, and without CORS headers for
// another origin; an actual answer exposes the headers a client reads.
func TestCORS(t *testing.T) {
	s, _ := newTestServer(Config{AllowedOrigins: []string{"https://app.example.com"}, Keys: freeKeyStore{}})
	h := s.Handler()
	preflight := func(path, origin, method string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodOptions, path, nil)
		r.Header.Set("Origin", origin)
		r.Header.Set("Access-Control-Request-Method", method)
		r.Header.Set("Access-Control-Request-Headers", "authorization,content-type,mcp-protocol-version,mcp-session-id")
		return record(h, r)
	}
	for _, tt := range []struct{ path, method string }{
		{"/mcp", "POST"},
		{"/mcp/ru/search", "POST"},
		{"/api2.3/export", "GET"},
		{"/openapi.json", "GET"},
		{"/search/syntax", "GET"},
	} {
		for _, origin := range []string{"https://app.example.com", "http://localhost:5173"} {
			w := preflight(tt.path, origin, tt.method)
			if w.Code != http.StatusNoContent || w.Header().Get("Access-Control-Allow-Origin") != origin {
				t.Errorf("preflight of %s from %s: %d, Allow-Origin %q; want 204 and the origin", tt.path, origin, w.Code, w.Header().Get("Access-Control-Allow-Origin"))
			}
			allowed := strings.ToLower(w.Header().Get("Access-Control-Allow-Headers"))
			for _, header := range []string{"authorization", "mcp-protocol-version", "mcp-session-id"} {
				if !strings.Contains(allowed, header) {
					t.Errorf("preflight of %s allows headers %q, want %s among them", tt.path, allowed, header)
				}
			}
		}
		w := preflight(tt.path, "https://evil.example.net", tt.method)
		if got := w.Header().Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("preflight of %s from another origin: Allow-Origin %q, want none", tt.path, got)
		}
	}
	if w := preflight("/health", "https://app.example.com", "GET"); w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("/health answers browsers: Allow-Origin %q", w.Header().Get("Access-Control-Allow-Origin"))
	}

	r := httptest.NewRequest(http.MethodPost, "/mcp/ru/search", strings.NewReader(`{}`))
	r.Header.Set("Origin", "https://app.example.com")
	w := record(h, r)
	if w.Code != http.StatusUnauthorized || w.Header().Get("Access-Control-Allow-Origin") != "https://app.example.com" {
		t.Errorf("a call without a key: %d, Allow-Origin %q; want 401 that the page can read", w.Code, w.Header().Get("Access-Control-Allow-Origin"))
	}
	exposed := w.Header().Get("Access-Control-Expose-Headers")
	for _, header := range []string{"Mcp-Session-Id", "X-Total-Count", "X-Request-Id", "Www-Authenticate"} {
		if !strings.Contains(exposed, header) {
			t.Errorf("exposed headers %q, want %s among them", exposed, header)
		}
	}

	r = httptest.NewRequest(http.MethodOptions, "/api2.3/export", nil)
	if w := record(h, r); w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, OPTIONS" {
		t.Errorf("an OPTIONS that is no preflight: %d, Allow %q; want 405 and GET, OPTIONS", w.Code, w.Header().Get("Allow"))
	}
}
