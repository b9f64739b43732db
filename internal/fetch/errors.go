package fetch

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/cenkalti/backoff/v5"
)

// errTimeout marks an attempt that ran out of its time.
var errTimeout = errors.New("timed out")

// waitError is a refusal that says how long to wait before asking again.
// It is a backoff.RetryAfterError too, so that the retry waits that long,
// while its message stays the refusal's.
type waitError struct {
	err  error
	wait time.Duration
}

func (e *waitError) Error() string { return e.err.Error() }

func (e *waitError) Unwrap() []error {
	return []error{e.err, &backoff.RetryAfterError{Duration: e.wait}}
}

// final is an error that asking again will not change: a refusal of what
// was asked (a 4xx), an answer too large, a request that cannot be made.
type final struct{ err error }

func (e *final) Error() string { return e.err.Error() }
func (e *final) Unwrap() error { return e.err }

// finally marks err final, for the retry to stop and the breaker to leave
// it out of its counts: it says nothing of the publisher's health.
func finally(err error) error { return backoff.Permanent(&final{err}) }

// Final marks err, returned by a Request's Check, as final: the request is
// not sent again, and the breaker leaves it out of its counts. A source
// uses it for an answer it handles itself, such as the EIS's "download
// blocked", which asks for a wait far longer than a retry's.
func Final(err error) error { return finally(err) }

func isFinal(err error) bool {
	var f *final
	return errors.As(err, &f)
}

func isCancel(err error) bool { return errors.Is(err, context.Canceled) }

// oneLine returns the start of a response body as one line of valid text.
func oneLine(b []byte) string {
	s := strings.ToValidUTF8(string(b), "")
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// checkBody runs the request's Check on a whole body.
func checkBody(r Request, body io.ReaderAt, size int64) error {
	if r.Check == nil {
		return nil
	}
	return r.Check(body, size)
}

// countingReader counts the bytes read into n.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// counters are what a client did, for logs and status.
type counters struct {
	requests, retries, failures, bytes atomic.Int64
}

// Stats says what a client did since it was made.
type Stats struct {
	Requests int64 `json:"requests"` // attempts sent
	Retries  int64 `json:"retries"`
	Failures int64 `json:"failures"` // requests given up
	Bytes    int64 `json:"bytes"`    // of response bodies
}

// Stats returns what the client did so far.
func (c *Client) Stats() Stats {
	return Stats{
		Requests: c.stats.requests.Load(), Retries: c.stats.retries.Load(),
		Failures: c.stats.failures.Load(), Bytes: c.stats.bytes.Load(),
	}
}
