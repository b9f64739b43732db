package redis

import (
	"context"
	"fmt"
	"log/slog"

	goredis "github.com/redis/go-redis/v9"
)

// SetClientLogger sends the go-redis client's own log lines to logger, at
// debug level as "redis client" with the line as its detail. By default
// go-redis prints them to stderr as plain text, which breaks a JSON log and
// repeats itself for every connection it fails to make while Redis is away;
// the limiter logs an outage itself, once. go-redis keeps one logger for
// the whole process, so main calls this, once.
func SetClientLogger(logger *slog.Logger) {
	goredis.SetLogger(clientLogger{logger})
}

// clientLogger is the logging interface of go-redis over slog.
type clientLogger struct{ logger *slog.Logger }

func (l clientLogger) Printf(ctx context.Context, format string, v ...any) {
	if ctx == nil {
		ctx = context.Background()
	}
	if l.logger.Enabled(ctx, slog.LevelDebug) {
		l.logger.DebugContext(ctx, "redis client", "detail", fmt.Sprintf(format, v...))
	}
}
