// Package httpserver serves the HTTP interface of the service: its routes,
// the middleware around them and the translation of errors into responses.
package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/rs/cors"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/mcp"
	"github.com/tenderbase/tenderbase/internal/metrics"
	"github.com/tenderbase/tenderbase/internal/origin"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// DefaultShutdownTimeout is the grace period of a shutdown unless
// Config.ShutdownTimeout says otherwise.
const DefaultShutdownTimeout = 10 * time.Second

// Config configures the server. Zero values take the defaults below.
type Config struct {
	// MaxBodyBytes bounds a request body; default 1 MiB.
	MaxBodyBytes int64
	// ReadHeaderTimeout bounds reading a request's headers; default 5s.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request; default 30s.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing a response; default 60s, and never less
	// than RequestTimeout and 10s more, so that the answer saying that a
	// request ran out of time can still be written.
	WriteTimeout time.Duration
	// IdleTimeout bounds how long a kept-alive connection waits for the next
	// request; default 2m.
	IdleTimeout time.Duration
	// ShutdownTimeout is the grace period of a shutdown: how long Serve
	// waits for requests in flight to finish before it cancels them;
	// default DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// RequestTimeout bounds the work of one request: its context's
	// deadline, past which a store call is cancelled and the caller told
	// so; default DefaultRequestTimeout.
	RequestTimeout time.Duration
	// After starts the timers of a shutdown, the grace period and the wait
	// for the requests it cancelled, as time.After does, which it is when
	// nil; a test passes timers it fires itself.
	After func(time.Duration) <-chan time.Time

	// Keys authenticates the Bearer keys of the MCP and debug endpoints.
	Keys tenderbase.KeyStore
	// Limiter bounds how fast a key may call; nil means no limits.
	Limiter tenderbase.RateLimiter
	// Anonymous bounds how fast a caller without a key may call the
	// export, per client address, through Limiter.
	Anonymous Anonymous
	// AllowedOrigins lists the browser origins, beyond localhost, that may
	// call /mcp: full origins ("https://app.example.com") or host names.
	AllowedOrigins []string
	// Subscriptions, when not nil, answers the mailings' unsubscribe links
	// on /unsubscribe.
	Subscriptions tenderbase.SubscriptionStore
	// Analyses, when not nil, runs the analysis jobs of POST /analyses
	// and GET /analyses/{id}.
	Analyses *docjobs.Service
	// Tools are served on /mcp and their debug endpoints; nil serves none.
	Tools *tools.Set
	// MCP names the server to MCP clients; the name defaults to "tenderbase".
	MCP mcp.ServerInfo
	// Metrics, when not nil, counts the requests and connections and is
	// served on GET /metrics.
	Metrics *metrics.Metrics
	// Ready are the checks of GET /ready, beyond the server being up.
	Ready []ReadyCheck
}

// DefaultRequestTimeout is the request deadline unless configured: ample for
// any search the bounds of the arguments admit on a healthy store, short
// enough that a stalled one frees its connection soon.
const DefaultRequestTimeout = 20 * time.Second

func (c Config) withDefaults() Config {
	setDefault(&c.MaxBodyBytes, 1<<20)
	setDefault(&c.ReadHeaderTimeout, 5*time.Second)
	setDefault(&c.ReadTimeout, 30*time.Second)
	setDefault(&c.WriteTimeout, 60*time.Second)
	setDefault(&c.IdleTimeout, 2*time.Minute)
	setDefault(&c.ShutdownTimeout, DefaultShutdownTimeout)
	setDefault(&c.RequestTimeout, DefaultRequestTimeout)
	c.WriteTimeout = max(c.WriteTimeout, c.RequestTimeout+10*time.Second)
	if c.After == nil {
		c.After = time.After
	}
	return c
}

