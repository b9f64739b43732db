package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tenderbase/tenderbase/internal/tcpproxy"
)

// isPostgres reports whether db names a PostgreSQL store.
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// proxyStore puts a TCP proxy of the bench's own between the store at db,
// a postgres:// URL, and its database, and returns the URL through it: the
// outage phase cuts the proxy, never the database, which others may use.
func proxyStore(db string) (string, *tcpproxy.Proxy, error) {
	u, err := url.Parse(db)
	if err != nil {
		return "", nil, fmt.Errorf("--db: %w", err)
	}
	host := u.Host
	if u.Port() == "" {
		host = u.Host + ":5432"
	}
	p, err := tcpproxy.Start(host)
	if err != nil {
		return "", nil, err
	}
	u.Host = p.Addr()
	return u.String(), p, nil
}

// outageReport is what the outage phase measured beyond its tallies.
type outageReport struct {
	length time.Duration // how long the database was cut off
	at     time.Duration // when into the phase
	// lastRefused is how long after the database came back the last 503
	// was answered to a normal request, 0 when it was before; recovered
	// says that normal requests were answered 200 after it.
	lastRefused time.Duration
	recovered   bool
	// begun and ended count the server's log lines of an outage of the
	// store beginning and ending.
	begun, ended int
}

// outageLog counts the server's log lines of the store's outages.
type outageLog struct{ begun, ended atomic.Int64 }

// count counts a record by its message.
func (l *outageLog) count(message string) {
	switch message {
	case "store unavailable":
		l.begun.Add(1)
	case "store available again":
		l.ended.Add(1)
	}
}

// runOutage runs the outage phase: normal and hostile workers for length,
// with the database cut off from a third of the way for cfg.Outage. The
// server is left to notice the outage and its end by itself.
func (b *bench) runOutage(ctx context.Context, cfg config, length time.Duration, progress io.Writer) (phase, outageReport) {
	rep := outageReport{length: cfg.Outage, at: length / 3}
	hostile := cfg.hostileWorkers()
	begun, ended := b.outages.begun.Load(), b.outages.ended.Load()
	restored := make(chan time.Time, 1)
	go func() {
		sleep(ctx, rep.at)
		b.proxy.Cut()
		fmt.Fprintf(progress, "loadbench: database cut off for %s\n", cfg.Outage)
		sleep(ctx, cfg.Outage)
		if err := b.proxy.Restore(); err != nil {
			fmt.Fprintf(progress, "loadbench: %v\n", err)
		}
		restored <- time.Now()
	}()
	ph := b.phase(ctx, "outage", cfg.Rounds+1, length, cfg.Clients-hostile, hostile)
	back := <-restored
	b.awaitOutageEnd(ctx, ended, cfg.Settle)
	ph.settle = settle(ctx, cfg.Settle)
	rep.lastRefused = max(0, ph.lastRefused.Sub(back))
	rep.recovered = ph.lastOK.After(ph.lastRefused) && ph.lastOK.After(back)
	rep.begun = int(b.outages.begun.Load() - begun)
	rep.ended = int(b.outages.ended.Load() - ended)
	return ph, rep
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
}

// print writes what the outage phase measured.
func (o *outageReport) print(w io.Writer, p phase) {
	normal := p.normal
	fmt.Fprintf(w, "outage: the database cut off for %s, %s into a phase of %s: normal requests %d, answered 200 %d, 503 with Retry-After %d, other %d\n",
		o.length, o.at, p.length, normal.requests, normal.ok, normal.unavailable, normal.requests-normal.ok-normal.unavailable)
	fmt.Fprintf(w, "outage: the last 503 %.1f s after the database came back; served again by itself: %v; the server logged %d outage beginning(s) and %d end(s)\n",
		o.lastRefused.Seconds(), o.recovered, o.begun, o.ended)
}

// awaitOutageEnd asks GET /ready, as a load balancer would, until the
// server has logged the end of an outage more than the ended it had, for
// most at the longest: the server probes its store while requests come.
func (b *bench) awaitOutageEnd(ctx context.Context, ended int64, most time.Duration) {
	for end := time.Now().Add(most); b.outages.ended.Load() <= ended && time.Now().Before(end) && ctx.Err() == nil; {
		b.do(ctx, b.normal, http.MethodGet, "/ready", nil)
		sleep(ctx, 100*time.Millisecond)
	}
}

// held reports whether the service held through the outage: the normal
// requests of phase p were answered 200 (or another 2xx or 3xx) or 503
// with Retry-After, nothing else, they were served again after the last
// 503, and the server logged the outage's end.
func (o *outageReport) held(p phase) bool {
	return p.normal.requests == p.normal.ok+p.normal.unavailable && o.recovered && o.ended > 0
}
