package httpserver

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// probeEvery bounds how often the store is probed while it is unavailable.
const probeEvery = time.Second

// outage follows an outage of the store as the requests meet it, so that
// the log tells it once and not once a request: the first request answered
// 503 for it logs that it began, with the store's error, and the first
// probe of the store that passes afterwards logs that it ended, how long
// it lasted and how many requests were answered 503 meanwhile. While it
// lasts, a request that ends starts a probe, one at a time and one a
// second at most: no goroutine is left running when no request comes.
type outage struct {
	logger *slog.Logger
	// probe asks the store something cheap; nil or ENOTFOUND means it
	// answered.
	probe func(ctx context.Context) error

	mu        sync.Mutex
	since     time.Time // when the outage began; zero when there is none
	refused   int       // requests answered 503 since
	probing   bool
	lastProbe time.Time
}

// follow counts the requests of next that the outage stopped, and probes
// the store after each request while it lasts.
func (o *outage) follow(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
		if err := reqinfo.From(r.Context()).Unavailable; err != nil {
			o.refuse(r.Context(), err)
		}
		if o.probeDue() {
			go o.probeStore()
		}
	})
}

// refuse counts a request answered 503 for err, and logs the outage if it
// begins with it.
func (o *outage) refuse(ctx context.Context, err error) {
	o.mu.Lock()
	began := o.since.IsZero()
	if began {
		o.since, o.refused = time.Now(), 0
	}
	o.refused++
	o.mu.Unlock()
	if began {
		o.logger.WarnContext(ctx, "store unavailable", "err", err,
			"effect", "requests that need the store are answered 503 unavailable until it answers again")
	}
}

// probeDue reports whether a probe should start now, and marks it started.
func (o *outage) probeDue() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.since.IsZero() || o.probing || time.Since(o.lastProbe) < probeEvery {
		return false
	}
	o.probing, o.lastProbe = true, time.Now()
	return true
}

// probeStore probes the store, within readyTimeout, and ends the outage
// if it answers.
func (o *outage) probeStore() {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	err := o.probe(ctx)
	answered := err == nil || tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND
	o.mu.Lock()
	o.probing = false
	since, refused := o.since, o.refused
	if answered {
		o.since = time.Time{}
	}
	o.mu.Unlock()
	if answered && !since.IsZero() {
		o.logger.Info("store available again", "lasted", time.Since(since).Round(time.Millisecond).String(), "answered_503", refused)
	}
}

// unavailableRetry is the Retry-After of every 503 unavailable: while the
// service starts, and while its store cannot be reached or cannot write.
const unavailableRetry = 5 * time.Second

// setRetryAfter sets the Retry-After of an answer 503 unavailable.
func setRetryAfter(h http.Header) {
	h.Set("Retry-After", strconv.Itoa(retrySeconds(unavailableRetry)))
}
