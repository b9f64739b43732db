package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// handlerFunc is a handler that returns its error instead of writing it, so
// that one adapter, handle, writes every error response the same way.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle adapts h to an http.Handler that writes h's error, if any.
func (s *Server) handle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// statusOf maps the error codes a caller can act on to HTTP statuses. Any
// other code is an internal error.
var statusOf = map[string]int{
	tenderbase.EINVALID:      http.StatusBadRequest,
	tenderbase.EUNAUTHORIZED: http.StatusUnauthorized,
	tenderbase.EFORBIDDEN:    http.StatusForbidden,
	tenderbase.ENOTFOUND:     http.StatusNotFound,
	tenderbase.ERATELIMITED:  http.StatusTooManyRequests,
	// A request past its deadline usually means a busy service; 503 is
	// what net/http's own TimeoutHandler answers.
	tenderbase.ETIMEOUT:     http.StatusServiceUnavailable,
	tenderbase.EUNAVAILABLE: http.StatusServiceUnavailable,
}

// errorBody is the JSON of every error response.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// mediaTypeError refuses a request body of a type the endpoint does not
// read: 415, with code invalid.
type mediaTypeError struct{ message string }

func (e *mediaTypeError) Error() string { return e.message }

// writeError writes err as a JSON error response.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, code, message := s.classify(w, r, err)
	writeJSON(w, status, errorBody{errorDetail{Code: code, Message: message}})
}

// classify returns the status, code and message that answer err, for every
// interface in its own format. An internal error is logged here, once, and
// the caller only learns that it happened. A store that cannot be reached
// is not logged here but counted, for the log of its outage (outage), and
// answered 503 with Retry-After, which classify sets on w.
func (s *Server) classify(w http.ResponseWriter, r *http.Request, err error) (status int, code, message string) {
	err = tenderbase.ContextError(r.Context(), err)
	code = tenderbase.ErrorCode(err)
	status, known := statusOf[code]
	message = tenderbase.ErrorMessage(err)
	var tooLarge *http.MaxBytesError
	var mediaType *mediaTypeError
	switch {
	case errors.As(err, &tooLarge):
		status, code = http.StatusRequestEntityTooLarge, tenderbase.EINVALID
		message = fmt.Sprintf("request body is larger than %d bytes", tooLarge.Limit)
	case errors.As(err, &mediaType):
		status, code, message = http.StatusUnsupportedMediaType, tenderbase.EINVALID, mediaType.message
	case code == tenderbase.EUNAVAILABLE:
		reqinfo.From(r.Context()).Unavailable = err
		setRetryAfter(w.Header())
		message = fmt.Sprintf("%s: retry in %d s", message, retrySeconds(unavailableRetry))
	case !known:
		s.logFailure(r, err)
		status, code, message = http.StatusInternalServerError, tenderbase.EINTERNAL, "internal error"
	}
	if info := reqinfo.From(r.Context()); info.Tool != "" {
		info.Failure = code
	}
	return status, code, message
}

// logFailure logs an internal error, once. A request whose client went
// away failed for no fault of ours, and nobody reads its answer: that is
// worth a line at info level, not an error.
func (s *Server) logFailure(r *http.Request, err error) {
	if errors.Is(err, context.Canceled) {
		s.logger.InfoContext(r.Context(), "request cancelled: the client went away", "method", r.Method, "path", r.URL.Path)
		return
	}
	s.logger.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
}

// writeJSON writes v as the JSON body of a response with the given status.
// A failure to write means the client has gone; there is nobody to tell.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false) // the body is JSON, never embedded in HTML
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		body.Reset()
		body.WriteString(`{"error":{"code":"internal","message":"internal error"}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(body.Bytes())
}

// notFound answers a path no route serves.
func notFound(w http.ResponseWriter, r *http.Request) error {
	return tenderbase.Errorf(tenderbase.ENOTFOUND, "no such endpoint: %s", tenderbase.Quote(r.Method+" "+r.URL.Path))
}
