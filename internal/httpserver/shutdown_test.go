package httpserver_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
)

// slowStore answers Search, which an export page without a key calls,
// with an empty page after delay, or when the request's context ends if
// that comes first; with ignoreCancel it waits out the delay whatever the
// context says. started receives a value when a Search begins.
type slowStore struct {
	tenderbase.Store
	delay        time.Duration
	ignoreCancel bool
	started      chan struct{}
}

func (s slowStore) Search(ctx context.Context, q tenderbase.Search) (tenderbase.Page, error) {
	s.started <- struct{}{}
	if s.ignoreCancel {
		time.Sleep(s.delay)
		return tenderbase.Page{}, nil
	}
	select {
	case <-time.After(s.delay):
		return tenderbase.Page{}, nil
	case <-ctx.Done():
		return tenderbase.Page{}, ctx.Err()
	}
}

// lockedLog is a log that the server and the test may use at once.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// serving is a server run by Serve in a test.
type serving struct {
	addr   string
	stop   context.CancelFunc
	served chan error
	logs   *lockedLog
}

// serve runs Serve over store with the grace period grace.
func serve(t *testing.T, store tenderbase.Store, grace time.Duration) serving {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	t.Cleanup(stop)
	logs := &lockedLog{}
	srv := httpserver.New(httpserver.Config{ShutdownTimeout: grace}, store, slog.New(slog.NewJSONHandler(logs, nil)))
	s := serving{addr: ln.Addr().String(), stop: stop, served: make(chan error, 1), logs: logs}
	go func() { s.served <- srv.Serve(ctx, ln) }()
	return s
}

// getSlow asks an export page without a key, which searches the store,
// and delivers its status, or 0 when the request failed.
func getSlow(addr string) <-chan int {
	status := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/api2.3/export?mode=fasEIS&dtype=json")
		if err != nil {
			status <- 0
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		status <- resp.StatusCode
	}()
	return status
}

// stopped stops s and returns Serve's error and how long Serve took to
// return after the stop.
func (s serving) stopped(t *testing.T) (error, time.Duration) {
	t.Helper()
	start := time.Now()
	s.stop()
	select {
	case err := <-s.served:
		return err, time.Since(start)
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return")
		return nil, 0
	}
}

// TestServeCutsRequestsAtTheEndOfTheGracePeriod stops a server while a
// request waits on the store for a minute: the grace period runs out, the
// request's context is cancelled, and Serve returns at once after, without
// an error, having logged that it cut one request.
func TestServeCutsRequestsAtTheEndOfTheGracePeriod(t *testing.T) {
	const grace = 500 * time.Millisecond
	store := slowStore{delay: time.Minute, started: make(chan struct{}, 1)}
	s := serve(t, store, grace)
	status := getSlow(s.addr)
	<-store.started

	err, took := s.stopped(t)

	if err != nil {
		t.Errorf("Serve = %v, want nil: the request returned once cancelled", err)
	}
	if took < grace || took > grace+time.Second {
		t.Errorf("Serve returned %v after the stop, want the grace period %v and a little", took, grace)
	}
	if got := <-status; got == http.StatusOK {
		t.Errorf("the cut request was answered %d", got)
	}
	if !strings.Contains(s.logs.String(), `"msg":"grace period over: requests cancelled","requests":1`) {
		t.Errorf("the log does not say one request was cut:\n%s", s.logs)
	}
}

// TestServeAnswersWithinTheGracePeriod stops a server while a request that
// takes 300 ms runs and another client holds a connection on which it sent
// half a request: the request is answered, the half-open connection keeps
// the drain going past the grace period, and Serve still returns nil, since
// no request was cut.
func TestServeAnswersWithinTheGracePeriod(t *testing.T) {
	const grace = time.Second
	store := slowStore{delay: 300 * time.Millisecond, started: make(chan struct{}, 1)}
	s := serve(t, store, grace)
	half, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := half.Write([]byte("GET /health HTTP/1.1\r\nHost: x\r\n")); err != nil {
		t.Fatal(err)
	}
	status := getSlow(s.addr)
	<-store.started

	err, took := s.stopped(t)

	if got := <-status; got != http.StatusOK {
		t.Errorf("the request in flight was answered %d, want 200", got)
	}
	if err != nil {
		t.Errorf("Serve = %v, want nil: every request finished", err)
	}
	if took > grace+time.Second {
		t.Errorf("Serve returned %v after the stop, want the grace period %v and a little", took, grace)
	}
	if strings.Contains(s.logs.String(), "requests cancelled") {
		t.Errorf("the log says requests were cut:\n%s", s.logs)
	}
}

// TestServeGivesUpOnRequestsThatIgnoreCancellation stops a server while a
// request runs that does not look at its context: Serve returns an error
// once the requests it cancelled had a little time to return, rather than
// waiting for it.
func TestServeGivesUpOnRequestsThatIgnoreCancellation(t *testing.T) {
	const grace = 300 * time.Millisecond
	store := slowStore{delay: 10 * time.Second, ignoreCancel: true, started: make(chan struct{}, 1)}
	s := serve(t, store, grace)
	getSlow(s.addr)
	<-store.started

	err, took := s.stopped(t)

	if err == nil || !strings.Contains(err.Error(), "1 of the cancelled requests still running") {
		t.Errorf("Serve = %v, want an error saying a request is still running", err)
	}
	if took > grace+3*time.Second {
		t.Errorf("Serve returned %v after the stop, want the grace period %v and a little", took, grace)
	}
}
