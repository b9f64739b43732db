package httpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/metrics"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// outageStore is a store an outage test can cut off and bring back.
type outageStore interface {
	tenderbase.Store
	tenderbase.KeyStore
	tenderbase.Readier
}

// TestStoreOutage cuts the store off under a running server and checks
// every interface: the debug endpoints, MCP, the export in XML and JSON,
// with a key and without, and the feed answer 503 unavailable with
// Retry-After; /health and /metrics stay 200 and /ready turns 503; the log
// has one line when the outage begins and one when it ends, with the count
// of the 503s, and no error; and the server serves again by itself once the
// store is back. On PostgreSQL the store reaches the database through a
// TCP proxy that the test cuts; on SQLite, whose outages are a full disk or
// a failing one, through a store whose calls fail with SQLite's code of a
// full disk while it is cut.
func TestStoreOutage(t *testing.T) {
	t.Run("postgres", func(t *testing.T) {
		through, proxy := pgtest.ProxiedURL(t)
		// Two connections: the cut breaks both, and the first requests
		// after it find that out, so that none is left broken for later.
		store, err := postgres.Open(t.Context(), through+"&pool_max_conns=2", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		testOutage(t, store, proxy.Cut, func() {
			if err := proxy.Restore(); err != nil {
				t.Fatal(err)
			}
		})
	})
	t.Run("sqlite", func(t *testing.T) {
		real, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "store.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { real.Close() })
		store := &fullStore{Store: real}
		testOutage(t, store, func() { store.full.Store(true) }, func() { store.full.Store(false) })
	})
}

// testOutage runs TestStoreOutage on store, which cut cuts off and restore
// brings back.
func testOutage(t *testing.T, store outageStore, cut, restore func()) {
	_, secret, err := store.CreateKey(t.Context(), tenderbase.Key{Name: "outage", Plan: tenderbase.PlanStandard})
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedLog{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	srv := httpserver.New(httpserver.Config{
		Keys: store, Tools: tools.New(store, logger), Metrics: metrics.New(metrics.Build{Version: "test"}),
		Ready: []httpserver.ReadyCheck{{Name: "store", Check: store.Ready}},
	}, store, logger)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	calls := outageCalls(ts.URL, secret)
	for _, c := range calls {
		if got := c.do(t, ts.Client()); got.status != 200 {
			t.Fatalf("%s before the outage: %d %s", c.name, got.status, got.body)
		}
	}
	cut()
	refused := 0
	for _, c := range calls {
		got := c.do(t, ts.Client())
		if c.always {
			if got.status != 200 {
				t.Errorf("%s during the outage: %d %s, want 200", c.name, got.status, got.body)
			}
			continue
		}
		refused++
		if got.status != 503 || got.retryAfter != "5" || !c.unavailable.MatchString(got.body) {
			t.Errorf("%s during the outage: %d, Retry-After %q, %s; want 503, Retry-After 5 and a body matching %s",
				c.name, got.status, got.retryAfter, got.body, c.unavailable)
		}
		if strings.Contains(got.body, "127.0.0.1") || strings.Contains(got.body, "SQLITE") {
			t.Errorf("%s: the answer names the store's internals: %s", c.name, got.body)
		}
	}
	waitReady(t, ts, 503, map[string]string{"store": "failing"})
	restore()
	refused += waitServed(t, ts.Client(), calls[0])
	for _, c := range calls {
		if got := c.do(t, ts.Client()); got.status != 200 {
			t.Errorf("%s after the outage: %d %s", c.name, got.status, got.body)
		}
	}
	waitReady(t, ts, 200, map[string]string{"store": "ok"})
	ended := waitLog(t, ts, logs, `"msg":"store available again"`)
	if n := strings.Count(logs.String(), `"msg":"store unavailable"`); n != 1 {
		t.Errorf("the outage's beginning is logged %d times, want once:\n%s", n, logs)
	}
	if !strings.Contains(ended, `"answered_503":`+itoa(refused)) || !strings.Contains(ended, `"lasted":`) {
		t.Errorf("the outage's end %s does not say that %d requests were answered 503, and how long it lasted", ended, refused)
	}
	if strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Errorf("the outage is logged as an error:\n%s", logs)
	}
}

// outageCall is a request of the outage test.
type outageCall struct {
	name string
	req  func() *http.Request
	// always is set for the requests that need no store, answered 200
	// whatever it does.
	always bool
	// unavailable matches the body of the answer while the store is out.
	unavailable *regexp.Regexp
}

// outageCalls are requests of every interface to the server at base, with
// the key secret.
func outageCalls(base, secret string) []outageCall {
	jsonErr := regexp.MustCompile(`^\{"error":\{"code":"unavailable","message":"the store cannot be reached or cannot write at the moment: retry in 5 s"\}\}\n$`)
	xmlErr := regexp.MustCompile(`<error code="unavailable">the store cannot be reached or cannot write at the moment: retry in 5 s</error>`)
	rpcErr := regexp.MustCompile(`^\{"jsonrpc":"2.0","id":7,"error":\{"code":-32053,"message":"the store cannot be reached or cannot write at the moment: retry in 5 s","data":\{"retry_after":5\}\}\}\n$`)
	get := func(path string) func() *http.Request {
		return func() *http.Request {
			r, _ := http.NewRequest(http.MethodGet, base+path, nil)
			return r
		}
	}
	post := func(path, body string) func() *http.Request {
		return func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
			r.Header.Set("Authorization", "Bearer "+secret)
			r.Header.Set("Content-Type", "application/json")
			return r
		}
	}
	return []outageCall{
		{"debug endpoint", post("/mcp/ru/search", `{"query":"бумага"}`), false, jsonErr},
		{"MCP tools/call", post("/mcp", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"бумага"}}}`), false, rpcErr},
		{"export XML with a key", get("/api2.3/export?mode=fasEIS&api_code=" + secret), false, xmlErr},
		{"export JSON without a key", get("/api2.3/export?mode=fasEIS&dtype=json"), false, jsonErr},
		{"feed", get("/api2.3/feed?resource=ru&api_code=" + secret), false, jsonErr},
		{"health", get("/health"), true, nil},
		{"metrics", get("/metrics"), true, nil},
	}
}

// outageAnswer is what came back.
type outageAnswer struct {
	status     int
	retryAfter string
	body       string
}

func (c outageCall) do(t *testing.T, client *http.Client) outageAnswer {
	t.Helper()
	resp, err := client.Do(c.req())
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return outageAnswer{resp.StatusCode, resp.Header.Get("Retry-After"), string(body)}
}

// waitServed sends c until it is answered 200, for ten seconds at most,
// and returns how many times it was answered 503 meanwhile.
func waitServed(t *testing.T, client *http.Client, c outageCall) int {
	t.Helper()
	refused := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got := c.do(t, client)
		switch got.status {
		case 200:
			return refused
		case 503:
			refused++
		default:
			t.Fatalf("%s once the store is back: %d %s", c.name, got.status, got.body)
		}
	}
	t.Fatalf("%s is not served again once the store is back", c.name)
	return 0
}

// waitLog asks /health, which starts the probes of the store while an
// outage lasts, until the log has a line holding text, for ten seconds at
// most, and returns the line.
func waitLog(t *testing.T, ts *httptest.Server, logs *lockedLog, text string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, line := range strings.Split(logs.String(), "\n") {
			if strings.Contains(line, text) {
				return line
			}
		}
		get(t, ts, "/health")
	}
	t.Fatalf("no line with %s in the log:\n%s", text, logs)
	return ""
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// fullStore is a SQLite store whose reads and writes fail, while full is
// set, with the error of a disk that is full, classified as the store
// classifies it (internal/sqlite's TestPutWhenFull makes a real one).
type fullStore struct {
	*sqlite.Store
	full atomic.Bool
}

// errDiskFull is what a full disk makes of a statement of the SQLite store.
var errDiskFull = tenderbase.Unavailable(errors.New("put: database or disk is full (13)"))

func (s *fullStore) check() error {
	if s.full.Load() {
		return errDiskFull
	}
	return nil
}

func (s *fullStore) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return s.Store.Get(ctx, k, key)
}

func (s *fullStore) Search(ctx context.Context, q tenderbase.Search) (tenderbase.Page, error) {
	if err := s.check(); err != nil {
		return tenderbase.Page{}, err
	}
	return s.Store.Search(ctx, q)
}

func (s *fullStore) Changes(ctx context.Context, q tenderbase.FeedQuery) (tenderbase.FeedPage, error) {
	if err := s.check(); err != nil {
		return tenderbase.FeedPage{}, err
	}
	return s.Store.Changes(ctx, q)
}

func (s *fullStore) Authenticate(ctx context.Context, secret string) (tenderbase.Key, error) {
	if err := s.check(); err != nil {
		return tenderbase.Key{}, err
	}
	return s.Store.Authenticate(ctx, secret)
}

func (s *fullStore) Ready(ctx context.Context) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.Store.Ready(ctx)
}
