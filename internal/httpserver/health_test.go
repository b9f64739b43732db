package httpserver_test

import (
	"context"
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

// TestHealthAsksTheStore checks that /health reaches the store, rather
// than being answered before it: with the store's connections closed, it
// fails.
func TestHealthAsksTheStore(t *testing.T) {
	store := openPostgres(t)
	ts, _ := newServer(t, store)
	store.Close()
	if status, _ := get(t, ts, "/health"); status != 500 {
		t.Errorf("status %d with the store closed, want 500", status)
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
