// Package reqinfo carries what the handlers of a request learn about it, for
// the one log line and the metrics that report the request once it is
// answered: its id, the route it took, the key that called, the tool or
// export mode it ran, whether its rate limit refused it and whether the
// store's outage did. The HTTP
// middleware puts an Info in the request's context; the handlers below fill
// it in as they learn.
package reqinfo

import (
	"context"
	"log/slog"
)

// Info is what is known of one request. A request is handled by one
// goroutine at a time, so its handlers fill it in without locks.
type Info struct {
	// ID identifies the request in the log and to the client
	// (X-Request-Id).
	ID string
	// Route is the pattern of the route that served the request, "" when
	// none did.
	Route string
	// KeyID is the id of the caller's key, never its secret; "" for a
	// caller without one.
	KeyID string
	// Tool is the MCP tool the request called, or the export mode it ran.
	Tool string
	// RateLimited is set when the request was refused for its rate limit.
	RateLimited bool
	// Failure is the error code (tenderbase.ErrorCode) of a tool call or
	// an export that failed, "" for one that answered. On /mcp a failed
	// call is still an HTTP 200, so the status alone does not tell.
	Failure string
	// Unavailable is the error of the store, when the request was answered
	// 503 because the store could not be reached or could not write
	// (tenderbase.EUNAVAILABLE): the server tells the outage from these.
	Unavailable error
}

type contextKey struct{}

// NewContext returns ctx carrying info.
func NewContext(ctx context.Context, info *Info) context.Context {
	return context.WithValue(ctx, contextKey{}, info)
}

// From returns the Info of the request ctx belongs to. Outside a request
// (a test calling a handler alone) it returns a fresh Info that nobody
// reads, so that callers need not check.
func From(ctx context.Context) *Info {
	if info, ok := ctx.Value(contextKey{}).(*Info); ok {
		return info
	}
	return &Info{}
}

// LogHandler adds the request id to every record logged with the context
// of a request, so that a warning in a handler can be told apart from
// those of other requests and matched with the request's own line.
type LogHandler struct{ slog.Handler }

// Handle adds request_id when ctx belongs to a request.
func (h LogHandler) Handle(ctx context.Context, r slog.Record) error {
	if info, ok := ctx.Value(contextKey{}).(*Info); ok && info.ID != "" {
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", info.ID))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs keeps the request id in the loggers derived from h.
func (h LogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return LogHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup keeps the request id in the loggers derived from h.
func (h LogHandler) WithGroup(name string) slog.Handler {
	return LogHandler{h.Handler.WithGroup(name)}
}
