package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"slices"
	"time"
)

// tally counts the outcomes of the requests of one class.
type tally struct {
	requests int
	ok       int // 2xx and 3xx
	client   int // 4xx
	server   int // 5xx, but a 503 with Retry-After
	// unavailable counts the 503s with Retry-After: the store's outage,
	// which the outage phase expects and every other phase counts a 5xx.
	unavailable int
	timeouts    int // no answer within the request's timeout
	failed      int // the connection failed otherwise
	hungUp      int // the client hung up on purpose
}

// add counts o.
func (t *tally) add(o outcome) {
	t.requests++
	var netErr net.Error
	switch {
	case o.status == 503 && o.retryAfter:
		t.unavailable++
	case o.status >= 500:
		t.server++
	case o.hungUp:
		t.hungUp++
	case errors.Is(o.err, context.DeadlineExceeded) || errors.As(o.err, &netErr) && netErr.Timeout():
		t.timeouts++
	case o.err != nil || o.status == 0:
		t.failed++
	case o.status >= 400:
		t.client++
	default:
		t.ok++
	}
}

func (t *tally) merge(u *tally) {
	t.requests += u.requests
	t.ok += u.ok
	t.client += u.client
	t.server += u.server
	t.unavailable += u.unavailable
	t.timeouts += u.timeouts
	t.failed += u.failed
	t.hungUp += u.hungUp
}

// workerLog is what one worker logs in a phase.
type workerLog struct {
	hostile bool // the worker sends hostile requests
	tallies map[string]*tally
	latency []time.Duration // of the normal requests answered
	// lastRefused and lastOK are when a normal request was last answered
	// 503 with Retry-After, and 2xx or 3xx.
	lastRefused, lastOK time.Time
}

// work sends requests of classes, picked by weight, one after the other
// until end. The last one runs to its end, so that no request is cut
// short by the bench; only ctx being done cuts them.
func (w *workerLog) work(ctx context.Context, end time.Time, classes []class, rnd *rand.Rand) {
	total := 0
	for _, c := range classes {
		total += c.weight
	}
	for time.Now().Before(end) && ctx.Err() == nil {
		c := pickClass(classes, rnd.IntN(total))
		w.record(c, c.send(ctx, rnd))
	}
}

// pickClass returns the class that n, from 0 to the sum of the weights,
// falls on.
func pickClass(classes []class, n int) class {
	for _, c := range classes {
		if n < c.weight {
			return c
		}
		n -= c.weight
	}
	return classes[len(classes)-1]
}

func (w *workerLog) record(c class, o outcome) {
	t := w.tallies[c.name]
	if t == nil {
		t = &tally{}
		w.tallies[c.name] = t
	}
	t.add(o)
	if w.hostile {
		return
	}
	if o.err == nil && o.status > 0 {
		w.latency = append(w.latency, o.latency)
	}
	switch {
	case o.status == 503 && o.retryAfter:
		w.lastRefused = time.Now()
	case o.err == nil && o.status >= 200 && o.status < 400:
		w.lastOK = time.Now()
	}
}

// gather merges the logs of the workers of a phase.
func gather(name string, round int, length time.Duration, logs []*workerLog) phase {
	p := phase{name: name, round: round, length: length, tallies: map[string]*tally{}}
	for _, w := range logs {
		for class, t := range w.tallies {
			if p.tallies[class] == nil {
				p.tallies[class] = &tally{}
			}
			p.tallies[class].merge(t)
		}
		p.latency = append(p.latency, w.latency...)
		if !w.hostile {
			for _, t := range w.tallies {
				p.normal.merge(t)
			}
			p.lastRefused = later(p.lastRefused, w.lastRefused)
			p.lastOK = later(p.lastOK, w.lastOK)
		}
		if w.hostile {
			for _, t := range w.tallies {
				p.hostileSent += t.requests
			}
		}
	}
	slices.Sort(p.latency)
	return p
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// percentile returns the q-th percentile of sorted latencies, 0 for none.
func percentile(sorted []time.Duration, q int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*q + 99) / 100
	return sorted[max(0, i-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
