package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestProbe asks a server that is alive but not ready: the probe of
// /health succeeds and that of /ready fails, each saying what it asked.
func TestProbe(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/health" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"probe", "--addr", addr}, exitOK, ts.URL + "/health: 200 OK"},
		{[]string{"probe", "--addr", addr, "--ready"}, exitFailure, ts.URL + "/ready: 503 Service Unavailable"},
		{[]string{"probe", "--addr", "no-port"}, exitUsage, ""},
	} {
		r := runCLI(t, map[string]string{"TENDERBASE_ADDR": "127.0.0.1:1"}, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout, tc.out) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d with %q", tc.args, r.code, r.stdout, r.stderr, tc.code, tc.out)
		}
	}
	// Without --addr the probe asks where serve listens.
	if r := runCLI(t, map[string]string{"TENDERBASE_ADDR": addr}, "probe"); r.code != exitOK {
		t.Errorf("probe with TENDERBASE_ADDR=%s: exit %d, %s", addr, r.code, r.stderr)
	}
}

func TestProbeURL(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:8080":   "http://127.0.0.1:8080/health",
		":8080":          "http://127.0.0.1:8080/health",
		"[::]:8080":      "http://[::1]:8080/health",
		"10.0.0.5:9000":  "http://10.0.0.5:9000/health",
		"localhost:8080": "http://localhost:8080/health",
	} {
		if got, err := probeURL(addr, false); err != nil || got != want {
			t.Errorf("probeURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
}
