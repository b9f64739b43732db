package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/mcp"
	"github.com/tenderbase/tenderbase/internal/metrics"
	"github.com/tenderbase/tenderbase/internal/ratelimit"
	"github.com/tenderbase/tenderbase/internal/redis"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// defaultAddr is where serve listens when neither --addr nor TENDERBASE_ADDR
// says otherwise: this machine only, until someone decides to expose it.
const defaultAddr = "127.0.0.1:8080"

// serveConfig is the configuration of the serve command.
type serveConfig struct {
	Store storeConfig
	Addr  string
	Demo  bool
	// DemoIgnoresEnv says that --demo leaves the store TENDERBASE_DB names
	// alone, for a temporary one, since --db was not given.
	DemoIgnoresEnv bool
	// Redis is the URL of the Redis that shares rate limits between
	// instances; "" keeps them in this process's memory.
	Redis string
	HTTP  httpserver.Config
	// Sync, when set, keeps the store current from the publishers while
	// serving (tenderbase sync --follow in the same process).
	Sync       bool
	SyncConfig syncConfig
	// Mail is how the subscriptions' mailings are sent.
	Mail mailConfig
	// LLM is the model that writes the documentation analyses' prose,
	// and Prose its writer, made by prepare: nil with no model, for
	// docanalysis.AnalyzeWith.
	LLM   llmConfig
	Prose docanalysis.ProseWriter
	// AnalysisTimeout bounds one analysis of a tender's documentation.
	AnalysisTimeout time.Duration
}

// storeCloseTimeout bounds closing the store at the end of serve. Closing
// waits for the queries still running, and a request that ignored its
// cancellation may run one for as long as it likes.
const storeCloseTimeout = 5 * time.Second

// runServe listens, opens the store, loads the demo dataset if asked, and
// serves HTTP until ctx is done. What can fail at start fails before
// anything is changed or printed: the address is taken before the store is
// opened, and the store is opened before the demo is loaded and its keys
// printed. Until the server proper takes over, the address answers that
// the service is starting (httpserver.ServeStarting).
func runServe(ctx context.Context, c *cli, args []string) int {
	cfg, code, ok := c.parseServe(args)
	if !ok {
		return code
	}
	if err := cfg.Store.check(); err != nil {
		return c.fail(err)
	}
	logger := cfg.Store.newLogger(c.stderr)
	// The limiter first: a --redis that is no Redis URL is a usage error,
	// whatever the state of the port.
	limits, err := newLimiter(ctx, cfg.Redis, logger)
	if err != nil {
		return c.fail(err)
	}
	defer limits.close()
	cfg.HTTP.Limiter = limits.limiter
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return c.fail(fmt.Errorf("listen on %s: %w", cfg.Addr, err))
	}
	defer ln.Close() // closed already when served; this covers the failures before
	stopStarting := httpserver.ServeStarting(ln, logger)
	defer stopStarting()
	if cfg.Demo && !cfg.Store.Explicit {
		if cfg.DemoIgnoresEnv {
			logger.Warn("serve --demo loads the demo into a temporary store: TENDERBASE_DB is ignored without --db on the command line",
				"TENDERBASE_DB", cfg.Store.String())
		}
		dir, err := os.MkdirTemp("", "tenderbase-demo-")
		if err != nil {
			return c.fail(fmt.Errorf("demo store: %w", err))
		}
		defer os.RemoveAll(dir) // runs after the store is closed
		cfg.Store.DB = filepath.Join(dir, "demo.db")
	}
	store, err := openStore(ctx, cfg.Store, logger)
	if err != nil {
		return c.fail(err)
	}
	cfg.HTTP.Ready = readyChecks(store, limits)
	if err := c.prepare(ctx, &cfg, store, logger); err != nil {
		store.Close()
		return c.fail(err)
	}
	stopStarting()
	return c.serveOn(ctx, ln, cfg, store, logger)
}

