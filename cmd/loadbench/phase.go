package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/tcpproxy"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// Bounds of a run besides its phases.
const (
	warmUp          = 3 * time.Second
	shutdownTimeout = 10 * time.Second
)

// result is what a run measured.
type result struct {
	cfg             config
	tenders, claims int      // records of the store
	classes         []string // names of the classes, normal then hostile
	phases          []phase
	stopIn          time.Duration // how long the server took to shut down
	stopErr         error
	// outage is what the outage phase measured; nil when there was none.
	outage *outageReport
}

// runBench opens the store, loads the corpus, serves it on a loopback
// port and drives it through the phases.
func runBench(ctx context.Context, cfg config, progress io.Writer) (*result, error) {
	answered5xx, outages := new(atomic.Int64), &outageLog{}
	logger := slog.New(serverLog{slog.NewTextHandler(progress, nil), answered5xx, outages})
	db, proxy := cfg.DB, (*tcpproxy.Proxy)(nil)
	if cfg.Outage > 0 && isPostgres(cfg.DB) {
		var err error
		if db, proxy, err = proxyStore(cfg.DB); err != nil {
			return nil, err
		}
		defer proxy.Cut()
	}
	store, err := openStore(ctx, db, logger)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	c, err := loadCorpus(ctx, store, cfg.Records, progress)
	if err != nil {
		return nil, err
	}
	r := &result{cfg: cfg}
	if r.tenders, r.claims, err = countCorpus(ctx, store); err != nil {
		return nil, err
	}
	key, secret, err := store.CreateKey(ctx, tenderbase.Key{Name: "loadbench", Plan: tenderbase.PlanStandard})
	if err != nil {
		return nil, fmt.Errorf("create the bench's key: %w", err)
	}
	// The key opens this run only: its secret is gone when the run ends.
	defer store.SetKeyStatus(context.WithoutCancel(ctx), key.ID, tenderbase.KeyRevoked)
	b := &bench{secret: secret, timeout: cfg.Timeout, corpus: c, answered5xx: answered5xx,
		normal: newClient(cfg.Clients), hostile: newClient(cfg.Clients), proxy: proxy, outages: outages}
	stop, err := b.serve(ctx, store, logger)
	if err != nil {
		return nil, err
	}
	r.classes = b.classNames()
	r.phases = b.runPhases(ctx, cfg, progress)
	if proxy != nil && ctx.Err() == nil {
		before := answered5xx.Load()
		ph, rep := b.runOutage(ctx, cfg, cfg.Duration/time.Duration(cfg.Rounds), progress)
		ph.answered5xx = int(answered5xx.Load() - before)
		r.phases, r.outage = append(r.phases, ph), &rep
	}
	r.stopIn, r.stopErr = stop()
	return r, nil
}

// serve starts the server on a loopback port and returns the function
// that stops it and says how long it took to.
func (b *bench) serve(ctx context.Context, store benchStore, logger *slog.Logger) (stop func() (time.Duration, error), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	b.addr = ln.Addr().String()
	srv := httpserver.New(httpserver.Config{Keys: store, Tools: tools.New(store, logger), ShutdownTimeout: shutdownTimeout}, store, logger)
	ctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	return func() (time.Duration, error) {
		cancel()
		return awaitStop(served)
	}, nil
}

// awaitStop waits for Serve to return after its context is done, a little
// longer than its shutdown timeout, and returns how long that took.
func awaitStop(served <-chan error) (time.Duration, error) {
	start := time.Now()
	select {
	case err := <-served:
		return time.Since(start), err
	case <-time.After(shutdownTimeout + 5*time.Second):
		return time.Since(start), errors.New("the server did not stop")
	}
}

// classNames names the classes of requests, normal then hostile.
func (b *bench) classNames() []string {
	var names []string
	for _, c := range append(b.normalClasses(), b.hostileClasses()...) {
		names = append(names, c.name)
	}
	return names
}

// phase is what one phase measured.
type phase struct {
	name    string // "baseline" or "hostile"
	round   int
	length  time.Duration
	tallies map[string]*tally // by class
	latency []time.Duration   // of the normal requests answered, sorted
	// hostileSent counts the hostile requests sent.
	hostileSent int
	settle      time.Duration // how long the server went on working after the phase
	// answered5xx counts the 5xx the server answered in the phase and
	// until it went idle, the clients' or not.
	answered5xx int
	// normal sums the tallies of the normal requests; lastRefused and
	// lastOK are when one was last answered 503 with Retry-After, and 2xx
	// or 3xx.
	normal              tally
	lastRefused, lastOK time.Time
}

// runPhases warms the server up, then runs the rounds: a baseline phase
// of normal traffic alone, then a hostile one where the hostile workers
// join, each followed by a wait for the server to go idle.
func (b *bench) runPhases(ctx context.Context, cfg config, progress io.Writer) []phase {
	each := cfg.Duration / time.Duration(cfg.Rounds)
	hostile := cfg.hostileWorkers()
	normal := cfg.Clients - hostile
	b.phase(ctx, "warm-up", 0, min(warmUp, each), normal, 0)
	var phases []phase
	for round := 1; round <= cfg.Rounds && ctx.Err() == nil; round++ {
		for _, p := range []struct {
			name    string
			hostile int
		}{{"baseline", 0}, {"hostile", hostile}} {
			before := b.answered5xx.Load()
			ph := b.phase(ctx, p.name, round, each, normal, p.hostile)
			ph.settle = settle(ctx, cfg.Settle)
			ph.answered5xx = int(b.answered5xx.Load() - before)
			fmt.Fprintf(progress, "loadbench: round %d %s: %d normal requests answered, p99 %.1f ms, server idle %s after\n",
				round, p.name, len(ph.latency), ms(percentile(ph.latency, 99)), ph.settle.Round(100*time.Millisecond))
			phases = append(phases, ph)
		}
	}
	return phases
}

// phase runs normal and hostile workers for length, waits for their last
// requests and gathers what they logged.
func (b *bench) phase(ctx context.Context, name string, round int, length time.Duration, normal, hostile int) phase {
	end := time.Now().Add(length)
	logs := make([]*workerLog, normal+hostile)
	var wg sync.WaitGroup
	for i := range logs {
		classes := b.normalClasses()
		if i >= normal {
			classes = b.hostileClasses()
		}
		logs[i] = &workerLog{hostile: i >= normal, tallies: map[string]*tally{}}
		rnd := rand.New(rand.NewPCG(uint64(round), uint64(i)))
		wg.Go(func() { logs[i].work(ctx, end, classes, rnd) })
	}
	wg.Wait()
	return gather(name, round, length, logs)
}

// settle waits, for most at the longest, until the process has been idle
// for a second, the server's work on requests its clients gave up
// included, and returns how long that took. Idle is under a fifth of a
// core, which covers the SQLite store but not a PostgreSQL server; that
// one stops a query when its client gives up.
func settle(ctx context.Context, most time.Duration) time.Duration {
	const window = 500 * time.Millisecond
	start := time.Now()
	for idle := 0; idle < 2 && time.Since(start) < most && ctx.Err() == nil; {
		before, ok := cpuTime()
		time.Sleep(window)
		after, _ := cpuTime()
		if !ok {
			break
		}
		if idle++; after-before >= window/5 {
			idle = 0
		}
	}
	return time.Since(start)
}
