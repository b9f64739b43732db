package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// isPostgres reports whether the store is a PostgreSQL database, named by
// its URL, rather than the path of a SQLite file.
func (sc storeConfig) isPostgres() bool {
	return strings.HasPrefix(sc.DB, "postgres://") || strings.HasPrefix(sc.DB, "postgresql://")
}

// String names the store for people: the path, or the URL without its
// password.
func (sc storeConfig) String() string {
	if !sc.isPostgres() {
		return sc.DB
	}
	u, err := url.Parse(sc.DB)
	if err != nil {
		return "a PostgreSQL URL that does not parse"
	}
	return u.Redacted()
}

// mustExist fails when the store is a SQLite file that is not there, so
// that a mistyped path is not taken for a new, empty store. A PostgreSQL
// database says itself whether it is there, when opened.
func (sc storeConfig) mustExist(hint string) error {
	if sc.isPostgres() {
		return nil
	}
	if _, err := os.Stat(sc.DB); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no store at %s: %s", sc.DB, hint)
	}
	return nil
}

// openStore opens the store sc names: PostgreSQL for a postgres:// URL,
// else the SQLite file at the path.
func openStore(ctx context.Context, sc storeConfig, logger *slog.Logger) (tenderbase.Store, error) {
	if sc.isPostgres() {
		s, err := postgres.Open(ctx, sc.DB, logger)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", sc, err)
		}
		return s, nil
	}
	return sqlite.Open(ctx, sc.DB, logger)
}