// readyChecks are the checks of GET /ready: the store, and the Redis of the
// rate limits when there is one.
func readyChecks(store tenderbase.Store, limits rateLimits) []httpserver.ReadyCheck {
	var checks []httpserver.ReadyCheck
	if r, ok := store.(tenderbase.Readier); ok {
		checks = append(checks, httpserver.ReadyCheck{Name: "store", Check: r.Ready})
	}
	if limits.ping != nil {
		checks = append(checks, httpserver.ReadyCheck{Name: "redis", Check: limits.ping})
	}
	return checks
}

// prepare completes the configuration of the HTTP server over store: its
// keys, tools, metrics and name, and loads the demo dataset if asked. A
// store without an active key is served, since the export needs none, with
// a word on how to make one.
func (c *cli) prepare(ctx context.Context, cfg *serveConfig, store tenderbase.Store, logger *slog.Logger) error {
	keys, hasKeys := store.(tenderbase.KeyStore)
	if hasKeys {
		cfg.HTTP.Keys = keys
	}
	if subs, ok := store.(tenderbase.SubscriptionStore); ok {
		cfg.HTTP.Subscriptions = subs
	}
	b := currentBuild()
	cfg.HTTP.Metrics = metrics.New(metrics.Build{Version: b.shortVersion(), Commit: b.Commit, GoVersion: b.GoVersion})
	cfg.HTTP.Tools = tools.New(cfg.HTTP.Metrics.Store(store), logger)
	cfg.HTTP.Tools.SetWebhookPolicy(cfg.Mail.Webhooks)
	cfg.HTTP.Tools.SetFreshness(freshnessConfig(cfg.Sync, cfg.SyncConfig))
	prose, err := cfg.LLM.proseWriter(logger)
	if err != nil {
		return err
	}
	cfg.Prose = prose
	if svc := analyses(cfg, cfg.HTTP.Metrics.Store(store), logger); svc != nil {
		cfg.HTTP.Analyses = svc
		cfg.HTTP.Tools.SetAnalyses(svc)
	}
	cfg.HTTP.MCP = mcp.ServerInfo{Name: "tenderbase", Title: "Tenderbase", Version: b.shortVersion()}
	if cfg.Demo {
		if err := loadDemo(ctx, store, cfg.HTTP.Keys, cfg.Store.String(), logger); err != nil {
			return err
		}
		return c.demoKeys(ctx, cfg.HTTP.Keys, cfg.Store)
	}
	if hasKeys {
		return c.hintKeys(ctx, keys, cfg.Store)
	}
	return nil
}

// hintKeys says how to create a key when the store has no active one: the
// MCP and debug endpoints refuse every request without one.
func (c *cli) hintKeys(ctx context.Context, keys tenderbase.KeyStore, sc storeConfig) error {
	all, err := keys.Keys(ctx)
	if err != nil {
		return fmt.Errorf("read the keys: %w", err)
	}
	for _, k := range all {
		if k.Status == tenderbase.KeyActive {
			return nil
		}
	}
	db := ""
	if sc.Explicit {
		db = " --db " + shellQuote(sc.String())
	}
	fmt.Fprintf(c.stdout, "no active API key in this store: /mcp and the debug endpoints will refuse every request (the export serves the free view without one).\n"+
		"Create a key with: tenderbase keys create --plan standard --name NAME%s\n", db)
	return nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '@' || r == '=' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// serve listens on the configured address and serves store, as serveOn.
func (c *cli) serve(ctx context.Context, cfg serveConfig, store tenderbase.Store, logger *slog.Logger) int {
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		store.Close()
		return c.fail(fmt.Errorf("listen on %s: %w", cfg.Addr, err))
	}
	return c.serveOn(ctx, ln, cfg, store, logger)
}

