package httpserver_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// TestHealthOnEveryStore checks that GET /health answers 200 on both stores.
func TestHealthOnEveryStore(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) tenderbase.Store{
		"sqlite":   openSQLite,
		"postgres": openPostgres,
	} {
		t.Run(name, func(t *testing.T) {
			ts, _ := newServer(t, open(t))
			status, body := get(t, ts, "/health")
			if diff := cmp.Diff(map[string]any{"status": "ok"}, body); status != 200 || diff != "" {
				t.Errorf("status %d, want 200 (-want +got):\n%s", status, diff)
			}
		})
	}
}

// TestHealthIsLiveness checks that /health says the process serves,
// whatever the store: with the store's connections closed, or a store that
// cannot be reached, it answers 200, so that a liveness probe does not
// restart every instance when the database is away.
func TestHealthIsLiveness(t *testing.T) {
	closed := openPostgres(t)
	closed.Close()
	for name, store := range map[string]tenderbase.Store{
		"closed":      closed,
		"unreachable": stubStore{err: tenderbase.Unavailable(errors.New("connection refused"))},
	} {
		ts, _ := newServer(t, store)
		if status, _ := get(t, ts, "/health"); status != 200 {
			t.Errorf("%s store: status %d, want 200", name, status)
		}
	}
}

func openSQLite(t *testing.T) tenderbase.Store {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "store.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

func openPostgres(t *testing.T) tenderbase.Store {
	t.Helper()
	store, err := postgres.Open(context.Background(), pgtest.URL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}
