package main

import (
	"context"
	"log/slog"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// validate checks that the store named can be opened by this build.
func (sc storeConfig) validate() error {
	if strings.HasPrefix(sc.DB, "postgres://") || strings.HasPrefix(sc.DB, "postgresql://") {
		return tenderbase.Errorf(tenderbase.EINVALID,
			"--db: PostgreSQL is not supported yet; give the path of a SQLite file")
	}
	return nil
}

// openStore opens the store sc names.
func openStore(ctx context.Context, sc storeConfig, logger *slog.Logger) (tenderbase.Store, error) {
	if err := sc.validate(); err != nil {
		return nil, err
	}
	return sqlite.Open(ctx, sc.DB, logger)
}
