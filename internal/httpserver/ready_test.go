package httpserver_test

import (
	"cmp"
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/tcpproxy"
)

// TestReadyFollowsTheStoreAndRedis checks that GET /ready turns not ready
// when what it checks goes away, and ready again when it comes back: the
// SQLite file moved away and back, and PostgreSQL and Redis behind a TCP
// proxy that is cut and restored. /health stays the liveness probe and
// never asks Redis.
func TestReadyFollowsTheStoreAndRedis(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "store.db")
		store, err := sqlite.Open(t.Context(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		ts := readyServer(t, store, httpserver.ReadyCheck{Name: "store", Check: store.Ready})
		waitReady(t, ts, 200, map[string]string{"store": "ok"})
		if err := os.Rename(path, path+".away"); err != nil {
			t.Fatal(err)
		}
		waitReady(t, ts, 503, map[string]string{"store": "failing"})
		if err := os.Rename(path+".away", path); err != nil {
			t.Fatal(err)
		}
		waitReady(t, ts, 200, map[string]string{"store": "ok"})
	})
	t.Run("postgres", func(t *testing.T) {
		through, proxy := pgtest.ProxiedURL(t)
		store, err := postgres.Open(t.Context(), through, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		ts := readyServer(t, store, httpserver.ReadyCheck{Name: "store", Check: store.Ready})
		waitReady(t, ts, 200, map[string]string{"store": "ok"})
		proxy.Cut()
		waitReady(t, ts, 503, map[string]string{"store": "failing"})
		mustRestore(t, proxy)
		waitReady(t, ts, 200, map[string]string{"store": "ok"})
	})
	t.Run("redis", func(t *testing.T) {
		addr := cmp.Or(os.Getenv("TENDERBASE_TEST_REDIS"), "127.0.0.1:6379")
		if c, err := net.DialTimeout("tcp", addr, time.Second); err != nil {
			if os.Getenv("TENDERBASE_REQUIRE_REDIS") == "1" {
				t.Fatalf("no Redis on %s: %v", addr, err)
			}
			t.Skipf("no Redis on %s (name one in TENDERBASE_TEST_REDIS): %v", addr, err)
		} else {
			c.Close()
		}
		proxy, err := tcpproxy.Start(addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(proxy.Cut)
		client := goredis.NewClient(&goredis.Options{Addr: proxy.Addr(), DialTimeout: 300 * time.Millisecond,
			ContextTimeoutEnabled: true, MaxRetries: -1})
		t.Cleanup(func() { client.Close() })
		ping := func(ctx context.Context) error { return client.Ping(ctx).Err() }
		ts := readyServer(t, openSQLite(t), httpserver.ReadyCheck{Name: "redis", Check: ping})
		waitReady(t, ts, 200, map[string]string{"redis": "ok"})
		proxy.Cut()
		waitReady(t, ts, 503, map[string]string{"redis": "failing"})
		if status, _ := get(t, ts, "/health"); status != 200 {
			t.Errorf("/health with Redis away: %d, want 200", status)
		}
		mustRestore(t, proxy)
		waitReady(t, ts, 200, map[string]string{"redis": "ok"})
	})
}

func readyServer(t *testing.T, store tenderbase.Store, checks ...httpserver.ReadyCheck) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(httpserver.New(httpserver.Config{Ready: checks}, store, nil).Handler())
	t.Cleanup(ts.Close)
	return ts
}

// waitReady asks GET /ready until it answers status with checks, for up to
// a minute, past which it calls it a hang: a pool finds out that its
// connections broke at their next use, and may need one more probe to make
// new ones, and a busy machine may fail a probe by its timeout.
func waitReady(t *testing.T, ts *httptest.Server, status int, checks map[string]string) {
	t.Helper()
	var gotStatus int
	var body map[string]any
	for deadline := time.Now().Add(hang); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		gotStatus, body = get(t, ts, "/ready")
		if gotStatus == status && sameChecks(body, checks) {
			return
		}
	}
	t.Fatalf("GET /ready: %d %v, want %d with checks %v", gotStatus, body, status, checks)
}

func sameChecks(body map[string]any, want map[string]string) bool {
	got, _ := body["checks"].(map[string]any)
	for name, v := range want {
		if got[name] != v {
			return false
		}
	}
	return true
}

// mustRestore lets the connections through proxy again.
func mustRestore(t *testing.T, proxy *tcpproxy.Proxy) {
	t.Helper()
	if err := proxy.Restore(); err != nil {
		t.Fatal(err)
	}
}
