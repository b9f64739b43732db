package httpserver

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// limitRate answers 429 with Retry-After to a key over its rate limit. It
// goes inside requireKey, which puts the key in the context; a request
// without a key, or a server without a limiter, passes.
func (s *Server) limitRate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if secs, err := s.checkRate(r); err != nil {
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkRate asks the limiter whether the caller's key may make this
// request. Over the limit it returns an ERATELIMITED error and the whole
// seconds to wait.
func (s *Server) checkRate(r *http.Request) (int, error) {
	k, ok := tenderbase.KeyFromContext(r.Context())
	if !ok {
		return 0, nil
	}
	return s.askLimiter(r, k, "key "+k.ID)
}

// checkAnonymousRate asks the limiter whether a caller without a key may
// make this request, counted by its client address.
func (s *Server) checkAnonymousRate(r *http.Request) (int, error) {
	addr := s.cfg.Anonymous.clientAddress(r)
	k := tenderbase.Key{ID: "anonymous:" + addr, Plan: tenderbase.PlanFree, Overrides: s.anonymousLimits}
	return s.askLimiter(r, k, "callers without a key from "+addr)
}

// askLimiter asks the limiter whether k may make one more request; who
// names the caller in the refusal. A limiter that cannot decide lets the
// request through: its outage must not become an outage of the service.
// The limiter reports the outage itself, once; here it is only a debug
// line.
func (s *Server) askLimiter(r *http.Request, k tenderbase.Key, who string) (int, error) {
	if s.cfg.Limiter == nil {
		return 0, nil
	}
	wait, err := s.cfg.Limiter.Allow(r.Context(), k)
	if err != nil {
		s.logger.DebugContext(r.Context(), "rate limiter failed; request let through", "key", k.ID, "err", err)
		return 0, nil
	}
	if wait <= 0 {
		return 0, nil
	}
	secs := retrySeconds(wait)
	reqinfo.From(r.Context()).RateLimited = true
	l := k.Effective()
	return secs, tenderbase.Errorf(tenderbase.ERATELIMITED,
		"rate limit of %s exceeded (%d requests a minute, %d at once): retry in %d s",
		who, l.RatePerMinute, l.Burst, secs)
}

// anonymousLimits returns the limits of one client address without a key:
// those configured, bounded by the free plan's, so that a key is never
// worse than none.
func anonymousLimits(a Anonymous) tenderbase.Limits {
	free := tenderbase.Plans[tenderbase.PlanFree]
	rate, burst := a.RatePerMinute, a.Burst
	if rate <= 0 || rate > free.RatePerMinute {
		rate = free.RatePerMinute
	}
	if burst <= 0 || burst > free.Burst {
		burst = free.Burst
	}
	return tenderbase.Limits{RatePerMinute: rate, Burst: min(burst, rate)}
}

// retrySeconds rounds a wait up to whole seconds, the unit of Retry-After,
// and to at least one, since 0 would invite an immediate retry.
func retrySeconds(wait time.Duration) int {
	return max(1, int(math.Ceil(wait.Seconds())))
}
