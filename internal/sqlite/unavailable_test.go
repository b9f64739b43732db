package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestPutWhenFull checks that a Put the store cannot write for want of
// room fails EUNAVAILABLE, with SQLite's own error in the chain, while the
// store still reads, and that it writes again by itself once there is
// room. The room is the file's page limit (max_page_count), which SQLite
// answers with the code of a full disk.
func TestPutWhenFull(t *testing.T) {
	s := openTest(t)
	ctx := t.Context()
	put(t, s, tender("1", 1, "Поставка бумаги", 1))
	setMaxPages(t, s, "page_count")
	var big []tenderbase.Record
	for i := range 200 {
		big = append(big, tender(fmt.Sprint(100+i), 1, strings.Repeat(fmt.Sprintf("Поставка бумаги формата A%d ", i), 200), 2))
	}
	_, err := s.Put(ctx, big)
	if tenderbase.ErrorCode(err) != tenderbase.EUNAVAILABLE || code(err) != 13 {
		t.Fatalf("Put on a full store: %v (code %s, SQLite %d), want unavailable with SQLITE_FULL", err, tenderbase.ErrorCode(err), code(err))
	}
	if _, err := s.Get(ctx, tenderbase.KindTender, "1"); err != nil {
		t.Errorf("Get on a full store: %v", err)
	}
	setMaxPages(t, s, "1073741823")
	if _, err := s.Put(ctx, big); err != nil {
		t.Errorf("Put once there is room again: %v", err)
	}
}

// setMaxPages sets the writer's max_page_count to value, a number or
// page_count (the pages the file has now, so that it cannot grow).
func setMaxPages(t *testing.T, s *Store, value string) {
	t.Helper()
	err := s.write.run(t.Context(), func(c *conn) error {
		n := value
		if value == "page_count" {
			if err := c.c.QueryRowContext(t.Context(), "PRAGMA page_count").Scan(&n); err != nil {
				return err
			}
		}
		_, err := c.c.ExecContext(t.Context(), "PRAGMA max_page_count = "+n)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUnavailableCodes checks the classification on errors the driver
// really returns: a disk full (/dev/full, where every write fails with
// ENOSPC), a file locked by another connection past the busy timeout, a
// file that cannot be opened; and that a mistake in a statement or a
// broken constraint stay internal errors.
func TestUnavailableCodes(t *testing.T) {
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked.db")
	holder := rawDB(t, locked)
	exec(t, holder, "CREATE TABLE t (x INTEGER PRIMARY KEY)")
	exec(t, holder, "INSERT INTO t VALUES (1)")
	hold, err := holder.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	if _, err := hold.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer hold.ExecContext(context.Background(), "ROLLBACK")
	tests := []struct {
		name        string
		db          execer
		statement   string
		unavailable bool
	}{
		{"locked past the busy timeout", rawDB(t, locked), "INSERT INTO t VALUES (2)", true},
		{"cannot open", rawDB(t, filepath.Join(dir, "missing", "x.db")), "CREATE TABLE t (x)", true},
		{"a statement that is wrong", rawDB(t, filepath.Join(dir, "other.db")), "SELEKT 1", false},
		{"a broken constraint", hold, "INSERT INTO t VALUES (1)", false},
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		tests = append(tests, struct {
			name        string
			db          execer
			statement   string
			unavailable bool
		}{"disk full", rawDB(t, "/dev/full", "journal_mode(off)"), "CREATE TABLE t (x)", true})
	}
	for _, tt := range tests {
		_, err := tt.db.ExecContext(t.Context(), tt.statement)
		if err == nil || code(err) == 0 {
			t.Errorf("%s: %v, want an error of SQLite", tt.name, err)
			continue
		}
		got := unavailable(fmt.Errorf("put: %w", err))
		if (tenderbase.ErrorCode(got) == tenderbase.EUNAVAILABLE) != tt.unavailable {
			t.Errorf("%s: %v (SQLite code %d) classified %s, want unavailable %v", tt.name, err, code(err), tenderbase.ErrorCode(got), tt.unavailable)
		}
	}
}

// execer is a database or one of its connections.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// rawDB opens the file at path with the driver alone, one connection that
// waits for no lock, and the pragmas given.
func rawDB(t *testing.T, path string, pragmas ...string) *sql.DB {
	t.Helper()
	dsn := "file:" + path + "?_pragma=busy_timeout(0)"
	for _, p := range pragmas {
		dsn += "&_pragma=" + p
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func exec(t *testing.T, db *sql.DB, statement string) {
	t.Helper()
	if _, err := db.ExecContext(t.Context(), statement); err != nil {
		t.Fatal(err)
	}
}
