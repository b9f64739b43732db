package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode, body
}

// hang is how long a test waits for serve to start or stop before it
// calls it a hang: far longer than either takes on a busy machine, and
// never a measure of serve.
const hang = time.Minute

func waitExit(t *testing.T, exited <-chan int) int {
	t.Helper()
	select {
	case code := <-exited:
		return code
	case <-time.After(hang):
		t.Fatal("serve did not stop: a hang")
		return -1
	}
}

func TestServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "test.db")
	addr, _, cancel, exited := startServe(t, "--db", db)
	defer cancel()

	status, health := getJSON(t, "http://"+addr+"/health")
	if status != 200 || health["status"] != "ok" {
		t.Errorf("GET /health: %d %v", status, health)
	}
	status, syntax := getJSON(t, "http://"+addr+"/search/syntax")
	if status != 200 || syntax["operators"] == nil {
		t.Errorf("GET /search/syntax: %d %v", status, syntax)
	}
	status, _ = getJSON(t, "http://"+addr+"/.well-known/oauth-authorization-server")
	if status != 404 {
		t.Errorf("GET /.well-known/...: %d, want 404", status)
	}

	cancel()
	if code := waitExit(t, exited); code != 0 {
		t.Errorf("exit %d after shutdown, want 0", code)
	}
}

// TestServeBusyPort starts serve --demo on an address already taken: it
// fails before the demo is loaded and its keys are printed.
func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := runCLI(t, nil, "serve", "--demo", "--addr", ln.Addr().String())
	if got.code != 1 || !strings.Contains(got.stderr, "listen on "+ln.Addr().String()) {
		t.Errorf("exit %d, stderr %q; want 1 and the address", got.code, got.stderr)
	}
	if strings.Contains(got.stdout, "demo key") || strings.Contains(got.stderr, "demo dataset loaded") {
		t.Errorf("the demo was loaded before the address was found taken:\n%s\n%s", got.stdout, got.stderr)
	}
}

// TestServeWithoutKeys serves a store that has no key: it says how to make
// one, and serves.
func TestServeWithoutKeys(t *testing.T) {
	db := filepath.Join(t.TempDir(), "test.db")
	addr, stdout, cancel, exited := startServe(t, "--db", db)
	defer cancel()
	if !strings.Contains(stdout.String(), "no active API key in this store") ||
		!strings.Contains(stdout.String(), "tenderbase keys create --plan standard --name NAME --db "+db) {
		t.Errorf("no word on how to create a key:\n%s", stdout)
	}
	if status, _ := getJSON(t, "http://"+addr+"/ready"); status != 200 {
		t.Errorf("GET /ready: %d", status)
	}
	cancel()
	waitExit(t, exited)
}

func TestServeDemo(t *testing.T) {
	addr, stdout, cancel, exited := startServe(t, "--demo")
	defer cancel()
	match := regexp.MustCompile(`\(store (.+)\)`).FindStringSubmatch(stdout.String())
	if match == nil {
		t.Fatalf("serve does not name its store:\n%s", stdout)
	}
	demoDB := match[1]

	if status, _ := getJSON(t, "http://"+addr+"/health"); status != 200 {
		t.Errorf("GET /health: %d", status)
	}
	cancel()

	if code := waitExit(t, exited); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	if _, err := os.Stat(demoDB); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the temporary demo store %s is still there: %v", demoDB, err)
	}
}

func TestServeDemoIntoExplicitStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	for range 2 { // the second load finds everything already stored
		_, _, cancel, exited := startServe(t, "--demo", "--db", db)
		cancel()
		if code := waitExit(t, exited); code != 0 {
			t.Fatalf("exit %d", code)
		}
	}
	got := runCLI(t, nil, "search", "--db", db, "ru")
	if got.code != 0 || strings.HasPrefix(got.stdout, "0 found") {
		t.Errorf("the explicit store lacks the demo data after serve --demo:\n%s%s", got.stdout, got.stderr)
	}
}