// serveOn answers on ln until ctx is done, then shuts the server down and
// closes the store. The exit status is 0 when every request returned, cut
// at the end of the grace period or not, and the store closed; 1 when
// requests ignored their cancellation or the store did not close
// (docs/operations.md).
func (c *cli) serveOn(ctx context.Context, ln net.Listener, cfg serveConfig, store tenderbase.Store, logger *slog.Logger) int {
	stopSync, err := startSync(ctx, cfg, store, logger)
	if err != nil {
		store.Close()
		return c.fail(err)
	}
	stopMailings, err := startMailings(ctx, cfg, store, logger)
	if err != nil {
		stopSync()
		store.Close()
		return c.fail(err)
	}
	stopAnalyses := startAnalyses(ctx, cfg)
	served := c.listenAndServe(ctx, ln, cfg, store, logger)
	stopAnalyses()
	stopMailings()
	stopSync()
	closed := closeStore(store, storeCloseTimeout)
	if err := errors.Join(served, closed); err != nil {
		// Through the log alone: stderr is the log, JSON for a service.
		logger.Error("serve failed", "err", err)
		return exitFailure
	}
	logger.Info("stopped")
	return exitOK
}

// startSync starts the continuous sync of serve --sync, and returns what
// stops it and waits for it to stop.
func startSync(ctx context.Context, cfg serveConfig, store tenderbase.Store, logger *slog.Logger) (stop func(), err error) {
	if !cfg.Sync {
		logger.Info("sync off: serve --sync or TENDERBASE_SYNC=true keeps the store current from the publishers (docs/sync.md)")
		return func() {}, nil
	}
	runner, err := newRunner(store, cfg.SyncConfig, logger)
	if err != nil {
		return nil, err
	}
	if m := cfg.HTTP.Metrics; m != nil {
		runner.Store = m.Store(store)
		runner.Progress = m.SyncProgress
	}
	sc := cfg.SyncConfig
	srcs := runnable(sc, logger)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		runner.Follow(ctx, sc.scope(), srcs, sc.Every)
	}()
	return func() { cancel(); <-done }, nil
}

// listenAndServe serves HTTP on ln until ctx is done and the server has
// shut down.
func (c *cli) listenAndServe(ctx context.Context, ln net.Listener, cfg serveConfig, store tenderbase.Store, logger *slog.Logger) error {
	fmt.Fprintf(c.stdout, "tenderbase listening on http://%s (store %s)\n", ln.Addr(), cfg.Store)
	logger.Info("listening", "addr", ln.Addr().String(), "db", cfg.Store.String(), "version", currentVersion())
	if cfg.HTTP.Metrics != nil {
		store = cfg.HTTP.Metrics.Store(store)
	}
	return httpserver.New(cfg.HTTP, store, logger).Serve(ctx, ln)
}

// closeStore closes store, waiting at most d: past it, the process had
// better exit than wait for a query that nobody will read.
func closeStore(store tenderbase.Store, d time.Duration) error {
	closed := make(chan error, 1)
	go func() { closed <- store.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			return fmt.Errorf("close the store: %w", err)
		}
		return nil
	case <-time.After(d):
		return fmt.Errorf("close the store: not closed after %s", d)
	}
}

