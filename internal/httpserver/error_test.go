package httpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

func TestErrorResponses(t *testing.T) {
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		err    error
		status int
		body   string
		logged bool // as an error
		ctx    context.Context
	}{
		{"invalid", tenderbase.Errorf(tenderbase.EINVALID, "bad query at 3"), 400,
			`{"error":{"code":"invalid","message":"bad query at 3"}}`, false, nil},
		{"wrapped", fmt.Errorf("search: %w", tenderbase.Errorf(tenderbase.ENOTFOUND, "no tender")), 404,
			`{"error":{"code":"not_found","message":"no tender"}}`, false, nil},
		{"unauthorized", tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "unknown key"), 401,
			`{"error":{"code":"unauthorized","message":"unknown key"}}`, false, nil},
		{"forbidden", tenderbase.Errorf(tenderbase.EFORBIDDEN, "paid plans only"), 403,
			`{"error":{"code":"forbidden","message":"paid plans only"}}`, false, nil},
		{"rate limited", tenderbase.Errorf(tenderbase.ERATELIMITED, "slow down"), 429,
			`{"error":{"code":"rate_limited","message":"slow down"}}`, false, nil},
		{"internal", errors.New("sql: connection refused at 10.0.0.5"), 500,
			`{"error":{"code":"internal","message":"internal error"}}`, true, nil},
		{"internal code", tenderbase.Errorf(tenderbase.EINTERNAL, "disk path /var/x"), 500,
			`{"error":{"code":"internal","message":"internal error"}}`, true, nil},
		{"body too large", fmt.Errorf("read body: %w", &http.MaxBytesError{Limit: 10}), 413,
			`{"error":{"code":"invalid","message":"request body is larger than 10 bytes"}}`, false, nil},
		{"timeout", fmt.Errorf("search: %w", tenderbase.Errorf(tenderbase.ETIMEOUT, "took too long")), 503,
			`{"error":{"code":"timeout","message":"took too long"}}`, false, nil},
		{"unavailable", fmt.Errorf("search: %w", tenderbase.Unavailable(errors.New("dial tcp 10.0.0.5:5432: connection refused"))), 503,
			`{"error":{"code":"unavailable","message":"the store cannot be reached or cannot write at the moment: retry in 5 s"}}`, false, nil},
		// Nobody reads this answer; what matters is that nothing is logged
		// as an error.
		{"client gone", errors.New("sqlite: interrupted (9)"), 500,
			`{"error":{"code":"internal","message":"internal error"}}`, false, gone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			s := New(Config{}, nil, slog.New(slog.NewTextHandler(&logs, nil)))
			h := s.handle(func(http.ResponseWriter, *http.Request) error { return tt.err })
			w := httptest.NewRecorder()

			r := httptest.NewRequest("GET", "/x", nil)
			if tt.ctx != nil {
				r = r.WithContext(tt.ctx)
			}
			h.ServeHTTP(w, r)

			if w.Code != tt.status {
				t.Errorf("status %d, want %d", w.Code, tt.status)
			}
			if retry := w.Header().Get("Retry-After"); (retry == "5") != (tt.name == "unavailable") {
				t.Errorf("Retry-After %q", retry)
			}
			if got := strings.TrimSpace(w.Body.String()); got != tt.body {
				t.Errorf("body %s, want %s", got, tt.body)
			}
			if logged := strings.Contains(logs.String(), "level=ERROR"); logged != tt.logged {
				t.Errorf("logged %v, want %v:\n%s", logged, tt.logged, logs.String())
			}
		})
	}
}

func TestRecoverPanics(t *testing.T) {
	var logs bytes.Buffer
	h := recoverPanics(slog.New(slog.NewTextHandler(&logs, nil)))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("index out of range")
	}))
	w := httptest.NewRecorder()

	h.ServeHTTP(w, httptest.NewRequest("GET", "/x", nil))

	if w.Code != 500 || !strings.Contains(w.Body.String(), `"code":"internal"`) {
		t.Errorf("got %d %s, want a 500 JSON error", w.Code, w.Body)
	}
	if !strings.Contains(logs.String(), "index out of range") {
		t.Errorf("panic not logged:\n%s", logs.String())
	}
}

func TestLimitBody(t *testing.T) {
	s := New(Config{MaxBodyBytes: 10}, nil, nil)
	h := limitBody(s.cfg.MaxBodyBytes)(s.handle(func(w http.ResponseWriter, r *http.Request) error {
		if _, err := io.ReadAll(r.Body); err != nil {
			return fmt.Errorf("read body: %w", err)
		}
		return nil
	}))
	w := httptest.NewRecorder()

	h.ServeHTTP(w, httptest.NewRequest("POST", "/x", strings.NewReader(strings.Repeat("x", 11))))

	if w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", w.Code)
	}
}
