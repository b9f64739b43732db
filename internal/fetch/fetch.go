// Package fetch is the HTTP client every sync source fetches with. It is
// polite to the publisher (a rate and a number of requests at once per
// host, a timeout on every request), patient with its failures (retries
// with jittered exponential backoff, Retry-After obeyed) and quick to stop
// asking a publisher that is down: a circuit breaker per client, so per
// source, opens after consecutive failures and fails fast until it lets a
// trial request through.
//
// Retries use github.com/cenkalti/backoff/v5 and the breaker
// github.com/sony/gobreaker/v2; rates golang.org/x/time/rate.
package fetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v5"
	"github.com/sony/gobreaker/v2"
	"golang.org/x/time/rate"

	"github.com/tenderbase/tenderbase"
)

// Config is how politely and how patiently a client fetches.
type Config struct {
	Rate        float64       // requests a second to one host
	Burst       int           // requests to one host let through at once after a pause
	Concurrency int           // requests to one host in flight at once
	Timeout     time.Duration // of one attempt, from sending to the last byte
	Attempts    int           // of one request, the first included
	MinBackoff  time.Duration // before the first retry; each next one doubles, jittered by half
	MaxBackoff  time.Duration
	BreakAfter  int           // consecutive failed requests that open the breaker
	BreakFor    time.Duration // how long the breaker stays open before a trial request
	// MaxBytes bounds a response: read into memory (Fetch) or written to
	// a file (Download, unless the Request says otherwise).
	MaxBytes int64
	// MaxBytesSetting names what sets MaxBytes ("--max-download-bytes"),
	// for the error of a response past it.
	MaxBytesSetting string
	UserAgent       string
}

// DefaultMaxBytes is the default bound of a response: 256 MiB, above the
// 100 MB a public client of the EIS takes of an archive
// (neonix20b/ox-tender-abstract, MAX_FILE_SIZE_BYTES), so that a regional
// day's archive larger than what that client reads is still read.
const DefaultMaxBytes = 256 << 20

// DefaultConfig is what a source gets unless it knows its publisher's
// limits better: two requests a second, two at once, a minute each, five
// attempts.
var DefaultConfig = Config{
	Rate: 2, Burst: 2, Concurrency: 2, Timeout: time.Minute, Attempts: 5,
	MinBackoff: time.Second, MaxBackoff: time.Minute, BreakAfter: 5, BreakFor: time.Minute,
	MaxBytes: DefaultMaxBytes, UserAgent: "tenderbase",
}

// Client fetches from the hosts of one source.
type Client struct {
	name    string
	cfg     Config
	http    *http.Client
	breaker *gobreaker.CircuitBreaker[struct{}]
	logger  *slog.Logger

	mu    sync.Mutex
	hosts map[string]*host

	stats counters
}

// host holds the limits of one host.
type host struct {
	limiter *rate.Limiter
	slots   chan struct{}
}

// New returns a client for the source named name. transport, when not nil,
// replaces the default one (tests, proxies); logger nil discards.
func New(name string, cfg Config, transport http.RoundTripper, logger *slog.Logger) *Client {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg = withDefaults(cfg)
	c := &Client{
		name:   name,
		cfg:    cfg,
		http:   &http.Client{Transport: transport},
		logger: logger.With("source", name),
		hosts:  map[string]*host{},
	}
	c.breaker = gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        name,
		Timeout:     cfg.BreakFor,
		ReadyToTrip: func(n gobreaker.Counts) bool { return n.ConsecutiveFailures >= uint32(cfg.BreakAfter) },
		// A request refused for what it asked (a 4xx) or cancelled by the
		// caller says nothing of the publisher's health.
		IsExcluded: func(err error) bool { return isCancel(err) || isFinal(err) },
		OnStateChange: func(_ string, from, to gobreaker.State) {
			c.logger.Warn("circuit breaker", "from", from.String(), "to", to.String())
		},
	})
	return c
}

