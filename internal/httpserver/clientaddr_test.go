package httpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/ratelimit"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

func TestClientAddress(t *testing.T) {
	proxies := Anonymous{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	realIP := proxies
	realIP.ClientIPHeader = "X-Real-IP"
	tests := []struct {
		name    string
		a       Anonymous
		remote  string
		headers map[string]string
		want    string
	}{
		{"the peer", Anonymous{}, "192.0.2.7:5555", nil, "192.0.2.7"},
		{"a header from an untrusted peer is ignored", proxies, "192.0.2.7:5555",
			map[string]string{"X-Forwarded-For": "203.0.113.5"}, "192.0.2.7"},
		{"the trusted proxy's header", proxies, "10.1.2.3:5555",
			map[string]string{"X-Forwarded-For": "203.0.113.5"}, "203.0.113.5"},
		{"the rightmost address not of a trusted proxy", proxies, "10.1.2.3:5555",
			map[string]string{"X-Forwarded-For": "198.51.100.1, 203.0.113.5, 10.0.0.2"}, "203.0.113.5"},
		{"a header of trusted proxies alone names the peer", proxies, "10.1.2.3:5555",
			map[string]string{"X-Forwarded-For": "10.0.0.9"}, "10.1.2.3"},
		{"a header that does not parse names the peer", proxies, "10.1.2.3:5555",
			map[string]string{"X-Forwarded-For": "203.0.113.5, unknown"}, "10.1.2.3"},
		{"a header of one address", realIP, "10.1.2.3:5555",
			map[string]string{"X-Real-IP": "203.0.113.9", "X-Forwarded-For": "198.51.100.1"}, "203.0.113.9"},
		{"IPv6 by its /64", Anonymous{}, "[2001:db8:1:2:3:4:5:6]:5555", nil, "2001:db8:1:2::/64"},
		{"IPv4 mapped in IPv6", Anonymous{}, "[::ffff:192.0.2.7]:5555", nil, "192.0.2.7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api2.3/export", nil)
			r.RemoteAddr = tt.remote
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			if got := tt.a.clientAddress(r); got != tt.want {
				t.Errorf("clientAddress = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestAnonymousExportLimit checks that callers without a key are limited
// per client address, each address on its own, and never more generously
// than a free key.
func TestAnonymousExportLimit(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	store, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "store.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	h := New(Config{
		Limiter:   ratelimit.New(func() time.Time { return now }),
		Anonymous: Anonymous{RatePerMinute: 2, Burst: 2},
		Keys:      freeKeyStore{},
	}, store, nil).Handler()
	export := func(remote, key string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/api2.3/export?mode=fas&dtype=json&api_code="+key, nil)
		r.RemoteAddr = remote
		return record(h, r)
	}
	for i := range 2 {
		if w := export("192.0.2.1:1000", ""); w.Code != 200 {
			t.Fatalf("anonymous request %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	w := export("192.0.2.1:1001", "")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "30" {
		t.Fatalf("past the anonymous burst: %d, Retry-After %q; want 429 and 30", w.Code, w.Header().Get("Retry-After"))
	}
	if want := "rate limit of callers without a key from 192.0.2.1 exceeded (2 requests a minute, 2 at once)"; !strings.Contains(w.Body.String(), want) {
		t.Errorf("body %s, want it to say %q", w.Body, want)
	}
	if w := export("192.0.2.2:1000", ""); w.Code != 200 {
		t.Errorf("another address: %d, want 200", w.Code)
	}
	if w := export("192.0.2.1:1002", "secret-free"); w.Code != 200 {
		t.Errorf("a free key from the limited address: %d, want 200: a key is counted by itself", w.Code)
	}

	generous, _ := newTestServer(Config{Anonymous: Anonymous{RatePerMinute: 1000, Burst: 500}})
	free := tenderbase.Plans[tenderbase.PlanFree]
	if l := generous.anonymousLimits; l.RatePerMinute != free.RatePerMinute || l.Burst != free.Burst {
		t.Errorf("anonymous limits %+v configured above the free plan, want the free plan's %d/min, %d at once", l, free.RatePerMinute, free.Burst)
	}
}

// freeKeyStore opens the secret "secret-free" as a free key.
type freeKeyStore struct{ tenderbase.KeyStore }

func (freeKeyStore) Authenticate(_ context.Context, secret string) (tenderbase.Key, error) {
	if secret == "secret-free" {
		return tenderbase.Key{ID: "k_free", Plan: tenderbase.PlanFree, Status: tenderbase.KeyActive}, nil
	}
	return tenderbase.Key{}, tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "unknown key")
}

func TestRequestID(t *testing.T) {
	s, _ := newTestServer(Config{})
	h := s.Handler()
	tests := []struct {
		name, sent string
		kept       bool
	}{
		{"none", "", false},
		{"a usable id is echoed", "req-42.a:b_c", true},
		{"with a space", "two words", false},
		{"too long", strings.Repeat("a", 65), false},
		{"not ASCII", "запрос", false},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/no/such", nil)
			if tt.sent != "" {
				r.Header.Set("X-Request-Id", tt.sent)
			}
			got := record(h, r).Header().Get("X-Request-Id")
			switch {
			case tt.kept && got != tt.sent:
				t.Errorf("X-Request-Id %q, want the client's %q", got, tt.sent)
			case !tt.kept && (got == "" || got == tt.sent || seen[got]):
				t.Errorf("X-Request-Id %q for %q, want a new id", got, tt.sent)
			}
			seen[got] = true
		})
	}
}