// parseServe reads the serve command line, as parseImport does.
func (c *cli) parseServe(args []string) (cfg serveConfig, code int, ok bool) {
	cmd, _ := lookupCommand("serve")
	fs := c.newFlagSet(cmd)
	c.storeFlags(fs, &cfg.Store, slog.LevelInfo)
	addr := defaultAddr
	if env := c.getenv("TENDERBASE_ADDR"); env != "" {
		addr = env
	}
	fs.StringVar(&cfg.Addr, "addr", addr, "`HOST:PORT` to listen on (env TENDERBASE_ADDR)")
	fs.StringVar(&cfg.Redis, "redis", c.getenv("TENDERBASE_REDIS"),
		"`URL` of a Redis (redis://host:6379/0) that shares rate limits between instances; default in memory (env TENDERBASE_REDIS)")
	origins := c.getenv("TENDERBASE_ALLOWED_ORIGINS")
	fs.StringVar(&origins, "allowed-origins", origins,
		"comma-separated browser `ORIGINS` allowed, besides localhost, on /mcp, the debug endpoints and the export (CORS), e.g. https://app.example.com (env TENDERBASE_ALLOWED_ORIGINS)")
	anonRate, err := c.envInt("TENDERBASE_ANONYMOUS_RATE", tenderbase.Plans[tenderbase.PlanFree].RatePerMinute)
	if err != nil {
		fmt.Fprintf(c.stderr, "tenderbase serve: %v\n", err)
		return cfg, exitUsage, false
	}
	fs.IntVar(&cfg.HTTP.Anonymous.RatePerMinute, "anonymous-rate", anonRate,
		"`N` export requests a minute from one client address without a key, at most the free plan's (env TENDERBASE_ANONYMOUS_RATE)")
	proxies := c.getenv("TENDERBASE_TRUSTED_PROXIES")
	fs.StringVar(&proxies, "trusted-proxies", proxies,
		"comma-separated `ADDRESSES` or CIDR blocks of the reverse proxies in front; their client header names the caller (env TENDERBASE_TRUSTED_PROXIES)")
	clientHeader := c.getenv("TENDERBASE_CLIENT_IP_HEADER")
	if clientHeader == "" {
		clientHeader = "X-Forwarded-For"
	}
	fs.StringVar(&cfg.HTTP.Anonymous.ClientIPHeader, "client-ip-header", clientHeader,
		"`HEADER` in which the trusted proxies name the client: X-Forwarded-For or one holding a single address, such as X-Real-IP (env TENDERBASE_CLIENT_IP_HEADER)")
	fs.BoolVar(&cfg.Demo, "demo", false, "load the bundled demo dataset into a temporary store removed at exit; with --db (not TENDERBASE_DB) into that store, if it holds nothing but the demo")
	syncOn, err := c.envBool("TENDERBASE_SYNC", false)
	if err != nil {
		fmt.Fprintf(c.stderr, "tenderbase serve: %v\n", err)
		return cfg, exitUsage, false
	}
	fs.BoolVar(&cfg.Sync, "sync", syncOn, "keep the store current from the publishers while serving, as sync --follow does (the sync flags below; env TENDERBASE_SYNC=true)")
	err = errors.Join(
		c.syncFlags(fs, &cfg.SyncConfig),
		c.mailFlags(fs, &cfg.Mail),
		c.llmFlags(fs, &cfg.LLM),
		c.durationVar(fs, &cfg.AnalysisTimeout, "analysis-timeout", "TENDERBASE_ANALYSIS_TIMEOUT", docjobs.DefaultTimeout,
			"`DURATION` one analysis of a tender's documentation may take, by docs.analyze or a job (env TENDERBASE_ANALYSIS_TIMEOUT)"),
		c.durationVar(fs, &cfg.HTTP.ShutdownTimeout, "shutdown-timeout", "TENDERBASE_SHUTDOWN_TIMEOUT", httpserver.DefaultShutdownTimeout,
			"grace `PERIOD` that requests in flight get to finish on SIGTERM or SIGINT before they are cancelled (env TENDERBASE_SHUTDOWN_TIMEOUT)"),
		c.durationVar(fs, &cfg.HTTP.RequestTimeout, "request-timeout", "TENDERBASE_REQUEST_TIMEOUT", httpserver.DefaultRequestTimeout,
			"`DURATION` one request may take (20s, 1m) before its work is cancelled and it is answered 503 (env TENDERBASE_REQUEST_TIMEOUT)"))
	if err != nil {
		fmt.Fprintf(c.stderr, "tenderbase serve: %v\n", err)
		return cfg, exitUsage, false
	}
	positional, err := parseArgs(fs, args)
	if err != nil {
		return cfg, parseExit(err), false
	}
	if len(positional) > 0 {
		fmt.Fprintf(c.stderr, "tenderbase serve: unexpected argument %q\n", positional[0])
		fs.Usage()
		return cfg, exitUsage, false
	}
	cfg.Store.Explicit = cfg.Store.Explicit || wasSet(fs, "db")
	if cfg.Demo && !wasSet(fs, "db") {
		// The demo goes into a store named on its command line only: a
		// TENDERBASE_DB exported for the real service must not get it.
		cfg.DemoIgnoresEnv = cfg.Store.Explicit
		cfg.Store.Explicit = false
	}
	cfg.HTTP.AllowedOrigins = splitList(origins)
	if cfg.HTTP.Anonymous.TrustedProxies, err = parsePrefixes(splitList(proxies)); err != nil {
		fmt.Fprintf(c.stderr, "tenderbase serve: --trusted-proxies: %v\n", err)
		return cfg, exitUsage, false
	}
	if free := tenderbase.Plans[tenderbase.PlanFree].RatePerMinute; cfg.HTTP.Anonymous.RatePerMinute < 1 || cfg.HTTP.Anonymous.RatePerMinute > free {
		fmt.Fprintf(c.stderr, "tenderbase serve: --anonymous-rate %d: give 1 to %d, the free plan's rate, so that a key is never worse than none\n",
			cfg.HTTP.Anonymous.RatePerMinute, free)
		return cfg, exitUsage, false
	}
	if err := c.finishSync(&cfg.SyncConfig); err != nil {
		fmt.Fprintf(c.stderr, "tenderbase serve: %v\n", err)
		return cfg, exitUsage, false
	}
	if err := c.finishLLM(&cfg.LLM); err != nil {
		fmt.Fprintf(c.stderr, "tenderbase serve: %v\n", err)
		return cfg, exitUsage, false
	}
	if err := cfg.Mail.check(); err != nil {
		fmt.Fprintf(c.stderr, "tenderbase serve: %v\n", err)
		return cfg, exitUsage, false
	}
	return cfg, exitOK, true
}

