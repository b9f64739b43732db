package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/ratelimit"
)

// clock is a fake clock that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// key returns a key on plan with a rate and burst of its own.
func key(id string, perMinute, burst int) tenderbase.Key {
	return tenderbase.Key{ID: id, Plan: tenderbase.PlanStandard,
		Overrides: tenderbase.Limits{RatePerMinute: perMinute, Burst: burst}}
}

// allow calls l.Allow and fails the test on an error.
func allow(t *testing.T, l tenderbase.RateLimiter, k tenderbase.Key) time.Duration {
	t.Helper()
	wait, err := l.Allow(context.Background(), k)
	if err != nil {
		t.Fatalf("Allow(%s): %v", k.ID, err)
	}
	return wait
}

func TestBurstThenRate(t *testing.T) {
	c := newClock()
	l := ratelimit.New(c.now)
	k := key("k_1", 60, 3) // one a second, three at once

	for i := range 3 {
		if wait := allow(t, l, k); wait != 0 {
			t.Fatalf("request %d of the burst must wait %v", i+1, wait)
		}
	}
	if wait := allow(t, l, k); wait != time.Second {
		t.Fatalf("past the burst: wait %v, want 1s", wait)
	}
	c.advance(400 * time.Millisecond)
	if wait := allow(t, l, k); wait != 600*time.Millisecond {
		t.Fatalf("0.4s later: wait %v, want 0.6s", wait)
	}
	c.advance(600 * time.Millisecond)
	if wait := allow(t, l, k); wait != 0 {
		t.Fatalf("after the wait: refused for %v", wait)
	}
	if wait := allow(t, l, k); wait != time.Second {
		t.Fatalf("right after: wait %v, want 1s", wait)
	}
}

func TestSteadyRateIsNeverRefused(t *testing.T) {
	c := newClock()
	l := ratelimit.New(c.now)
	k := key("k_1", 120, 1)
	for i := range 1000 {
		if wait := allow(t, l, k); wait != 0 {
			t.Fatalf("request %d at the rate waits %v", i, wait)
		}
		c.advance(500 * time.Millisecond)
	}
}

func TestIdleKeyGetsItsBurstBackAndNoMore(t *testing.T) {
	c := newClock()
	l := ratelimit.New(c.now)
	k := key("k_1", 60, 5)
	c.advance(time.Hour)
	allowed := 0
	for range 20 {
		if allow(t, l, k) == 0 {
			allowed++
		}
	}
	if allowed != 5 {
		t.Errorf("%d requests allowed at once after an idle hour, want the burst of 5", allowed)
	}
}

func TestKeysAreLimitedApart(t *testing.T) {
	c := newClock()
	l := ratelimit.New(c.now)
	a, b := key("k_a", 60, 1), key("k_b", 60, 1)
	allow(t, l, a)
	if wait := allow(t, l, a); wait == 0 {
		t.Error("k_a's second request allowed")
	}
	if wait := allow(t, l, b); wait != 0 {
		t.Errorf("k_b waits %v for k_a's requests", wait)
	}
}

func TestPlanDefaults(t *testing.T) {
	c := newClock()
	l := ratelimit.New(c.now)
	for _, plan := range tenderbase.PlanNames {
		k := tenderbase.Key{ID: "k_" + string(plan), Plan: plan}
		limits := tenderbase.Plans[plan]
		allowed := 0
		for range limits.Burst + 10 {
			if allow(t, l, k) == 0 {
				allowed++
			}
		}
		if allowed != limits.Burst {
			t.Errorf("plan %s: %d allowed at once, want its burst %d", plan, allowed, limits.Burst)
		}
		if wait, want := allow(t, l, k), time.Minute/time.Duration(limits.RatePerMinute); wait != want {
			t.Errorf("plan %s: wait %v, want one interval %v", plan, wait, want)
		}
	}
}

func TestUnknownPlanGetsTheFreeRate(t *testing.T) {
	l := ratelimit.New(newClock().now)
	k := tenderbase.Key{ID: "k_1", Plan: "gold"}
	allowed := 0
	for range 100 {
		if allow(t, l, k) == 0 {
			allowed++
		}
	}
	if want := tenderbase.Plans[tenderbase.PlanFree].Burst; allowed != want {
		t.Errorf("%d allowed at once, want the free burst of %d", allowed, want)
	}
}

func TestIdleKeysAreForgotten(t *testing.T) {
	c := newClock()
	l := ratelimit.New(c.now)
	for _, id := range []string{"k_1", "k_2", "k_3"} {
		allow(t, l, key(id, 60, 10))
	}
	if n := l.Len(); n != 3 {
		t.Fatalf("Len %d, want 3", n)
	}
	c.advance(2 * time.Minute)
	allow(t, l, key("k_4", 60, 10))
	if n := l.Len(); n != 1 {
		t.Errorf("Len %d after two idle minutes, want only the key that just called", n)
	}
}

func TestConcurrentCallersShareOneBurst(t *testing.T) {
	c := newClock()
	l := ratelimit.New(c.now)
	k := key("k_1", 60, 25)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 10 {
				if allow(t, l, k) == 0 {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 25 {
		t.Errorf("%d of 500 simultaneous requests allowed, want the burst of 25", n)
	}
}

func TestDecide(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := ratelimit.Rule{Interval: time.Second, Burst: 2}
	tests := []struct {
		name     string
		tat      time.Time
		wantNext time.Time
		wantWait time.Duration
	}{
		{"never seen", time.Time{}, now.Add(time.Second), 0},
		{"in the past", now.Add(-time.Hour), now.Add(time.Second), 0},
		{"one ahead", now.Add(time.Second), now.Add(2 * time.Second), 0},
		{"burst used", now.Add(2 * time.Second), now.Add(2 * time.Second), time.Second},
		{"far ahead", now.Add(5 * time.Second), now.Add(5 * time.Second), 4 * time.Second},
	}
	for _, tt := range tests {
		next, wait := r.Decide(tt.tat, now)
		if !next.Equal(tt.wantNext) || wait != tt.wantWait {
			t.Errorf("%s: Decide = %v, %v; want %v, %v", tt.name, next, wait, tt.wantNext, tt.wantWait)
		}
	}
}
