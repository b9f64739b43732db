package httpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// stubStore answers Get with err, or with "not found" when err is nil, as an
// empty store would.
type stubStore struct {
	tenderbase.Store // the other methods are not used; calling one panics
	err              error
}

func (s stubStore) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	if s.err != nil {
		return nil, s.err
	}
	return nil, tenderbase.Errorf(tenderbase.ENOTFOUND, "no %s with key %q", k, key)
}

func newServer(t *testing.T, store tenderbase.Store) (*httptest.Server, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	srv := httpserver.New(httpserver.Config{}, store, slog.New(slog.NewJSONHandler(&logs, nil)))
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts, &logs
}

// get requests path and returns the status and the body decoded as JSON.
func get(t *testing.T, ts *httptest.Server, path string) (int, map[string]any) {
	t.Helper()
	resp, body := getJSON(t, ts.Client(), ts.URL+path)
	return resp.StatusCode, body
}

// getJSON requests url and returns the response, its body read and
// closed, and the body decoded as JSON.
func getJSON(t *testing.T, c *http.Client, url string) (*http.Response, map[string]any) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("GET %s: Content-Type %q", url, ct)
	}
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("GET %s: body is not JSON: %v", url, err)
	}
	return resp, body
}

func errorBody(code, message string) map[string]any {
	return map[string]any{"error": map[string]any{"code": code, "message": message}}
}

func TestRoutes(t *testing.T) {
	ts, _ := newServer(t, stubStore{})
	tests := []struct {
		path   string
		status int
		body   map[string]any
	}{
		{"/health", 200, map[string]any{"status": "ok"}},
		{"/nope", 404, errorBody("not_found", `no such endpoint: "GET /nope"`)},
		{"/.well-known/oauth-protected-resource", 404,
			errorBody("not_found", `no such endpoint: "GET /.well-known/oauth-protected-resource"`)},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			status, body := get(t, ts, tt.path)
			if status != tt.status {
				t.Errorf("status %d, want %d", status, tt.status)
			}
			if diff := cmp.Diff(tt.body, body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchSyntax(t *testing.T) {
	ts, _ := newServer(t, stubStore{})
	resp, err := ts.Client().Get(ts.URL + "/search/syntax")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		query.Description
		Corrections string `json:"corrections"`
		Expansion   string `json:"expansion"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Errorf("status %d, want 200", resp.StatusCode)
	}
	if diff := cmp.Diff(query.Describe(), got.Description); diff != "" {
		t.Errorf("description (-want +got):\n%s", diff)
	}
	if got.Corrections != tools.CorrectionHelp {
		t.Errorf("corrections %q, want %q", got.Corrections, tools.CorrectionHelp)
	}
	if got.Expansion != tools.ExpansionHelp {
		t.Errorf("expansion %q, want %q", got.Expansion, tools.ExpansionHelp)
	}
}

func TestRequestLog(t *testing.T) {
	ts, logs := newServer(t, stubStore{})
	req, _ := http.NewRequest("GET", ts.URL+"/health?api_code=secret-key", nil)
	req.Header.Set("Authorization", "Bearer secret-token")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	var entry map[string]any
	if err := json.Unmarshal(logs.Bytes(), &entry); err != nil {
		t.Fatalf("log is not one JSON entry: %v\n%s", err, logs)
	}
	for key, want := range map[string]any{"msg": "request", "method": "GET", "path": "/health", "status": 200.0} {
		if entry[key] != want {
			t.Errorf("log %s = %v, want %v", key, entry[key], want)
		}
	}
	if ms, ok := entry["duration_ms"].(float64); !ok || ms < 0 {
		t.Errorf("log has no duration in ms: %v", entry["duration_ms"])
	}
	if id, _ := entry["request_id"].(string); id == "" || id != resp.Header.Get("X-Request-Id") {
		t.Errorf("log request_id %q, answer's X-Request-Id %q: want the same id", id, resp.Header.Get("X-Request-Id"))
	}
	if strings.Contains(logs.String(), "secret") {
		t.Errorf("log shows a secret:\n%s", logs)
	}
}

func TestServeShutsDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	srv := httpserver.New(httpserver.Config{ShutdownTimeout: time.Second}, stubStore{}, nil)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/health")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	cancel()

	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve = %v, want nil after shutdown", err)
		}
	case <-time.After(hang):
		t.Fatal("Serve did not return after its context was cancelled: a hang")
	}
}

// TestSearchSyntaxFilters checks that /search/syntax lists the filters and
// orders of the search tools, with the tools that take each.
func TestSearchSyntaxFilters(t *testing.T) {
	srv := httpserver.New(httpserver.Config{Tools: tools.New(stubStore{}, nil)}, stubStore{}, nil)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	var got struct {
		Filters []tools.FilterDoc
		Sorts   []tools.SortDoc
	}
	resp, err := ts.Client().Get(ts.URL + "/search/syntax")
	if err != nil || resp.StatusCode != 200 {
		t.Fatal(resp, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	byName := map[string]tools.FilterDoc{}
	for _, f := range got.Filters {
		byName[f.Name] = f
	}
	if f := byName["price_min"]; f.Alias != "price1" || !slices.Contains(f.Tools, "ru.search") || slices.Contains(f.Tools, "docs.search") || f.Meaning == "" {
		t.Errorf("price_min: %+v", f)
	}
	if f := byName["cpv"]; !cmp.Equal(f.Tools, []string{"world.search"}) {
		t.Errorf("cpv: %+v", f)
	}
	if f := byName["ikz"]; !cmp.Equal(f.Tools, []string{"plans.search"}) || f.Meaning == "" {
		t.Errorf("ikz: %+v", f)
	}
	if len(got.Sorts) != 6 || got.Sorts[0].Name != "newest" || len(got.Sorts[0].Tools) != 7 {
		t.Errorf("sorts: %+v", got.Sorts)
	}
}