func withDefaults(cfg Config) Config {
	d := DefaultConfig
	if cfg.Rate <= 0 {
		cfg.Rate = d.Rate
	}
	if cfg.Burst <= 0 {
		cfg.Burst = max(1, int(cfg.Rate))
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = d.Concurrency
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = d.Timeout
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = d.Attempts
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = d.MinBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = d.MaxBackoff
	}
	if cfg.BreakAfter <= 0 {
		cfg.BreakAfter = d.BreakAfter
	}
	if cfg.BreakFor <= 0 {
		cfg.BreakFor = d.BreakFor
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = d.MaxBytes
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = d.UserAgent
	}
	return cfg
}

// Request is one request to send, again on each attempt.
type Request struct {
	Method string // GET when empty
	URL    string
	Header http.Header
	Body   []byte
	// NotReady lists statuses that mean "ask again later" for this request
	// beside the usual ones (429, 425, 5xx): an EIS archive being prepared
	// answers 404.
	NotReady []int
	// Check, when not nil, checks a whole response body; an error makes the
	// attempt fail and be retried, as a truncated archive must be.
	Check func(body io.ReaderAt, size int64) error
	// MaxBytes, when above 0, bounds the body of a Download in place of
	// Config.MaxBytes: a larger one is refused, finally.
	MaxBytes int64
	// RefuseTypes lists media types ("text/html") refused, finally, in
	// place of the file asked for: a publisher's page saying it cannot
	// give the file, which would otherwise be taken for the file.
	RefuseTypes []string
}

// setting is what an error of a response too large adds to name the
// setting that bounds it.
func (c *Client) setting() string {
	if c.cfg.MaxBytesSetting == "" {
		return ""
	}
	return " (" + c.cfg.MaxBytesSetting + ")"
}

// Fetch sends r and returns the body of its 2xx response, read whole
// (at most Config.MaxBytes), retrying what may succeed later. Its error is
// a *StatusError for a response refused, ErrBroken while the breaker is
// open, or the last attempt's error.
func (c *Client) Fetch(ctx context.Context, r Request) ([]byte, error) {
	var body []byte
	err := c.do(ctx, r, func(resp *http.Response) error {
		b, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxBytes+1))
		if err != nil {
			return err
		}
		if int64(len(b)) > c.cfg.MaxBytes {
			return finally(fmt.Errorf("the response is larger than %d bytes%s", c.cfg.MaxBytes, c.setting()))
		}
		if err := checkBody(r, bytes.NewReader(b), int64(len(b))); err != nil {
			return err
		}
		body = b
		return nil
	})
	return body, err
}

// ErrBroken is returned, wrapped, while a source's breaker is open: its
// publisher failed too often just now to be asked again yet.
var ErrBroken = errors.New("too many failures in a row; not asking again for now")

// StatusError is a response whose status says the request failed.
type StatusError struct {
	URL    string // without its query
	Status int
	Body   string // the start of the response, for the error message
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("%s answered %d %s", e.URL, e.Status, http.StatusText(e.Status))
	if e.Body != "" {
		s += ": " + e.Body
	}
	return s
}

// do sends r with retries, limits and the breaker, and hands each 2xx
// response to read, whose error fails the attempt. The breaker counts
// requests, not attempts: it opens after BreakAfter requests in a row
// failed every attempt.
func (c *Client) do(ctx context.Context, r Request, read func(*http.Response) error) error {
	h, err := c.host(r.URL)
	if err != nil {
		return err
	}
	_, err = c.breaker.Execute(func() (struct{}, error) { return struct{}{}, c.retry(ctx, h, r, read) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return fmt.Errorf("%s: %w", c.name, ErrBroken)
	}
	return err
}

// retry makes the attempts of one request.
func (c *Client) retry(ctx context.Context, h *host, r Request, read func(*http.Response) error) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval, b.RandomizationFactor = c.cfg.MinBackoff, c.cfg.MaxBackoff, 0.5
	attempt := 0
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		attempt++
		return struct{}{}, c.attempt(ctx, h, r, read)
	},
		backoff.WithBackOff(b),
		backoff.WithMaxTries(uint(c.cfg.Attempts)),
		backoff.WithMaxElapsedTime(0),
		backoff.WithNotify(func(err error, wait time.Duration) {
			c.stats.retries.Add(1)
			c.logger.Warn("retrying", "url", tenderbase.RedactURL(r.URL), "attempt", attempt, "wait", wait.Round(time.Millisecond), "err", err)
		}))
	if err == nil {
		return nil
	}
	c.stats.failures.Add(1)
	if attempt > 1 && !isCancel(err) {
		return &giveUp{attempts: attempt, err: err}
	}
	return err
}

