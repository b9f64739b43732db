package httpserver

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// ReadyCheck is one condition of readiness: the store reachable with this
// build's schema and index, or the Redis of the shared rate limits
// answering.
type ReadyCheck struct {
	Name  string
	Check func(ctx context.Context) error
}

// readyTimeout bounds one readiness check: a probe that hangs is as bad as
// one that fails, and the orchestrator's probe has a timeout of its own
// (Kubernetes' default is one second).
const readyTimeout = 900 * time.Millisecond

// readiness runs the checks of GET /ready and logs each check's changes of
// state, once each: a Redis down for an hour is one warning and one info
// line, not one a probe.
type readiness struct {
	checks []ReadyCheck
	mu     sync.Mutex
	failed map[string]bool
}

func newReadiness(checks []ReadyCheck) *readiness {
	return &readiness{checks: checks, failed: make(map[string]bool)}
}

// readyBody is the answer of GET /ready: "ready" or "not ready", and each
// check's "ok" or "failing". Why a check fails is in the log, not here:
// the probe is served without a key, and the error of a database names its
// hosts.
type readyBody struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// ready answers GET /ready: 200 when every check passes, 503 when one does
// not, so that a load balancer sends no traffic to an instance that would
// fail it. /health stays the liveness probe: a store away is no reason to
// restart the process.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) error {
	results := s.readiness.run(r.Context())
	body := readyBody{Status: "ready", Checks: make(map[string]string, len(results))}
	status := http.StatusOK
	for i, err := range results {
		name := s.readiness.checks[i].Name
		s.readiness.report(r.Context(), s.logger, name, err)
		if err != nil {
			body.Checks[name] = "failing"
			body.Status, status = "not ready", http.StatusServiceUnavailable
			continue
		}
		body.Checks[name] = "ok"
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, body)
	return nil
}

// run runs every check at once, each bounded by readyTimeout, and returns
// their errors in the order of the checks.
func (rd *readiness) run(ctx context.Context) []error {
	results := make([]error, len(rd.checks))
	var wg sync.WaitGroup
	for i, c := range rd.checks {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, readyTimeout)
			defer cancel()
			results[i] = c.Check(ctx)
		})
	}
	wg.Wait()
	return results
}

// report logs a check that starts failing, with why, and one that passes
// again.
func (rd *readiness) report(ctx context.Context, logger *slog.Logger, name string, err error) {
	rd.mu.Lock()
	was := rd.failed[name]
	rd.failed[name] = err != nil
	rd.mu.Unlock()
	switch {
	case err != nil && !was:
		logger.WarnContext(ctx, "not ready", "check", name, "err", err)
	case err == nil && was:
		logger.InfoContext(ctx, "ready again", "check", name)
	}
}