// buildBinary builds the command into dir and returns its path. The tests
// that run it stand where a service manager would.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(dir, "tenderbase")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startBinary runs bin serve with args on a free port until it says where
// it listens, and returns the process, its address and its stderr.
func startBinary(t *testing.T, bin string, args ...string) (cmd *exec.Cmd, addr string, stderr *syncBuffer) {
	t.Helper()
	cmd = exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stdout := &syncBuffer{}
	stderr = &syncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.Now().Add(hang)
	for time.Now().Before(deadline) {
		if _, rest, ok := strings.Cut(stdout.String(), "listening on http://"); ok {
			addr, _, _ = strings.Cut(rest, " ")
			return cmd, addr, stderr
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("serve did not say where it listens:\n%s\n%s", stdout, stderr)
	return nil, "", nil
}

// TestServeStopsOnSIGTERM runs the built binary, as a service manager would,
// and stops it with SIGTERM.
func TestServeStopsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	cmd, _, _ := startBinary(t, bin, "--db", filepath.Join(dir, "test.db"))

	if err := terminate(t, cmd); err != nil {
		t.Errorf("serve ended with %v after SIGTERM, want a clean exit; stderr:\n%s", err, cmd.Stderr)
	}
}

// terminate stops the binary with SIGTERM, as a service manager would, and
// returns how it ended.
func terminate(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		return err
	case <-time.After(hang):
		t.Fatal("serve did not stop on SIGTERM: a hang")
		return nil
	}
}

func TestServeAllowedOrigins(t *testing.T) {
	var stdout, stderr bytes.Buffer
	env := map[string]string{"TENDERBASE_ALLOWED_ORIGINS": "https://env.example"}
	c := &cli{stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }}
	cfg, _, ok := c.parseServe(nil)
	if !ok || !slices.Equal(cfg.HTTP.AllowedOrigins, []string{"https://env.example"}) {
		t.Errorf("from the environment: %v (ok %v)", cfg.HTTP.AllowedOrigins, ok)
	}
	cfg, _, ok = c.parseServe([]string{"--allowed-origins", " https://a.example, b.example ,"})
	if !ok || !slices.Equal(cfg.HTTP.AllowedOrigins, []string{"https://a.example", "b.example"}) {
		t.Errorf("from the flag: %v (ok %v)", cfg.HTTP.AllowedOrigins, ok)
	}
}

// TestServeRequestTimeout checks how serve reads the request deadline:
// --request-timeout over TENDERBASE_REQUEST_TIMEOUT over the default, and a
// value that is no positive duration is a usage error.
func TestServeRequestTimeout(t *testing.T) {
	tests := []struct {
		env  string
		args []string
		want time.Duration
		code int
	}{
		{"", nil, 20 * time.Second, exitOK},
		{"5s", nil, 5 * time.Second, exitOK},
		{"5s", []string{"--request-timeout", "1m30s"}, 90 * time.Second, exitOK},
		{"", []string{"--request-timeout", "soon"}, 0, exitUsage},
		{"", []string{"--request-timeout", "0s"}, 0, exitUsage},
		{"-1s", nil, 0, exitUsage},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		env := map[string]string{"TENDERBASE_REQUEST_TIMEOUT": tt.env}
		c := &cli{stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return env[k] }}
		cfg, code, ok := c.parseServe(tt.args)
		if code != tt.code || ok != (tt.code == exitOK) {
			t.Errorf("env %q, args %v: exit %d (%v), want %d; %s", tt.env, tt.args, code, ok, tt.code, stderr.String())
			continue
		}
		if ok && cfg.HTTP.RequestTimeout != tt.want {
			t.Errorf("env %q, args %v: request timeout %v, want %v", tt.env, tt.args, cfg.HTTP.RequestTimeout, tt.want)
		}
	}
}

// TestServeRedisOutageLog serves with a Redis that never answers and sends
// a few requests: the log stays JSON, one line a record, and says once that
// the rate limiter is unavailable, rather than once a request.
func TestServeRedisOutageLog(t *testing.T) {
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	db := filepath.Join(dir, "test.db")
	created := runCLI(t, nil, "keys", "create", "--db", db, "--plan", "free", "--name", "outage")
	if created.code != 0 {
		t.Fatalf("keys create: %d\n%s", created.code, created.stderr)
	}
	secret, _, _ := strings.Cut(created.stdout, "\n")
	// Nothing listens on port 1 of the loopback: every connection is refused.
	cmd, addr, stderr := startBinary(t, bin, "--db", db, "--redis", "redis://127.0.0.1:1/0")

	for range 5 {
		req, _ := http.NewRequest("POST", "http://"+addr+"/mcp/ru/search", strings.NewReader(`{"query":"школа"}`))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("status %d, want 200: requests pass while the limiter is away", resp.StatusCode)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	messages := map[string]int{}
	for line := range strings.Lines(stderr.String()) {
		var entry struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("a log line is not JSON: %q", line)
			continue
		}
		if entry.Level == "WARN" || entry.Level == "ERROR" {
			messages[entry.Msg]++
		}
	}
	want := map[string]int{
		"redis does not answer; requests pass without rate limits until it does": 1,
		"rate limiter unavailable": 1,
	}
	if diff := cmp.Diff(want, messages); diff != "" {
		t.Errorf("warnings and errors logged, by message (-want +got):\n%s\n%s", diff, stderr)
	}
}

