package httpserver_test

import (
	"context"
	"net"
	"net/http"
	"testing"

	"github.com/tenderbase/tenderbase/internal/httpserver"
)

// TestServeStarting answers on an address while the service starts, then
// hands the same listener to the server proper: no moment in which the
// address is free or its connections wait unanswered.
func TestServeStarting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	stop := httpserver.ServeStarting(ln, nil)

	for _, c := range []struct {
		path, status, retry string
		code                int
	}{
		{"/health", "starting", "", 200},
		{"/ready", "starting", "5", 503},
	} {
		resp, body := getJSON(t, http.DefaultClient, base+c.path)
		code, retry := resp.StatusCode, resp.Header.Get("Retry-After")
		if code != c.code || body["status"] != c.status || retry != c.retry {
			t.Errorf("GET %s while starting: %d %v Retry-After %q; want %d, status %s, Retry-After %q", c.path, code, body, retry, c.code, c.status, c.retry)
		}
	}
	resp, body := getJSON(t, http.DefaultClient, base+"/api2.3/export?mode=fas")
	if e, _ := body["error"].(map[string]any); resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "5" || e["code"] != "unavailable" {
		t.Errorf("the export while starting: %d %v Retry-After %q; want 503 unavailable and Retry-After 5", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}

	stop()
	stop() // twice is harmless: serve stops it on every path out
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- httpserver.New(httpserver.Config{}, stubStore{}, nil).Serve(ctx, ln) }()
	if resp, body := getJSON(t, http.DefaultClient, base+"/health"); resp.StatusCode != 200 || body["status"] != "ok" {
		t.Errorf("GET /health once served: %d %v, want 200 ok", resp.StatusCode, body)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
