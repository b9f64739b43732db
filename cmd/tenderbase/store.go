package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"regexp"
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
// password and its query, which may hold one (password=, sslpassword=).
func (sc storeConfig) String() string {
	if !urlScheme.MatchString(sc.DB) {
		return sc.DB
	}
	u, err := url.Parse(sc.DB)
	if err != nil {
		return "a URL that does not parse"
	}
	if u.RawQuery == "" {
		return u.Redacted()
	}
	u.RawQuery = ""
	return u.Redacted() + "?…"
}

// mustExist fails when the store is a SQLite file that is not there, so
// that a mistyped path is not taken for a new, empty store. A PostgreSQL
// database says itself whether it is there, when opened.
func (sc storeConfig) mustExist(hint string) error {
	if err := sc.check(); err != nil {
		return err
	}
	if sc.isPostgres() {
		return nil
	}
	if _, err := os.Stat(sc.DB); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no store at %s: %s", sc.DB, hint)
	}
	return nil
}

// isNewFile reports whether the store is a SQLite file not made yet.
func (sc storeConfig) isNewFile() bool {
	if sc.isPostgres() {
		return false
	}
	_, err := os.Stat(sc.DB)
	return errors.Is(err, fs.ErrNotExist)
}

// remove deletes a closed SQLite store's file and its journal.
func (sc storeConfig) remove(logger *slog.Logger) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(sc.DB + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			logger.Warn("remove the empty store", "path", sc.DB+suffix, "err", err)
		}
	}
}

// urlScheme matches the start of a URL: a scheme and "://".
var urlScheme = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*)://`)

// check refuses a configuration that names no store this build opens: a
// URL of another scheme is an error rather than the name of a SQLite file
// made in a folder called "mysql:", and so is an unknown log format.
func (sc storeConfig) check() error {
	if m := urlScheme.FindStringSubmatch(sc.DB); m != nil && !sc.isPostgres() {
		return tenderbase.Errorf(tenderbase.EINVALID,
			"--db %s: unknown scheme %q; give the path of a SQLite file or a postgres:// URL", tenderbase.Quote(sc.String()), m[1])
	}
	if sc.LogFormat != "" && sc.LogFormat != "json" && sc.LogFormat != "text" {
		return tenderbase.Errorf(tenderbase.EINVALID, "log format %q: use json or text", sc.LogFormat)
	}
	return nil
}

// openStore opens the store sc names: PostgreSQL for a postgres:// URL,
// else the SQLite file at the path.
func openStore(ctx context.Context, sc storeConfig, logger *slog.Logger) (tenderbase.Store, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	if sc.isPostgres() {
		s, err := postgres.Open(ctx, sc.DB, logger)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", sc, err)
		}
		return s, nil
	}
	return sqlite.Open(ctx, sc.DB, logger)
}
