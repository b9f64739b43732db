package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/migration"
)

// openTest opens a store in a new file under t.TempDir and closes it when
// the test ends.
func openTest(t *testing.T) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "store.db"))
}

func openAt(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// day returns midnight UTC of a day in 2024 plus extra.
func day(n int, extra time.Duration) time.Time {
	return time.Date(2024, 1, n, 0, 0, 0, 0, time.UTC).Add(extra)
}

// tender returns a tender with a title, dated day n.
func tender(key string, version int, title string, n int) *tenderbase.Tender {
	return &tenderbase.Tender{
		PurchaseNumber: key, Law: tenderbase.Law44, Version: version, Title: title,
		Region: 77, PublishedAt: day(n, 0),
		Customer: tenderbase.Party{INN: "7700000000", Name: "ГБУ Школа"},
	}
}

func put(t *testing.T, s *Store, records ...tenderbase.Record) tenderbase.PutResult {
	t.Helper()
	res, err := s.Put(context.Background(), records)
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	return res
}

func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, tender("1", 1, "Поставка бумаги", 1))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path)
	if _, err := s.Get(context.Background(), tenderbase.KindTender, "1"); err != nil {
		t.Fatalf("Get after reopen: %v", err)
	}
	var n int
	if err := s.read.db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if want := len(mustMigrations(t)); n != want {
		t.Errorf("schema_migrations has %d rows, want %d", n, want)
	}
}

func mustMigrations(t *testing.T) []migration.Migration {
	t.Helper()
	m, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOpenNotDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("this is not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, nil)
	if !errors.Is(err, errNotDatabase) {
		t.Fatalf("Open of a text file: got %v, want errNotDatabase", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file", err)
	}
}

func TestOpenMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "store.db")
	if _, err := Open(context.Background(), path, nil); err == nil {
		t.Fatal("Open in a missing directory succeeded")
	}
}

func TestOptimize(t *testing.T) {
	s := corpus(t)
	before := count(t, s, "поставка")
	if err := s.Optimize(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := count(t, s, "поставка"); after != before {
		t.Errorf("Optimize changed a total from %d to %d", before, after)
	}
	put(t, s, tender("7", 1, "Поставка", 7))
	if after := count(t, s, "поставка"); after != before+1 {
		t.Errorf("after Optimize and a Put: total %d, want %d", after, before+1)
	}
}

func TestDescribeOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, nil)
	if n := strings.Count(err.Error(), errNotDatabase.Error()); n != 1 {
		t.Errorf("error %q says it is not a database %d times", err, n)
	}
	if got := describe(describe(err)); got != err {
		t.Errorf("describe wrapped a described error again: %v", got)
	}
}
