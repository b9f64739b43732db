package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// quick is a config for tests: no waiting worth the name, and a timeout
// that only a hang reaches, however busy the machine.
var quick = Config{Rate: 1000, Burst: 1000, Concurrency: 4, Timeout: time.Minute, Attempts: 4,
	MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, BreakAfter: 3, BreakFor: time.Hour}

// script serves the answers in order, one a request, the last again and
// again, and counts the requests.
func script(t *testing.T, answers ...http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		answers[min(i, len(answers)-1)](w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func status(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

func ok(body string) http.HandlerFunc { return status(http.StatusOK, body) }

// cut announces more bytes than it sends, then drops the connection.
func cut(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Length", "1000")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, "PK\x03\x04 only the start")
	conn, _, _ := w.(http.Hijacker).Hijack()
	conn.Close()
}

func TestFetchRetries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answers  []http.HandlerFunc
		notReady []int
		want     string // body, or a part of the error
		requests int32
	}{
		{"first time", []http.HandlerFunc{ok("a")}, nil, "a", 1},
		{"after 5xx", []http.HandlerFunc{status(503, "busy"), status(502, ""), ok("b")}, nil, "b", 3},
		{"after 425 and 429", []http.HandlerFunc{status(425, ""), status(429, ""), ok("c")}, nil, "c", 3},
		{"404 while not ready", []http.HandlerFunc{status(404, ""), ok("e")}, []int{404}, "e", 2},
		{"404 is final elsewhere", []http.HandlerFunc{status(404, "no such page")}, nil, "answered 404 Not Found: no such page", 1},
		{"400 is final", []http.HandlerFunc{status(400, "bad date")}, nil, "answered 400 Bad Request: bad date", 1},
		{"5xx every time", []http.HandlerFunc{status(500, "down")}, nil, "after 4 attempts", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, n := script(t, tc.answers...)
			c := New("test", quick, nil, nil)
			body, err := c.Fetch(context.Background(), Request{URL: srv.URL + "/x?token=secret", NotReady: tc.notReady})
			got := string(body)
			if err != nil {
				got = err.Error()
				if strings.Contains(got, "secret") {
					t.Errorf("error %q shows the query", got)
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if n.Load() != tc.requests {
				t.Errorf("%d requests, want %d", n.Load(), tc.requests)
			}
		})
	}
}

// TestRetryAfterIsObeyed checks the wait the retry is told, which it
// sleeps, rather than timing the sleep: a Retry-After of a second, capped
// at MaxBackoff, in place of the backoff of about a millisecond.
// TestFetchRetriesAfterATimeout checks that an attempt the server never
// answers is cut at the timeout and retried. The first answer waits until
// the client gives up; the later ones answer at once, and one that a busy
// machine makes slower than the short timeout is retried too.
func TestFetchRetriesAfterATimeout(t *testing.T) {
	gaveUp := make(chan struct{})
	srv, n := script(t, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		close(gaveUp)
	}, ok("d"))
	cfg := quick
	cfg.Timeout = 100 * time.Millisecond
	body, err := New("test", cfg, nil, nil).Fetch(context.Background(), Request{URL: srv.URL})
	if err != nil || string(body) != "d" {
		t.Fatalf("got %q, %v; want the answer of the retry", body, err)
	}
	if n.Load() < 2 {
		t.Errorf("%d requests, want the first retried", n.Load())
	}
	select {
	case <-gaveUp: // the client gave up the first request, which ended it
	case <-time.After(time.Minute):
		t.Error("the first request was not cut: a hang")
	}
}

func TestRetryAfterIsObeyed(t *testing.T) {
	srv, _ := script(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
	}, ok("x"))
	cfg := quick
	cfg.MaxBackoff = 50 * time.Millisecond // caps the wait asked for
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	if _, err := New("test", cfg, nil, logger).Fetch(context.Background(), Request{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	for line := range strings.Lines(logs.String()) {
		var entry struct {
			Msg  string
			Wait time.Duration
		}
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("a log line is not JSON: %v\n%s", err, line)
		}
		if entry.Msg == "retrying" {
			waits = append(waits, entry.Wait)
		}
	}
	if diff := cmp.Diff([]time.Duration{50 * time.Millisecond}, waits); diff != "" {
		t.Errorf("the waits before the retries (-want +got), want the 50ms cap of the 1s asked for:\n%s\n%s", diff, logs.String())
	}
}

func TestBreakerOpensAndFailsFast(t *testing.T) {
	srv, n := script(t, status(500, ""))
	cfg := quick
	cfg.Attempts = 1
	c := New("test", cfg, nil, nil)
	for range 3 {
		c.Fetch(context.Background(), Request{URL: srv.URL})
	}
	_, err := c.Fetch(context.Background(), Request{URL: srv.URL})
	if !errors.Is(err, ErrBroken) {
		t.Fatalf("fourth request: %v, want ErrBroken", err)
	}
	if n.Load() != 3 {
		t.Errorf("%d requests reached the server, want 3", n.Load())
	}
}

func TestFinalRefusalsDoNotOpenTheBreaker(t *testing.T) {
	srv, _ := script(t, status(400, ""))
	cfg := quick
	c := New("test", cfg, nil, nil)
	for range 5 {
		c.Fetch(context.Background(), Request{URL: srv.URL})
	}
	if _, err := c.Fetch(context.Background(), Request{URL: srv.URL}); errors.Is(err, ErrBroken) {
		t.Fatal("refusals of a request opened the breaker")
	}
}

func TestDownload(t *testing.T) {
	var checks atomic.Int32
	check := func(r io.ReaderAt, size int64) error {
		checks.Add(1)
		if size < 4 {
			return errors.New("not an archive")
		}
		return nil
	}
	srv, n := script(t, cut, status(200, "PK"), func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename*=UTF-8''%D0%B0%D1%80%D1%85%D0%B8%D0%B2.zip`)
		io.WriteString(w, "PK\x03\x04whole")
	})
	dir := t.TempDir()
	path, name, err := New("test", quick, nil, nil).Download(context.Background(), Request{URL: srv.URL, Check: check}, dir)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "PK\x03\x04whole" || name != "архив.zip" {
		t.Errorf("downloaded %q named %q", got, name)
	}
	if n.Load() != 3 || checks.Load() != 2 {
		t.Errorf("%d requests and %d checks, want 3 and 2 (the cut one fails before the check)", n.Load(), checks.Load())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files left in the folder, want 1", len(entries))
	}
}

func TestDownloadFailureLeavesNothing(t *testing.T) {
	srv, _ := script(t, cut)
	dir := t.TempDir()
	_, _, err := New("test", quick, nil, nil).Download(context.Background(), Request{URL: srv.URL}, dir)
	if err == nil || !strings.Contains(err.Error(), "cut") {
		t.Fatalf("error %v, want a cut download", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left behind", len(entries))
	}
}

func TestConcurrencyPerHost(t *testing.T) {
	var inFlight, most atomic.Int32
	srv, _ := script(t, func(w http.ResponseWriter, _ *http.Request) {
		now := inFlight.Add(1)
		for {
			m := most.Load()
			if now <= m || most.CompareAndSwap(m, now) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		inFlight.Add(-1)
	})
	cfg := quick
	cfg.Concurrency = 2
	c := New("test", cfg, nil, nil)
	done := make(chan struct{})
	for range 6 {
		go func() { c.Fetch(context.Background(), Request{URL: srv.URL}); done <- struct{}{} }()
	}
	for range 6 {
		<-done
	}
	if most.Load() > 2 {
		t.Errorf("%d requests at once, want at most 2", most.Load())
	}
}

// A response past Config.MaxBytes is refused once, naming the setting that
// bounds it, whether read into memory or written to a file.
func TestMaxBytesNamesTheSetting(t *testing.T) {
	srv, n := script(t, ok(strings.Repeat("x", 2000)))
	cfg := quick
	cfg.MaxBytes, cfg.MaxBytesSetting = 1000, "--max-download-bytes"
	c := New("test", cfg, nil, nil)
	_, err := c.Fetch(context.Background(), Request{URL: srv.URL})
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes (--max-download-bytes)") {
		t.Errorf("fetch of 2000 bytes: %v, want the bound and its setting named", err)
	}
	_, _, err = c.Download(context.Background(), Request{URL: srv.URL}, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "more than the 1000 taken (--max-download-bytes)") {
		t.Errorf("download of 2000 bytes: %v, want the bound and its setting named", err)
	}
	if n.Load() != 2 {
		t.Errorf("%d requests, want 2: a response too large is not asked for again", n.Load())
	}
}
