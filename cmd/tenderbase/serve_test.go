package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
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

func waitExit(t *testing.T, exited <-chan int) int {
	t.Helper()
	select {
	case code := <-exited:
		return code
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
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

// TestServeStopsOnSIGTERM runs the built binary, as a service manager would,
// and stops it with SIGTERM.
func TestServeStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tenderbase")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "test.db"))
	stdout := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, &syncBuffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "listening on") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("serve ended with %v after SIGTERM, want a clean exit; stderr:\n%s", err, cmd.Stderr)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
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