func setDefault[T int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Server is the HTTP interface over a store.
type Server struct {
	cfg       Config
	store     tenderbase.Store
	logger    *slog.Logger
	mcp       *mcp.Handler
	cors      *cors.Cors
	readiness *readiness
	outage    *outage
	// anonymousLimits are the limits of one client address without a key.
	anonymousLimits tenderbase.Limits
	// walks remembers where the next page of each walk of the export
	// begins, for this process.
	walks *export.Walks
}

// New returns a server answering from store. A nil logger discards logs. It
// panics if the tools cannot be listed for MCP (a schema that is not JSON),
// a programming error that every test run shows.
func New(cfg Config, store tenderbase.Store, logger *slog.Logger) *Server {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if _, ok := logger.Handler().(reqinfo.LogHandler); !ok {
		// Every line logged while a request is served names the request.
		logger = slog.New(reqinfo.LogHandler{Handler: logger.Handler()})
	}
	cfg = cfg.withDefaults()
	if cfg.Tools == nil {
		cfg.Tools = &tools.Set{}
	}
	h, err := mcp.New(mcp.Config{
		Info:             cfg.MCP,
		AllowedOrigins:   cfg.AllowedOrigins,
		Limiter:          cfg.Limiter,
		MaxBodyBytes:     cfg.MaxBodyBytes,
		UnavailableRetry: unavailableRetry,
	}, cfg.Tools, logger)
	if err != nil {
		panic(fmt.Sprintf("httpserver: %v", err))
	}
	s := &Server{cfg: cfg, store: store, logger: logger, mcp: h,
		cors: newCORS(origin.NewPolicy(cfg.AllowedOrigins)), readiness: newReadiness(cfg.Ready),
		anonymousLimits: anonymousLimits(cfg.Anonymous), walks: &export.Walks{}}
	s.outage = &outage{logger: logger, probe: s.probeStore}
	return s
}

// Handler returns the routes wrapped in the middleware.
func (s *Server) Handler() http.Handler {
	var h http.Handler = s.routes()
	h = limitBody(s.cfg.MaxBodyBytes)(h)
	h = limitTime(s.cfg.RequestTimeout)(h)
	h = recoverPanics(s.logger)(h)
	h = s.outage.follow(h)
	h = observe(s.logger, s.cfg.Metrics)(h)
	return h
}

// cancelWait is how long a shutdown waits, after the grace period, for the
// requests it cancelled to return. A request that honours its context
// returns within milliseconds; one that does not would hold the store, and
// the process, for as long as it likes.
const cancelWait = 2 * time.Second

// Serve answers requests on ln until ctx is done, then shuts down: it stops
// accepting connections and gives the requests in flight the grace period,
// the shutdown timeout, to finish. Requests still running then are
// cancelled (their contexts are done) and their connections closed, and
// they get cancelWait more to return.
//
// Serve returns nil when every request has returned, whether it finished
// or was cut at the end of the grace period (the cut ones are counted in
// the log), since the shutdown then did what it promises: it took no longer
// than the grace period and left nothing running. It returns an error when
// requests did not return even once cancelled: they may still be using the
// store.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	// Requests live in a context of their own, which ctx being done does not
	// end: they get the grace period first.
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	running := &inflight{}
	hs := &http.Server{
		Handler:           running.track(s.Handler()),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
	if s.cfg.Metrics != nil {
		hs.ConnState = s.cfg.Metrics.ConnState
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.logger.Info("shutting down", "requests", running.count(), "grace", s.cfg.ShutdownTimeout.String())
	err := s.drain(hs, running, cancel)
	if served := <-served; !errors.Is(served, http.ErrServerClosed) && err == nil {
		err = fmt.Errorf("serve: %w", served)
	}
	return err
}

// drain waits up to the grace period for the connections of hs to go idle.
// Past it, it cancels the requests still running and closes every
// connection, then waits up to cancelWait for those requests to return. A
// connection can outlast the grace period with no request running (a client
// that sent half its headers, or reads its answer slowly): closing it cuts
// nothing.
func (s *Server) drain(hs *http.Server, running *inflight, cancel context.CancelFunc) error {
	grace, stop := timeout(s.cfg.After, s.cfg.ShutdownTimeout)
	defer stop()
	err := hs.Shutdown(grace)
	if err == nil {
		return nil
	}
	cut := running.count()
	cancel()
	_ = hs.Close() // the listener is closed already; what fails here is only connections
	if !errors.Is(err, context.Canceled) {
		return fmt.Errorf("shut down: %w", err)
	}
	if cut > 0 {
		s.logger.Warn("grace period over: requests cancelled", "requests", cut, "grace", s.cfg.ShutdownTimeout.String())
	}
	if left := running.wait(s.cfg.After(cancelWait)); left > 0 {
		return fmt.Errorf("shut down: %d of the cancelled requests still running after %s", left, cancelWait)
	}
	return nil
}

// timeout returns a context that ends when the timer after(d) fires, as
// context.WithTimeout's ends by the clock.
func timeout(after func(time.Duration) <-chan time.Time, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	fired := after(d)
	go func() {
		select {
		case <-fired:
		case <-ctx.Done():
		}
		cancel()
	}()
	return ctx, cancel
}

// inflight counts the requests being handled, so that a shutdown can say
// how many it cut and wait for them to return.
type inflight struct{ n atomic.Int64 }

// track counts the requests of next while they run.
func (f *inflight) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.n.Add(1)
		defer f.n.Add(-1)
		next.ServeHTTP(w, r)
	})
}

func (f *inflight) count() int { return int(f.n.Load()) }

// wait waits until expired fires for every request to return and returns
// how many are still running. It polls, as http.Server.Shutdown does: a
// shutdown is no hot path.
func (f *inflight) wait(expired <-chan time.Time) int {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for f.count() > 0 {
		select {
		case <-expired:
			return f.count()
		case <-tick.C:
		}
	}
	return 0
}
