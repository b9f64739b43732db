package main

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// serverLog is the server's logger in the bench. It passes warnings and
// errors on, and counts the 5xx the server answered from its request log,
// which holds those that no client saw, having hung up or given up, and
// the lines of the store's outages; the end of one is passed on too.
type serverLog struct {
	slog.Handler // where warnings and errors go
	answered5xx  *atomic.Int64
	outages      *outageLog
}

func (h serverLog) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= slog.LevelInfo
}

func (h serverLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "request" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "status" && a.Value.Kind() == slog.KindInt64 && a.Value.Int64() >= 500 {
				h.answered5xx.Add(1)
			}
			return true
		})
	}
	h.outages.count(r.Message)
	if r.Level < slog.LevelWarn && r.Message != "store available again" {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h serverLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return serverLog{h.Handler.WithAttrs(attrs), h.answered5xx, h.outages}
}

func (h serverLog) WithGroup(name string) slog.Handler {
	return serverLog{h.Handler.WithGroup(name), h.answered5xx, h.outages}
}
