// Package ratelimit limits how fast each API key may call, in the memory of
// one process.
//
// The algorithm is GCRA, the generic cell rate algorithm: for each key it
// keeps one instant, the theoretical arrival time (TAT) at which the key
// would have caught up with its steady rate. A request is allowed when the
// TAT is no further ahead of now than the burst allows, and moves the TAT on
// by one emission interval. It behaves as a token bucket refilled
// continuously, but needs one number per key and no refill timer.
package ratelimit

import (
	"context"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.RateLimiter = (*Limiter)(nil)

// sweepEvery is how often, in the limiter's clock, Allow drops the keys that
// have caught up with their rate.
const sweepEvery = time.Minute

// Rule is the rate limit of a key: one request per Interval on average, and
// up to Burst requests at once.
type Rule struct {
	Interval time.Duration
	Burst    int
}

// RuleFor returns the rule of key k's effective limits, and false when the
// key has no rate limit (a rate of zero).
func RuleFor(k tenderbase.Key) (Rule, bool) {
	l := k.Effective()
	if l.RatePerMinute <= 0 {
		return Rule{}, false
	}
	return Rule{Interval: time.Minute / time.Duration(l.RatePerMinute), Burst: max(l.Burst, 1)}, true
}

// Decide applies the rule to a key whose TAT is tat, at now. It returns the
// key's next TAT and zero when the request is allowed, and otherwise tat
// unchanged and how long to wait. A TAT in the past counts as now: a key
// idle for long has its whole burst again, and no more.
func (r Rule) Decide(tat, now time.Time) (next time.Time, retryAfter time.Duration) {
	if tat.Before(now) {
		tat = now
	}
	next = tat.Add(r.Interval)
	// The request may go when next lies within Burst intervals of now.
	if allowAt := next.Add(-time.Duration(r.Burst) * r.Interval); allowAt.After(now) {
		return tat, allowAt.Sub(now)
	}
	return next, 0
}

// Limiter is the in-memory limiter: one TAT per key id. It is safe for
// concurrent use. Its memory is bounded by the keys that called within the
// last few minutes, since a key whose TAT has passed is forgotten: it would
// be treated the same as a key never seen.
type Limiter struct {
	now func() time.Time

	mu        sync.Mutex
	tats      map[string]time.Time
	nextSweep time.Time
}

// New returns a limiter reading the time from clock, or from time.Now when
// clock is nil.
func New(clock func() time.Time) *Limiter {
	if clock == nil {
		clock = time.Now
	}
	return &Limiter{now: clock, tats: map[string]time.Time{}}
}

// Allow reports whether key k may make one more request now, as
// tenderbase.RateLimiter says. It never fails.
func (l *Limiter) Allow(ctx context.Context, k tenderbase.Key) (time.Duration, error) {
	rule, limited := RuleFor(k)
	if !limited {
		return 0, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweep(now)
	next, retryAfter := rule.Decide(l.tats[k.ID], now)
	if retryAfter == 0 {
		l.tats[k.ID] = next
	}
	return retryAfter, nil
}

// sweep forgets the keys whose TAT has passed, at most once per sweepEvery.
// Its cost, one pass over the keys, is spread over the requests of a
// minute.
func (l *Limiter) sweep(now time.Time) {
	if now.Before(l.nextSweep) {
		return
	}
	l.nextSweep = now.Add(sweepEvery)
	for id, tat := range l.tats {
		if !tat.After(now) {
			delete(l.tats, id)
		}
	}
}

// Len returns how many keys the limiter remembers.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tats)
}