// slowSearches is a store whose searches wait until their request is
// cancelled, and which remembers being closed. Each search sends its
// context on started.
type slowSearches struct {
	tenderbase.Store
	started chan context.Context
	closed  atomic.Bool
}

func (s *slowSearches) Search(ctx context.Context, q tenderbase.Search) (tenderbase.Page, error) {
	s.started <- ctx
	<-ctx.Done()
	return tenderbase.Page{}, ctx.Err()
}

func (s *slowSearches) Close() error {
	s.closed.Store(true)
	return s.Store.Close()
}

// TestServeCutsSlowRequests stops serve while an export waits on the store
// for as long as its request lives: the request runs on through the grace
// period; when the grace period ends, which the test chooses through the
// server's timers, serve cancels it, closes the store and exits 0.
func TestServeCutsSlowRequests(t *testing.T) {
	sqliteStore, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "test.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	store := &slowSearches{Store: sqliteStore, started: make(chan context.Context, 1)}
	const grace = time.Second
	timers := make(chan time.Duration, 4) // the durations of the timers the shutdown starts
	fire := make(chan time.Time, 1)       // fires the first of them, the grace period
	after := func(d time.Duration) <-chan time.Time { timers <- d; return fire }
	cfg := serveConfig{Addr: "127.0.0.1:0", HTTP: httpserver.Config{ShutdownTimeout: grace, After: after}}
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	c := &cli{stdout: stdout, stderr: stderr, getenv: func(string) string { return "" }}
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	exited := make(chan int, 1)
	go func() { exited <- c.serve(ctx, cfg, store, storeConfig{LogLevel: slog.LevelInfo}.newLogger(stderr)) }()
	deadline := time.Now().Add(hang)
	for !strings.Contains(stdout.String(), "listening on") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	_, rest, _ := strings.Cut(stdout.String(), "listening on ")
	url, _, _ := strings.Cut(rest, " ")
	go func() {
		if resp, err := http.Get(url + "/api2.3/export?mode=fas"); err == nil {
			resp.Body.Close()
		}
	}()
	request := <-store.started

	stop()
	select {
	case d := <-timers:
		if d != grace {
			t.Errorf("the shutdown's first timer is for %v, want the grace period %v", d, grace)
		}
	case <-time.After(hang):
		t.Fatal("the shutdown started no timer: a hang")
	}
	if err := request.Err(); err != nil {
		t.Fatalf("the request was cancelled before the grace period ended: %v", err)
	}
	select {
	case code := <-exited:
		t.Fatalf("serve exited %d before the grace period ended, with a request running", code)
	default:
	}
	fire <- time.Now()
	code := waitExit(t, exited)

	if request.Err() == nil {
		t.Error("serve exited with the request not cancelled")
	}
	if code != exitOK {
		t.Errorf("exit %d, want 0: the request was cut and returned; stderr:\n%s", code, stderr)
	}
	if !store.closed.Load() {
		t.Error("the store was not closed")
	}
	if !strings.Contains(stderr.String(), `"msg":"grace period over: requests cancelled","requests":1`) {
		t.Errorf("the log does not say one request was cut:\n%s", stderr)
	}
}

// TestServeShutdownTimeout runs the binary with a grace period of a second
// and a client that sent half a request: SIGTERM stops it, with status 0,
// since no request was running, and the shutdown it logs gives the grace
// period the flag says. How the grace period is kept is the server's, and
// its tests' (internal/httpserver, TestServeCutsSlowRequests).
func TestServeShutdownTimeout(t *testing.T) {
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	cmd, addr, stderr := startBinary(t, bin, "--db", filepath.Join(dir, "test.db"), "--shutdown-timeout", "1s")
	half, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := half.Write([]byte("GET /health HTTP/1.1\r\nHost: x\r\n")); err != nil {
		t.Fatal(err)
	}

	if err := terminate(t, cmd); err != nil {
		t.Errorf("serve ended with %v, want status 0; stderr:\n%s", err, stderr)
	}
	if !strings.Contains(stderr.String(), `"msg":"shutting down","requests":0,"grace":"1s"`) {
		t.Errorf("the log does not say the shutdown gives the grace period of 1s:\n%s", stderr)
	}
}
