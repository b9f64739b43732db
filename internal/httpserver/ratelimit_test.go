package httpserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/ratelimit"
)

// ok answers 200 with an empty JSON object.
var ok = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{})
})

// withKey returns a request to the debug endpoint made with key k.
func withKey(k tenderbase.Key) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/mcp/ru/search", nil)
	return r.WithContext(tenderbase.NewContextWithKey(r.Context(), k))
}

func TestLimitRate(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, _ := newTestServer(Config{Limiter: ratelimit.New(func() time.Time { return now })})
	h := s.limitRate(ok)
	// One request every 3 s, two at once.
	k := tenderbase.Key{ID: "k_1", Plan: tenderbase.PlanStandard,
		Overrides: tenderbase.Limits{RatePerMinute: 20, Burst: 2}}

	for i := range 2 {
		if w := record(h, withKey(k)); w.Code != 200 {
			t.Fatalf("request %d of the burst: %d", i+1, w.Code)
		}
	}
	w := record(h, withKey(k))
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "3" {
		t.Fatalf("past the burst: %d, Retry-After %q; want 429 and 3", w.Code, w.Header().Get("Retry-After"))
	}
	want := `{"error":{"code":"rate_limited","message":"rate limit of key k_1 exceeded (20 requests a minute, 2 at once): retry in 3 s"}}` + "\n"
	if diff := cmp.Diff(want, w.Body.String()); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}

	now = now.Add(3 * time.Second)
	if w := record(h, withKey(k)); w.Code != 200 {
		t.Errorf("after Retry-After: %d", w.Code)
	}
}

func record(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// brokenLimiter cannot decide.
type brokenLimiter struct{}

func (brokenLimiter) Allow(ctx context.Context, k tenderbase.Key) (time.Duration, error) {
	return 0, errors.New("redis: connection refused")
}

func TestLimitRateLetsThrough(t *testing.T) {
	key := tenderbase.Key{ID: "k_1", Plan: tenderbase.PlanFree}
	noKey := httptest.NewRequest(http.MethodPost, "/mcp/ru/search", nil)
	tests := map[string]struct {
		limiter tenderbase.RateLimiter
		r       *http.Request
		log     string
	}{
		// The limiter logs its own outage, once; a line a request would
		// flood the log while it lasts.
		"limiter fails": {brokenLimiter{}, withKey(key), ""},
		"no limiter":    {nil, withKey(key), ""},
		"no key":        {brokenLimiter{}, noKey, ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			s, logs := newTestServer(Config{Limiter: tt.limiter})
			if w := record(s.limitRate(ok), tt.r); w.Code != 200 {
				t.Errorf("status %d, want 200", w.Code)
			}
			if logs.String() != tt.log {
				t.Errorf("log:\n%s\nwant:\n%s", logs, tt.log)
			}
		})
	}
}

func TestRetrySeconds(t *testing.T) {
	tests := map[time.Duration]int{
		time.Nanosecond:         1,
		500 * time.Millisecond:  1,
		time.Second:             1,
		1001 * time.Millisecond: 2,
		90 * time.Second:        90,
	}
	for wait, want := range tests {
		if got := retrySeconds(wait); got != want {
			t.Errorf("retrySeconds(%v) = %d, want %d", wait, got, want)
		}
	}
}

// TestKeyThenLimit chains the middleware as the routes do: the limiter
// sees the key requireKey found.
func TestKeyThenLimit(t *testing.T) {
	keys := newTestKeys(t)
	s, _ := newTestServer(Config{Keys: keys.store, Limiter: ratelimit.New(nil)})
	h := s.requireKey(s.limitRate(ok))
	burst := tenderbase.Plans[tenderbase.PlanGuru].Burst
	for range burst {
		if w := record(h, request("/mcp/ru/search", "Bearer "+keys.good)); w.Code != 200 {
			t.Fatalf("within the burst: %d %s", w.Code, w.Body)
		}
	}
	if w := record(h, request("/mcp/ru/search", "Bearer "+keys.good)); w.Code != http.StatusTooManyRequests {
		t.Errorf("past the guru burst of %d: %d", burst, w.Code)
	}
}
