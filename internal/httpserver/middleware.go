package httpserver

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/metrics"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// requestIDHeader carries a request's id: taken from the client when it
// sends a usable one, so that a proxy's id or the client's own follows the
// request into the log, and made up otherwise; echoed in the answer.
const requestIDHeader = "X-Request-Id"

// maxRequestIDBytes bounds a request id taken from a client.
const maxRequestIDBytes = 64

// observe gives every request an id and a reqinfo.Info for the handlers to
// fill in, and once the request is answered logs it in one line and counts
// it in the metrics (nil: none). The line has the method, path, route,
// status, size, duration in ms, the key's id (never its secret), the tool or
// export mode, and the request id (reqinfo.LogHandler). It leaves out the
// query string, which can carry an api_code, and every header and body.
func observe(logger *slog.Logger, m *metrics.Metrics) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			var done func(*reqinfo.Info, int)
			if m != nil {
				done = m.RequestStarted()
			}
			info := &reqinfo.Info{ID: requestID(r)}
			w.Header().Set(requestIDHeader, info.ID)
			r = r.WithContext(reqinfo.NewContext(r.Context(), info))
			rec := &statusRecorder{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			status := rec.statusCode()
			if done != nil {
				done(info, status)
			}
			attrs := []slog.Attr{
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", info.Route),
				slog.Int("status", status),
				slog.Int64("bytes", rec.bytes),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			}
			if info.KeyID != "" {
				attrs = append(attrs, slog.String("key", info.KeyID))
			}
			if info.Tool != "" {
				attrs = append(attrs, slog.String("tool", info.Tool))
			}
			if info.RateLimited {
				attrs = append(attrs, slog.Bool("rate_limited", true))
			}
			if info.Failure != "" {
				attrs = append(attrs, slog.String("failure", info.Failure))
			}
			logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
		})
	}
}

// requestID returns the client's X-Request-Id when it is a short token of
// printable ASCII without spaces, which cannot forge a log line, and a new
// random id otherwise.
func requestID(r *http.Request) string {
	id := r.Header.Get(requestIDHeader)
	if id != "" && len(id) <= maxRequestIDBytes && isToken(id) {
		return id
	}
	return rand.Text()
}

// isToken reports whether s is printable ASCII without spaces or quotes.
func isToken(s string) bool {
	for i := range len(s) {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
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
