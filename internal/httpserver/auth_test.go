package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// testKeys is a key store holding an active, a suspended and a revoked key,
// with their secrets.
type testKeys struct {
	store                    *sqlite.Store
	active                   tenderbase.Key
	good, suspended, revoked string
}

func newTestKeys(t *testing.T) testKeys {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "keys.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	tk := testKeys{store: store}
	create := func(status string) (tenderbase.Key, string) {
		k, secret, err := store.CreateKey(ctx, tenderbase.Key{Name: status, Plan: tenderbase.PlanGuru})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.SetKeyStatus(ctx, k.ID, status); err != nil {
			t.Fatal(err)
		}
		return k, secret
	}
	tk.active, tk.good = create(tenderbase.KeyActive)
	_, tk.suspended = create(tenderbase.KeySuspended)
	_, tk.revoked = create(tenderbase.KeyRevoked)
	return tk
}

// newTestServer returns a server with cfg and a buffer of its logs.
func newTestServer(cfg Config) (*Server, *bytes.Buffer) {
	var logs bytes.Buffer
	return New(cfg, nil, slog.New(slog.NewJSONHandler(&logs, nil))), &logs
}

// echoKey answers with the id of the key in the request's context.
var echoKey = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	k, ok := tenderbase.KeyFromContext(r.Context())
	if !ok {
		http.Error(w, "no key in context", http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"key": k.ID})
})

// answer is what a test request got.
type answer struct {
	Status    int
	Challenge string
	Body      map[string]any
}

func serve(t *testing.T, h http.Handler, r *http.Request) answer {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	a := answer{Status: w.Code, Challenge: w.Header().Get("WWW-Authenticate")}
	if err := json.Unmarshal(w.Body.Bytes(), &a.Body); err != nil {
		t.Fatalf("body is not JSON: %q", w.Body)
	}
	return a
}

func request(target string, authorization ...string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, target, nil)
	for _, a := range authorization {
		r.Header.Add("Authorization", a)
	}
	return r
}

func refusal(challenge, message string) answer {
	return answer{Status: http.StatusUnauthorized, Challenge: challenge,
		Body: map[string]any{"error": map[string]any{"code": "unauthorized", "message": message}}}
}

func TestRequireKey(t *testing.T) {
	keys := newTestKeys(t)
	s, _ := newTestServer(Config{Keys: keys.store})
	h := s.requireKey(echoKey)

	const (
		plain   = `Bearer realm="tenderbase"`
		invalid = `Bearer realm="tenderbase", error="invalid_token"`
		send    = "; send the header Authorization: Bearer <key>"
		refused = "unknown, revoked or suspended API key"
	)
	ok := answer{Status: 200, Body: map[string]any{"key": keys.active.ID}}
	tests := []struct {
		name string
		r    *http.Request
		want answer
	}{
		{"bearer", request("/mcp", "Bearer "+keys.good), ok},
		{"scheme in any case", request("/mcp", "bEARER "+keys.good), ok},
		{"spaces around", request("/mcp", "  Bearer   "+keys.good+"  "), ok},
		{"no header", request("/mcp"), refusal(plain, "no Authorization header"+send)},
		{"empty header", request("/mcp", ""), refusal(plain, "no Authorization header"+send)},
		{"two headers", request("/mcp", "Bearer "+keys.good, "Bearer "+keys.good),
			refusal(plain, "more than one Authorization header"+send)},
		{"basic", request("/mcp", "Basic dXNlcjpwYXNz"), refusal(plain, "the Authorization header is not a Bearer token"+send)},
		{"bare key", request("/mcp", keys.good), refusal(plain, "the Authorization header is not a Bearer token"+send)},
		{"no token", request("/mcp", "Bearer"), refusal(plain, "the Authorization header has no token after Bearer"+send)},
		{"unknown", request("/mcp", "Bearer tb_nothing"), refusal(invalid, refused)},
		{"suspended", request("/mcp", "Bearer "+keys.suspended), refusal(invalid, refused)},
		{"revoked", request("/mcp", "Bearer "+keys.revoked), refusal(invalid, refused)},
		{"two words", request("/mcp", "Bearer "+keys.good+" extra"), refusal(invalid, "malformed Bearer token")},
		{"too long", request("/mcp", "Bearer "+strings.Repeat("x", 300)), refusal(invalid, "malformed Bearer token")},
		{"in the query", request("/mcp?access_token=" + keys.good),
			refusal(plain, "keys are not accepted in the query string"+send)},
		{"api_code in the query", request("/mcp?api_code=" + keys.good),
			refusal(plain, "keys are not accepted in the query string"+send)},
		{"header and query", request("/mcp?api_key=whatever", "Bearer "+keys.good), ok},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, serve(t, h, tt.r)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// failingKeys is a key store that cannot be read.
type failingKeys struct{ tenderbase.KeyStore }

func (failingKeys) Authenticate(ctx context.Context, secret string) (tenderbase.Key, error) {
	return tenderbase.Key{}, errors.New("disk I/O error")
}

func TestRequireKeyWhenTheStoreFails(t *testing.T) {
	tests := map[string]Config{
		"store fails": {Keys: failingKeys{}},
		"no store":    {},
	}
	for name, cfg := range tests {
		t.Run(name, func(t *testing.T) {
			s, logs := newTestServer(cfg)
			got := serve(t, s.requireKey(echoKey), request("/mcp", "Bearer tb_x"))
			want := answer{Status: 500,
				Body: map[string]any{"error": map[string]any{"code": "internal", "message": "internal error"}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !strings.Contains(logs.String(), "authenticate") {
				t.Errorf("the failure is not logged:\n%s", logs)
			}
		})
	}
}

func TestKeyFromParam(t *testing.T) {
	keys := newTestKeys(t)
	s, _ := newTestServer(Config{Keys: keys.store})
	r := request("/api2.3/export")

	k, ok, err := s.keyFromParam(r, "")
	if err != nil || ok || k != (tenderbase.Key{}) {
		t.Errorf("no api_code: %+v %v %v, want no key and no error", k, ok, err)
	}
	k, ok, err = s.keyFromParam(r, keys.good)
	if err != nil || !ok || k.ID != keys.active.ID {
		t.Errorf("good api_code: %+v %v %v", k, ok, err)
	}
	for _, secret := range []string{"tb_nothing", keys.revoked, keys.suspended} {
		if _, ok, err := s.keyFromParam(r, secret); ok || tenderbase.ErrorCode(err) != tenderbase.EUNAUTHORIZED {
			t.Errorf("bad api_code: %v %v, want unauthorized", ok, err)
		}
	}
}

func TestLogsHoldNoSecret(t *testing.T) {
	keys := newTestKeys(t)
	s, logs := newTestServer(Config{Keys: keys.store})
	h := observe(s.logger, nil)(s.requireKey(echoKey))
	for _, secret := range []string{keys.good, keys.revoked} {
		serve(t, h, request("/mcp", "Bearer "+secret))
		serve(t, h, request("/mcp?access_token="+secret))
		if strings.Contains(logs.String(), secret) {
			t.Fatalf("a secret is in the log:\n%s", logs)
		}
	}
}
