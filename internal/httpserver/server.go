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
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/mcp"
	"github.com/tenderbase/tenderbase/internal/tools"
)

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
	// ShutdownTimeout bounds how long Serve waits for requests in flight when
	// it stops; default 10s.
	ShutdownTimeout time.Duration
	// RequestTimeout bounds the work of one request: its context's
	// deadline, past which a store call is cancelled and the caller told
	// so; default DefaultRequestTimeout.
	RequestTimeout time.Duration

	// Keys authenticates the Bearer keys of the MCP and debug endpoints.
	Keys tenderbase.KeyStore
	// Limiter bounds how fast a key may call; nil means no limits.
	Limiter tenderbase.RateLimiter
	// AllowedOrigins lists the browser origins, beyond localhost, that may
	// call /mcp: full origins ("https://app.example.com") or host names.
	AllowedOrigins []string
	// Tools are served on /mcp and their debug endpoints; nil serves none.
	Tools *tools.Set
	// MCP names the server to MCP clients; the name defaults to "tenderbase".
	MCP mcp.ServerInfo
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
	setDefault(&c.ShutdownTimeout, 10*time.Second)
	setDefault(&c.RequestTimeout, DefaultRequestTimeout)
	c.WriteTimeout = max(c.WriteTimeout, c.RequestTimeout+10*time.Second)
	return c
}

func setDefault[T int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Server is the HTTP interface over a store.
type Server struct {
	cfg    Config
	store  tenderbase.Store
	logger *slog.Logger
	mcp    *mcp.Handler
}

// New returns a server answering from store. A nil logger discards logs. It
// panics if the tools cannot be listed for MCP (a schema that is not JSON),
// a programming error that every test run shows.
func New(cfg Config, store tenderbase.Store, logger *slog.Logger) *Server {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg = cfg.withDefaults()
	if cfg.Tools == nil {
		cfg.Tools = &tools.Set{}
	}
	h, err := mcp.New(mcp.Config{
		Info:           cfg.MCP,
		AllowedOrigins: cfg.AllowedOrigins,
		Limiter:        cfg.Limiter,
		MaxBodyBytes:   cfg.MaxBodyBytes,
	}, cfg.Tools, logger)
	if err != nil {
		panic(fmt.Sprintf("httpserver: %v", err))
	}
	return &Server{cfg: cfg, store: store, logger: logger, mcp: h}
}

// Handler returns the routes wrapped in the middleware.
func (s *Server) Handler() http.Handler {
	var h http.Handler = s.routes()
	h = limitBody(s.cfg.MaxBodyBytes)(h)
	h = limitTime(s.cfg.RequestTimeout)(h)
	h = recoverPanics(s.logger)(h)
	h = logRequests(s.logger)(h)
	return h
}

// Serve answers requests on ln until ctx is done, then stops accepting
// connections and waits up to the shutdown timeout for requests in flight.
// It returns nil after such a shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Requests in flight get their time even though ctx is already done.
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
