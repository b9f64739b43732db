// Package redis shares the rate limits of API keys between instances of the
// service through Redis.
package redis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/ratelimit"
)

var _ tenderbase.RateLimiter = (*Limiter)(nil)

// DefaultPrefix starts the Redis keys of the limiter when NewLimiter is
// given no prefix.
const DefaultPrefix = "tenderbase:rate:"

// Defaults of a Limiter's fields.
const (
	// defaultTimeout bounds one decision: a limiter that answers late delays
	// every request, which is worse than letting some through.
	defaultTimeout = 250 * time.Millisecond
	// defaultBackoff is how long the limiter stops asking Redis after a
	// failure, so that an outage costs each request nothing rather than a
	// timeout.
	defaultBackoff = time.Second
)

// gcra is ratelimit.Rule.Decide in Lua, run atomically by Redis. The time is
// Redis's own (TIME), in microseconds, so that instances whose clocks
// disagree still share one limit. KEYS[1] holds the key's TAT; ARGV[1] is the
// emission interval in microseconds and ARGV[2] the burst. It returns 0 when
// the request is allowed, and otherwise the wait in microseconds.
//
// Microseconds since 1970 stay below 2^53, so Lua's doubles hold them
// exactly; string.format writes them whole, where tostring would round.
var gcra = goredis.NewScript(`
redis.replicate_commands() -- Redis 5 and 6: replicate the SET, not the script reading TIME
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or 0) or 0
if tat < now then tat = now end
local nexttat = tat + interval
local allowat = nexttat - burst * interval
if allowat > now then return allowat - now end
redis.call('SET', KEYS[1], string.format('%.0f', nexttat), 'PX', math.ceil((nexttat - now) / 1000))
return 0
`)

// Limiter is the rate limiter shared through Redis. It keeps one TAT per
// key, which expires once the key has caught up with its rate, so Redis
// holds only the keys that called recently. It is safe for concurrent use.
type Limiter struct {
	client goredis.Scripter
	prefix string
	// Timeout bounds one call to Redis; Backoff is how long the limiter
	// answers with the last error, without calling, after a failure. Logger
	// is told when Redis stops answering and when it answers again, once
	// each; nil discards that. Set them, if at all, before the first Allow.
	Timeout time.Duration
	Backoff time.Duration
	Logger  *slog.Logger

	mu        sync.Mutex
	downUntil time.Time
	lastErr   error
	// failing is set from the first failure until Redis answers again.
	failing atomic.Bool
}

// NewLimiter returns a limiter that keeps its state in Redis through client,
// under keys that start with prefix (DefaultPrefix when empty). Instances
// that share a Redis and a prefix enforce one limit together.
func NewLimiter(client goredis.Scripter, prefix string) *Limiter {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return &Limiter{client: client, prefix: prefix, Timeout: defaultTimeout, Backoff: defaultBackoff}
}

// Allow reports whether key k may make one more request now, as
// tenderbase.RateLimiter says. It fails when Redis cannot be reached, and
// for Backoff after that.
func (l *Limiter) Allow(ctx context.Context, k tenderbase.Key) (time.Duration, error) {
	rule, limited := ratelimit.RuleFor(k)
	if !limited {
		return 0, nil
	}
	if err := l.down(); err != nil {
		return 0, err
	}
	callCtx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	interval := max(rule.Interval.Microseconds(), 1)
	wait, err := gcra.Run(callCtx, l.client, []string{l.prefix + k.ID}, interval, rule.Burst).Int64()
	if err != nil {
		err = fmt.Errorf("redis rate limiter: %w", err)
		if ctx.Err() == nil {
			// Only Redis's failure, not the caller's giving up, backs off.
			l.fail(err)
		}
		return 0, err
	}
	l.answered()
	return time.Duration(wait) * time.Microsecond, nil
}

// down returns the last error while the limiter backs off, and nil after.
func (l *Limiter) down() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lastErr == nil || !time.Now().Before(l.downUntil) {
		return nil
	}
	return fmt.Errorf("%w: %w", errBackingOff, l.lastErr)
}

// errBackingOff says that Redis was not asked because it just failed.
var errBackingOff = errors.New("not asking Redis for a moment after it failed")

// fail backs off after err, and logs the outage if it starts with err.
func (l *Limiter) fail(err error) {
	l.mu.Lock()
	l.lastErr = err
	l.downUntil = time.Now().Add(l.Backoff)
	l.mu.Unlock()
	if l.failing.CompareAndSwap(false, true) && l.Logger != nil {
		l.Logger.Warn("rate limiter unavailable", "err", err,
			"effect", "requests pass without rate limits until Redis answers")
	}
}

// answered logs the end of an outage, once, when Redis answers again.
func (l *Limiter) answered() {
	if l.failing.Load() && l.failing.CompareAndSwap(true, false) && l.Logger != nil {
		l.Logger.Info("rate limiter back")
	}
}
