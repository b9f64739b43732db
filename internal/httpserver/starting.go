package httpserver

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
)

// startingAnswer answers every request while the service starts: its store
// is being opened, migrated, or indexed again after an upgrade, which on a
// large store takes many minutes. The process is alive, so /health says so
// and a liveness probe does not restart it (and the indexing start over);
// /ready and every other route are 503 with Retry-After, so that no traffic
// is sent to it and a client knows to come back.
func startingAnswer(w http.ResponseWriter, r *http.Request) {
	retry := strconv.Itoa(retrySeconds(unavailableRetry))
	switch r.URL.Path {
	case "/health":
		writeJSON(w, http.StatusOK, map[string]string{"status": "starting"})
	case "/ready":
		setRetryAfter(w.Header())
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusServiceUnavailable, readyBody{Status: "starting", Checks: map[string]string{}})
	default:
		setRetryAfter(w.Header())
		writeJSON(w, http.StatusServiceUnavailable, errorBody{errorDetail{Code: tenderbase.EUNAVAILABLE,
			Message: "the service is starting: its store is being opened (after an upgrade, indexed again); retry in " + retry + " s"}})
	}
}

// ServeStarting answers on ln while the service starts (startingAnswer),
// and returns what stops it, leaving ln open for the server proper: the
// address is taken and answered from the first moment, rather than refusing
// or holding connections while the store opens. It needs a TCP listener,
// whose Accept a deadline can wake; on another it serves nothing. A nil
// logger discards.
func ServeStarting(ln net.Listener, logger *slog.Logger) (stop func()) {
	tcp, ok := ln.(*net.TCPListener)
	if !ok {
		return func() {}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	hs := &http.Server{
		Handler:           http.HandlerFunc(startingAnswer),
		ReadHeaderTimeout: 5 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hs.Serve(keepOpen{tcp}) // returns ErrServerClosed once stopped
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), unavailableRetry)
			defer cancel()
			_ = hs.Shutdown(ctx) // the answers are instant; past the wait, connections are left to close
			<-done
			_ = tcp.SetDeadline(time.Time{})
		})
	}
}

// keepOpen is a listener whose Close wakes a pending Accept, through a
// deadline in the past, without closing the socket, so that one server can
// hand the address to the next without a moment in which it is free.
type keepOpen struct{ *net.TCPListener }

func (k keepOpen) Close() error { return k.SetDeadline(time.Now()) }