// giveUp is the error of a request that failed every attempt.
type giveUp struct {
	attempts int
	err      error
}

func (e *giveUp) Error() string { return fmt.Sprintf("after %d attempts: %v", e.attempts, e.err) }
func (e *giveUp) Unwrap() error { return e.err }

// attempt sends r once, within the host's limits and the timeout.
func (c *Client) attempt(ctx context.Context, h *host, r Request, read func(*http.Response) error) error {
	if err := h.limiter.Wait(ctx); err != nil {
		return err
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	case <-ctx.Done():
		return ctx.Err()
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := c.newRequest(ctx, r)
	if err != nil {
		return finally(err)
	}
	c.stats.requests.Add(1)
	resp, err := c.http.Do(req)
	var untrusted *tls.CertificateVerificationError
	if errors.As(err, &untrusted) {
		// Asking again will not make it trusted.
		return finally(fmt.Errorf("%s: its certificate is not trusted here; the system may lack the root that issued it, such as the Russian one (docs/sync.md): %w",
			tenderbase.RedactURL(r.URL), untrusted))
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body := &countingReader{r: resp.Body, n: &c.stats.bytes}
	resp.Body = io.NopCloser(body)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return c.refused(resp, r)
	}
	if t, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); slices.Contains(r.RefuseTypes, t) {
		return finally(fmt.Errorf("%s sent %s, not the file asked for", tenderbase.RedactURL(r.URL), t))
	}
	if err := read(resp); err != nil {
		if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("no whole answer within %s: %w", c.cfg.Timeout, errTimeout)
		}
		return err
	}
	return nil
}

func (c *Client) newRequest(ctx context.Context, r Request) (*http.Request, error) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, cmpOr(r.Method, http.MethodGet), r.URL, body)
	if err != nil {
		return nil, fmt.Errorf("request to %s: %w", tenderbase.RedactURL(r.URL), err)
	}
	for k, v := range r.Header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	return req, nil
}

// refused turns a response that is not 2xx into an error: one to retry
// after the wait the publisher asks for, or one that is final.
func (c *Client) refused(resp *http.Response, r Request) error {
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	err := &StatusError{URL: tenderbase.RedactURL(r.URL), Status: resp.StatusCode, Body: oneLine(snippet)}
	if !retryable(resp.StatusCode, r.NotReady) {
		return finally(err)
	}
	if wait, ok := retryAfter(resp.Header.Get("Retry-After")); ok {
		return &waitError{err: err, wait: min(wait, c.cfg.MaxBackoff)}
	}
	return err
}

// host returns the limits of the host rawURL names, made on first use.
func (c *Client) host(rawURL string) (*host, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%s: not an address to fetch: %q", c.name, tenderbase.RedactURL(rawURL))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.hosts[u.Host]
	if !ok {
		h = &host{limiter: rate.NewLimiter(rate.Limit(c.cfg.Rate), c.cfg.Burst), slots: make(chan struct{}, c.cfg.Concurrency)}
		c.hosts[u.Host] = h
	}
	return h, nil
}

// retryable reports whether a status means the same request may succeed
// later: too many requests, too early, a failure of the server.
func retryable(status int, notReady []int) bool {
	switch {
	case status == http.StatusTooManyRequests, status == http.StatusTooEarly, status == http.StatusRequestTimeout:
		return true
	case status >= 500:
		return status != http.StatusNotImplemented
	}
	for _, s := range notReady {
		if s == status {
			return true
		}
	}
	return false
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t)), true
	}
	return 0, false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
