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

// heldStore answers Search, which an export page without a key calls,
// with an empty page when the test releases it, or when the request's
// context ends if that comes first; with ignoreCancel it waits for the
// release whatever the context says. Each Search sends its context on
// started.
type heldStore struct {
	tenderbase.Store
	ignoreCancel bool
	started      chan context.Context
	release      chan struct{}
}

func newHeldStore(t *testing.T, ignoreCancel bool) heldStore {
	s := heldStore{ignoreCancel: ignoreCancel, started: make(chan context.Context, 1), release: make(chan struct{})}
	t.Cleanup(s.free)
	return s
}

func (s heldStore) Search(ctx context.Context, q tenderbase.Search) (tenderbase.Page, error) {
	s.started <- ctx
	if s.ignoreCancel {
		<-s.release
		return tenderbase.Page{}, nil
	}
	select {
	case <-s.release:
		return tenderbase.Page{}, nil
	case <-ctx.Done():
		return tenderbase.Page{}, ctx.Err()
	}
}

// free lets every Search return; calling it again does nothing.
func (s heldStore) free() {
	select {
	case <-s.release:
	default:
		close(s.release)
	}
}

// hang is how long a test waits for what must come before it calls it a
// hang: far longer than anything takes even on a busy machine, and never a
// measure of what the test checks.
const hang = time.Minute

// timers hands a test the timers a shutdown starts, the grace period
// first, for the test to fire when it chooses: the order of events, not
// the clock, is what the test checks.
type timers chan timer

// timer is one timer a shutdown started, for d.
type timer struct {
	d    time.Duration
	fire chan time.Time
}

func (ts timers) after(d time.Duration) <-chan time.Time {
	tm := timer{d: d, fire: make(chan time.Time, 1)}
	ts <- tm
	return tm.fire
}

// next returns the next timer the server starts.
func (ts timers) next(t *testing.T) timer {
	t.Helper()
	select {
	case tm := <-ts:
		return tm
	case <-time.After(hang):
		t.Fatal("the shutdown started no timer: a hang")
		return timer{}
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
	timers timers
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
	s := serving{addr: ln.Addr().String(), stop: stop, served: make(chan error, 1), logs: logs, timers: make(timers, 4)}
	srv := httpserver.New(httpserver.Config{ShutdownTimeout: grace, After: s.timers.after}, store, slog.New(slog.NewJSONHandler(logs, nil)))
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

// returned returns Serve's error once it returns.
func (s serving) returned(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.served:
		return err
	case <-time.After(hang):
		t.Fatal("Serve did not return: a hang")
		return nil
	}
}

// running fails the test if Serve has returned already.
func (s serving) running(t *testing.T, before string) {
	t.Helper()
	select {
	case err := <-s.served:
		t.Fatalf("Serve returned %v before %s", err, before)
	default:
	}
}

// TestServeCutsRequestsAtTheEndOfTheGracePeriod stops a server while a
// request waits on the store for as long as its context lives: the request
// runs on through the grace period; when the grace period ends it is
// cancelled, and Serve returns after it, without an error, having logged
// that it cut one request.
func TestServeCutsRequestsAtTheEndOfTheGracePeriod(t *testing.T) {
	const grace = 500 * time.Millisecond
	store := newHeldStore(t, false)
	s := serve(t, store, grace)
	status := getSlow(s.addr)
	request := <-store.started

	s.stop()
	tm := s.timers.next(t)
	if tm.d != grace {
		t.Errorf("the shutdown's first timer is for %v, want the grace period %v", tm.d, grace)
	}
	if err := request.Err(); err != nil {
		t.Fatalf("the request was cancelled before the grace period ended: %v", err)
	}
	s.running(t, "the grace period ended, with a request running")
	tm.fire <- time.Now()
	err := s.returned(t)

	if request.Err() == nil {
		t.Error("Serve returned with the request not cancelled")
	}
	if err != nil {
		t.Errorf("Serve = %v, want nil: the request returned once cancelled", err)
	}
	if got := <-status; got == http.StatusOK {
		t.Errorf("the cut request was answered %d", got)
	}
	if !strings.Contains(s.logs.String(), `"msg":"grace period over: requests cancelled","requests":1`) {
		t.Errorf("the log does not say one request was cut:\n%s", s.logs)
	}
}

// TestServeAnswersWithinTheGracePeriod stops a server while a request runs
// and another client holds a connection on which it sent half a request:
// the request finishing within the grace period is answered, the half-open
// connection keeps the drain going to the end of the grace period, and
// Serve still returns nil, since no request was cut.
func TestServeAnswersWithinTheGracePeriod(t *testing.T) {
	const grace = time.Second
	store := newHeldStore(t, false)
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

	s.stop()
	tm := s.timers.next(t)
	store.free() // the request finishes within the grace period
	if got := <-status; got != http.StatusOK {
		t.Errorf("the request in flight was answered %d, want 200", got)
	}
	tm.fire <- time.Now()
	err = s.returned(t)

	if err != nil {
		t.Errorf("Serve = %v, want nil: every request finished", err)
	}
	if strings.Contains(s.logs.String(), "requests cancelled") {
		t.Errorf("the log says requests were cut:\n%s", s.logs)
	}
}

// TestServeGivesUpOnRequestsThatIgnoreCancellation stops a server while a
// request runs that does not look at its context: once the grace period
// ends, Serve waits for the request it cancelled only until its second
// timer fires, and then returns an error rather than waiting for it.
func TestServeGivesUpOnRequestsThatIgnoreCancellation(t *testing.T) {
	const grace = 300 * time.Millisecond
	store := newHeldStore(t, true)
	s := serve(t, store, grace)
	getSlow(s.addr)
	<-store.started

	s.stop()
	s.timers.next(t).fire <- time.Now()
	wait := s.timers.next(t)
	s.running(t, "its wait for the cancelled request ended")
	wait.fire <- time.Now()
	err := s.returned(t)

	if err == nil || !strings.Contains(err.Error(), "1 of the cancelled requests still running") {
		t.Errorf("Serve = %v, want an error saying a request is still running", err)
	}
}
