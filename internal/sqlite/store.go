// Package sqlite is the embedded store: records, their versions, lookups and
// full-text search in one SQLite file, through the pure-Go modernc.org/sqlite
// driver, as docs/SEARCH.md designs it.
//
// One connection writes and a pool of connections reads; the file is in WAL
// mode, so searches run while an import writes and see either all of a Put
// or none of it.
//
// Every current record has a rid, the unix second of its date shifted left
// 22 bits plus a sequence within that second, so that newest first is
// descending rid. The rid is the rowid of the record's row in its kind's
// contentless FTS5 table, whose columns hold the stems (s) and the exact
// forms (e) of the text every plan may match, those of the text of the
// record's tariff fields (ts, te), which only paid plans match, and the
// filter flags (f); text is analyzed in Go by internal/textproc. A query
// becomes one MATCH expression, filters included,
// and FTS5 yields matches in rowid order, so the newest page stops after
// the page's rows.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"runtime"
	"strconv"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
)

var (
	_ tenderbase.Store   = (*Store)(nil)
	_ tenderbase.Readier = (*Store)(nil)
)

// busyTimeoutMS is how long a connection waits for a lock before SQLITE_BUSY.
// In WAL mode readers never wait for the writer; the wait covers checkpoints
// and another process holding the file.
const busyTimeoutMS = 10000

// Store is the embedded store. It is safe for concurrent use.
type Store struct {
	// write holds one connection, so Puts queue for it in Go instead of
	// waiting on SQLite's lock.
	write  *pool
	read   *pool // read-only connections, one per concurrent search
	totals *totals
	// recent keeps the postings chunks the last Put wrote, for the next.
	recent *postings.Recent
	logger *slog.Logger

	// path and opened are the store file's path and what it was when
	// opened, for Ready to tell when it is gone; schemaVersion is the
	// newest migration this build applies.
	path          string
	opened        os.FileInfo
	schemaVersion string
}

// Open opens or creates the store in the SQLite file at path and brings its
// schema up to date. A nil logger discards.
func Open(ctx context.Context, path string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	write, err := openDB(path, false, 1)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, write, logger); err != nil {
		write.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := checkAnalysis(ctx, write, logger); err != nil {
		write.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	read, err := openDB(path, true, n)
	if err != nil {
		write.Close()
		return nil, err
	}
	opened, err := os.Stat(path)
	if err != nil {
		write.Close()
		read.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	all, err := loadMigrations()
	if err != nil {
		write.Close()
		read.Close()
		return nil, err
	}
	return &Store{write: newPool(write, 1), read: newPool(read, n), totals: newTotals(), recent: &postings.Recent{}, logger: logger,
		path: path, opened: opened, schemaVersion: strconv.Itoa(all[len(all)-1].Version)}, nil
}

// openDB opens a pool of n connections to the file at path.
func openDB(path string, readOnly bool, n int) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "foreign_keys(1)")
	// 32 MB for every connection. The writer held 256 MiB for a while,
	// with a checkpoint every 20,000 pages: an import of 100,000 tenders
	// went 1.2x faster, but a round of the mailings, searches on the
	// readers, 1.5x slower (docs/performance.md, "Import").
	q.Add("_pragma", "cache_size(-32000)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "journal_mode(wal)")
		// NORMAL in WAL mode loses at most the last transactions on power
		// failure, never consistency; an import can be run again.
		q.Add("_pragma", "synchronous(normal)")
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(0)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, describe(err))
	}
	return db, nil
}

// Close closes both pools.
func (s *Store) Close() error {
	return errors.Join(s.read.close(), s.write.close())
}

// Errors that say what a driver result code means to the person who gave
// the path.
var (
	errNotDatabase = errors.New("the file is not a tenderbase SQLite store (not a database, or encrypted)")
	errCorrupt     = errors.New("the database file is corrupt")
	errCantOpen    = errors.New("cannot open the database file (missing directory or no permission)")
)

// describe puts one of the errors above in front of a driver error whose
// code the caller can act on, once, keeping the driver error in the chain.
func describe(err error) error {
	var plain error
	switch code(err) {
	case sqlite3.SQLITE_NOTADB:
		plain = errNotDatabase
	case sqlite3.SQLITE_CORRUPT:
		plain = errCorrupt
	case sqlite3.SQLITE_CANTOPEN:
		plain = errCantOpen
	}
	if plain == nil || errors.Is(err, plain) {
		return err
	}
	return fmt.Errorf("%w: %w", plain, err)
}

// unavailable marks err EUNAVAILABLE when its result code says that the
// store cannot be read or written now, whatever was asked of it: the disk
// (or the file's size limit) is full, the operating system failed a read or
// a write, another process held the file locked past the busy timeout, or
// the file or its journal cannot be opened. The caller is told to retry;
// any other error is returned as it is.
func unavailable(err error) error {
	switch code(err) {
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_CANTOPEN:
		return tenderbase.Unavailable(err)
	}
	return err
}

// code returns the primary SQLite result code of err, or 0 for an error that
// did not come from SQLite.
func code(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code() & 0xff
	}
	return 0
}
