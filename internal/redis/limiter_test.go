package redis_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/redis"
)

// redisAddr is the Redis the tests use; TENDERBASE_TEST_REDIS names
// another.
func redisAddr() string {
	if addr := os.Getenv("TENDERBASE_TEST_REDIS"); addr != "" {
		return addr
	}
	return "127.0.0.1:6379"
}

// newClient connects to the test Redis, or skips the test when it does not
// answer.
func newClient(t *testing.T) *goredis.Client {
	t.Helper()
	addr := redisAddr()
	c := goredis.NewClient(&goredis.Options{Addr: addr, DialTimeout: time.Second})
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Skipf("Redis is not reachable on %s (%v): start one there, or name one in TENDERBASE_TEST_REDIS, to run the shared limiter tests", addr, err)
	}
	return c
}

// newPrefix returns a key prefix no other test uses, and removes its keys
// when the test ends.
func newPrefix(t *testing.T, c *goredis.Client) string {
	t.Helper()
	prefix := fmt.Sprintf("tenderbase-test:%s:%d:", t.Name(), time.Now().UnixNano())
	t.Cleanup(func() {
		ctx := context.Background()
		iter := c.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			c.Del(ctx, iter.Val())
		}
		if err := iter.Err(); err != nil {
			t.Errorf("clean up %s*: %v", prefix, err)
		}
	})
	return prefix
}

// key returns a key with a rate and burst of its own.
func key(id string, perMinute, burst int) tenderbase.Key {
	return tenderbase.Key{ID: id, Plan: tenderbase.PlanStandard,
		Overrides: tenderbase.Limits{RatePerMinute: perMinute, Burst: burst}}
}

// newLimiter returns a limiter over c whose calls to Redis are given far
// longer than the default, so that a busy machine does not fail a test by
// answering late.
func newLimiter(c goredis.Scripter, prefix string) *redis.Limiter {
	l := redis.NewLimiter(c, prefix)
	l.Timeout = time.Minute
	return l
}

func allow(t *testing.T, l tenderbase.RateLimiter, k tenderbase.Key) time.Duration {
	t.Helper()
	wait, err := l.Allow(t.Context(), k)
	if err != nil {
		t.Fatalf("Allow(%s): %v", k.ID, err)
	}
	return wait
}

func TestBurstThenWait(t *testing.T) {
	c := newClient(t)
	l := newLimiter(c, newPrefix(t, c))
	k := key("k_1", 1, 3) // one a minute: the burst does not come back during the test
	start := time.Now()
	for i := range 3 {
		if wait := allow(t, l, k); wait != 0 {
			t.Fatalf("request %d of the burst must wait %v", i+1, wait)
		}
	}
	// The wait is one interval from the first request of the burst, less
	// the time that passed since, however long that was.
	wait := allow(t, l, k)
	if passed := time.Since(start); wait < time.Minute-passed-time.Millisecond || wait > time.Minute {
		t.Errorf("past the burst: wait %v, %v after the burst began; want 1m less that", wait, passed)
	}
}

func TestKeysAreLimitedApart(t *testing.T) {
	c := newClient(t)
	l := newLimiter(c, newPrefix(t, c))
	allow(t, l, key("k_a", 1, 1))
	if allow(t, l, key("k_a", 1, 1)) == 0 {
		t.Error("k_a's second request allowed")
	}
	if wait := allow(t, l, key("k_b", 1, 1)); wait != 0 {
		t.Errorf("k_b waits %v for k_a's requests", wait)
	}
}

func TestStateExpires(t *testing.T) {
	c := newClient(t)
	prefix := newPrefix(t, c)
	l := newLimiter(c, prefix)
	start := time.Now()
	allow(t, l, key("k_1", 1, 5))
	ttl, err := c.PTTL(t.Context(), prefix+"k_1").Result()
	if err != nil {
		t.Fatal(err)
	}
	// After one request the key catches up with its rate in one interval,
	// of which some passed before the TTL was read; Redis keeps the TTL in
	// whole milliseconds.
	if passed := time.Since(start); ttl < time.Minute-passed-2*time.Millisecond || ttl > time.Minute {
		t.Errorf("TTL of the key's state %v, %v after the request; want one interval of 1m less that", ttl, passed)
	}
	// The TAT is kept whole, in microseconds, never rounded to a float.
	if _, err := c.Get(t.Context(), prefix+"k_1").Int64(); err != nil {
		t.Errorf("the stored TAT is not a whole number: %v", err)
	}
}

