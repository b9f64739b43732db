package httpserver

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/tenderbase/tenderbase"
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
// seconds to wait. A limiter that cannot decide lets the request through:
// its outage must not become an outage of the service. The limiter reports
// the outage itself, once; here it is only a debug line.
func (s *Server) checkRate(r *http.Request) (int, error) {
	k, ok := tenderbase.KeyFromContext(r.Context())
	if !ok || s.cfg.Limiter == nil {
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
	l := k.Effective()
	return secs, tenderbase.Errorf(tenderbase.ERATELIMITED,
		"rate limit of key %s exceeded (%d requests a minute, %d at once): retry in %d s",
		k.ID, l.RatePerMinute, l.Burst, secs)
}

// retrySeconds rounds a wait up to whole seconds, the unit of Retry-After,
// and to at least one, since 0 would invite an immediate retry.
func retrySeconds(wait time.Duration) int {
	return max(1, int(math.Ceil(wait.Seconds())))
}
