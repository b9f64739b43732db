package harvesttest

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Fault is what a recorded service does instead of answering, once, to
// the first request whose path starts with Prefix; with Every, to each
// such request until the faults are cleared: a partition that fails every
// attempt of every run.
type Fault struct {
	Prefix string
	Do     func(w http.ResponseWriter, r *http.Request)
	Every  bool
}

// Faults are the faults a test injects into a recorded service, and the
// paths the service was asked. Its methods are safe to call from several
// goroutines; the zero value has no fault.
type Faults struct {
	mu     sync.Mutex
	faults []Fault // consumed in order by the requests they match
	paths  []string
	// hold, unless nil, is closed by the holdIn-th request from now,
	// which is then held until its client goes away.
	hold   chan struct{}
	holdIn int
}

// Inject adds faults, each done once.
func (f *Faults) Inject(faults ...Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, faults...)
}

// Take records a request for path and returns the first fault for it,
// removing it, or nil.
func (f *Faults) Take(path string) func(http.ResponseWriter, *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.paths = append(f.paths, path)
	if f.hold != nil {
		if f.holdIn--; f.holdIn == 0 {
			reached := f.hold
			f.hold = nil
			return func(_ http.ResponseWriter, r *http.Request) {
				// The server sees its client gone only once the body
				// is read: a login's POST is held too.
				io.Copy(io.Discard, r.Body)
				close(reached)
				<-r.Context().Done()
			}
		}
	}
	for i, fault := range f.faults {
		if strings.HasPrefix(path, fault.Prefix) {
			if !fault.Every {
				f.faults = append(f.faults[:i], f.faults[i+1:]...)
			}
			return fault.Do
		}
	}
	return nil
}

// Clear removes the faults not yet done, and a hold not reached.
func (f *Faults) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults, f.hold = nil, nil
}

// HoldAt holds the n-th request from now on (n from 1), whatever its
// path, until its client goes away, and returns a channel closed when
// that request arrives: where a test kills the sync.
func (f *Faults) HoldAt(n int) <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold, f.holdIn = make(chan struct{}), max(n, 1)
	return f.hold
}

// Count returns how many requests Take saw whose path starts with prefix.
func (f *Faults) Count(prefix string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, p := range f.paths {
		if strings.HasPrefix(p, prefix) {
			n++
		}
	}
	return n
}

// Status answers with code and no body.
func Status(code int) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
}

// Slow answers nothing for longer than a client of the tests waits.
func Slow(w http.ResponseWriter, r *http.Request) {
	select {
	case <-time.After(2 * time.Second):
	case <-r.Context().Done():
	}
}

// Truncated announces more than it sends, begin, then drops the connection.
func Truncated(begin string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "5000")
		io.WriteString(w, begin)
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}
}

// Unavailable answers as torgi.gov.ru's nginx does under load: 503 with a
// web page.
func Unavailable(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, "<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>")
}