// rateLimits is the rate limiter of serve, what checks that its Redis
// answers (nil when it has none) and what releases it.
type rateLimits struct {
	limiter tenderbase.RateLimiter
	ping    func(ctx context.Context) error
	close   func() error
}

// newLimiter returns the rate limiter of serve: in memory, or shared
// through the Redis at redisURL. A Redis that does not answer at start is
// only a warning, as it is later: requests pass unlimited until it answers.
func newLimiter(ctx context.Context, redisURL string, logger *slog.Logger) (rateLimits, error) {
	if redisURL == "" {
		return rateLimits{limiter: ratelimit.New(nil), close: func() error { return nil }}, nil
	}
	opts, err := goredis.ParseURL(redisURL)
	if err != nil {
		return rateLimits{}, tenderbase.Errorf(tenderbase.EINVALID, "--redis: %s", err)
	}
	// The limiter bounds each call; the client's default waits of seconds
	// would hold every request up while Redis is away.
	opts.ContextTimeoutEnabled = true
	if opts.DialTimeout == 0 {
		opts.DialTimeout = time.Second
	}
	redis.SetClientLogger(logger)
	client := goredis.NewClient(opts)
	pingCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	// The address only: the URL can hold a password.
	if err := client.Ping(pingCtx).Err(); err != nil {
		logger.Warn("redis does not answer; requests pass without rate limits until it does", "addr", opts.Addr, "err", err)
	} else {
		logger.Info("rate limits shared through redis", "addr", opts.Addr)
	}
	limiter := redis.NewLimiter(client, "")
	limiter.Logger = logger
	ping := func(ctx context.Context) error { return client.Ping(ctx).Err() }
	return rateLimits{limiter: limiter, ping: ping, close: client.Close}, nil
}

// parsePrefixes reads addresses and CIDR blocks; an address alone is the
// block of that one address.
func parsePrefixes(items []string) ([]netip.Prefix, error) {
	var prefixes []netip.Prefix
	for _, item := range items {
		if p, err := netip.ParsePrefix(item); err == nil {
			prefixes = append(prefixes, p.Masked())
			continue
		}
		addr, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR block", item)
		}
		prefixes = append(prefixes, netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen()))
	}
	return prefixes, nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var items []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	return items
}
