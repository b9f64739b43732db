package httpserver

import (
	"context"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/tenderbase/tenderbase"
)

// logRequests logs every request once it is answered: method, path, status,
// size and duration. It leaves out the query string, which can carry an
// api_code, and every header and body.
func logRequests(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			rec := &statusRecorder{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			logger.InfoContext(r.Context(), "request",
				"method", r.Method,
				"path", r.URL.Path,
				"status", rec.statusCode(),
				"bytes", rec.bytes,
				"duration", time.Since(start))
		})
	}
}

// statusRecorder remembers the status and size of a response.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(status int) {
	if s.status == 0 {
		s.status = status
	}
	s.ResponseWriter.WriteHeader(status)
}

func (s *statusRecorder) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(p)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer, so that
// streaming responses can still flush.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) statusCode() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}

// recoverPanics turns a panic in a handler into a logged internal error, so
// that one faulty request does not take the server down.
func recoverPanics(logger *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				if v == http.ErrAbortHandler {
					panic(v) // the documented way to abort a response; net/http handles it
				}
				logger.ErrorContext(r.Context(), "panic in handler",
					"method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				writeJSON(w, http.StatusInternalServerError,
					errorBody{errorDetail{Code: tenderbase.EINTERNAL, Message: "internal error"}})
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// limitBody bounds the size of request bodies. Reading past the bound fails
// with an *http.MaxBytesError, which the error adapter answers with 413.
func limitBody(maxBytes int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, maxBytes)
			next.ServeHTTP(w, r)
		})
	}
}

// limitTime gives every request's context a deadline d away, so that a
// store call still running then is cancelled and its connection freed. The
// deadline's cause is an ETIMEOUT error naming the limit, which the error
// writers answer with (tenderbase.ContextError) whatever the store's driver
// made of the cancellation.
func limitTime(d time.Duration) func(http.Handler) http.Handler {
	cause := tenderbase.Errorf(tenderbase.ETIMEOUT,
		"the request took longer than %s, the limit of one request; narrow the query or add filters, or try again when the service is less busy", d)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeoutCause(r.Context(), d, cause)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}