func TestTwoInstancesEnforceOneLimit(t *testing.T) {
	c1, c2 := newClient(t), newClient(t)
	prefix := newPrefix(t, c1)
	instances := []*redis.Limiter{newLimiter(c1, prefix), newLimiter(c2, prefix)}
	k := key("k_1", 1, 12) // one a minute: nothing comes back during the test
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := range 20 {
		l := instances[i%2]
		wg.Go(func() {
			for range 5 {
				wait, err := l.Allow(context.Background(), k)
				if err != nil {
					t.Error(err)
					return
				}
				if wait == 0 {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := allowed.Load(); n != 12 {
		t.Errorf("two instances allowed %d of 100 requests, want one burst of 12 between them", n)
	}
}

// TestUnreachableRedisIsAnError checks that a limiter without Redis fails,
// and that during the backoff after a failure it fails again without
// sending Redis a command: the commands the client is asked to send are
// counted, not timed.
func TestUnreachableRedisIsAnError(t *testing.T) {
	// Port 1 on the loopback refuses connections at once.
	c := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	defer c.Close()
	var sent commandCount
	c.AddHook(&sent)
	l := newLimiter(c, "")
	l.Backoff = time.Hour // the second call is within it however slow the machine
	k := key("k_1", 60, 1)
	if _, err := l.Allow(t.Context(), k); err == nil {
		t.Fatal("Allow without Redis: no error")
	}
	if n := sent.Load(); n == 0 {
		t.Fatal("Allow without Redis sent no command: the count does not see what the limiter sends")
	}
	before := sent.Load()
	if _, err := l.Allow(t.Context(), k); err == nil {
		t.Fatal("Allow right after a failure: no error")
	}
	if n := sent.Load() - before; n != 0 {
		t.Errorf("Allow during the backoff sent Redis %d commands, want none", n)
	}
}

// commandCount is a go-redis hook that counts the commands a client is
// asked to send, whether or not they reach a server.
type commandCount struct{ atomic.Int64 }

func (*commandCount) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (n *commandCount) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		n.Add(1)
		return next(ctx, cmd)
	}
}

func (n *commandCount) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

// TestOutageIsLoggedOnce takes Redis away from a limiter and gives it back:
// the limiter logs that it is unavailable once, however many requests fail,
// and that it is back once; go-redis's own lines go through slog at debug
// level rather than to stderr as plain text.
func TestOutageIsLoggedOnce(t *testing.T) {
	prefix := newPrefix(t, newClient(t)) // skips the test without Redis
	var down atomic.Bool
	down.Store(true)
	var dialer net.Dialer
	c := goredis.NewClient(&goredis.Options{Addr: redisAddr(), MaxRetries: -1,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if down.Load() {
				return nil, errors.New("connection refused")
			}
			return dialer.DialContext(ctx, network, addr)
		}})
	defer c.Close()
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	redis.SetClientLogger(logger)
	l := newLimiter(c, prefix)
	l.Logger, l.Backoff = logger, 10*time.Millisecond
	k := key("k_1", 6000, 1000)

	for range 5 { // past the backoff each time: five calls that fail
		if _, err := l.Allow(t.Context(), k); err == nil {
			t.Fatal("Allow while Redis is away: no error")
		}
		time.Sleep(20 * time.Millisecond)
	}
	down.Store(false)
	for range 5 {
		allow(t, l, k)
	}

	lines := map[string]int{}
	for line := range strings.Lines(logs.String()) {
		var entry struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("a log line is not JSON: %v\n%s", err, line)
		}
		lines[entry.Level+" "+entry.Msg]++
	}
	if lines["WARN rate limiter unavailable"] != 1 || lines["INFO rate limiter back"] != 1 || lines["DEBUG redis client"] == 0 {
		t.Errorf("log lines by level and message: %v; want one warning that the limiter is unavailable, "+
			"one line that it is back, and go-redis's lines at debug level:\n%s", lines, logs)
	}
}

// lockedBuffer is a buffer that goroutines may write to at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
