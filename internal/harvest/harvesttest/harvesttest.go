// Package harvesttest is the rig the tests of the sync sources share: a
// runner over a fresh SQLite store and a fresh PostgreSQL one, checks of
// what a run stored, and the faults a recorded service injects.
package harvesttest

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// Store is what a sync fills: records and a sync log.
type Store interface {
	tenderbase.Store
	tenderbase.SyncLog
}

// Rig is a runner over a store of its own.
type Rig struct {
	Store  Store
	Runner *harvest.Runner
	// Driver and DSN open the store again, in another process.
	Driver, DSN string
}

// EachStore runs test on a fresh SQLite store and a fresh PostgreSQL one,
// read with decoders.
func EachStore(t *testing.T, decoders []importer.Decoder, test func(t *testing.T, r *Rig)) {
	t.Run("sqlite", func(t *testing.T) {
		test(t, NewRig(t, "sqlite", filepath.Join(t.TempDir(), "store.db"), decoders))
	})
	t.Run("postgres", func(t *testing.T) {
		test(t, NewRig(t, "postgres", pgtest.URL(t), decoders))
	})
}

// EachStoreAt runs EachStore with the runner's clock stopped at now.
func EachStoreAt(t *testing.T, decoders []importer.Decoder, now time.Time, test func(t *testing.T, r *Rig)) {
	EachStore(t, decoders, func(t *testing.T, r *Rig) {
		r.Runner.Now = func() time.Time { return now }
		test(t, r)
	})
}

// Quick is a fetch configuration that retries at once: the faults are
// what a source's tests test, not the waits. concurrency and attempts are
// what each source's tests count on.
func Quick(concurrency, attempts int) fetch.Config {
	return fetch.Config{Rate: 1000, Burst: 1000, Concurrency: concurrency, Timeout: 300 * time.Millisecond, Attempts: attempts,
		MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, BreakAfter: 3, BreakFor: time.Hour}
}

// NewRig opens the store driver ("sqlite" or "postgres") finds at dsn,
// closed when the test ends, and a runner into it with a spool of its own.
func NewRig(t *testing.T, driver, dsn string, decoders []importer.Decoder) *Rig {
	t.Helper()
	s, err := Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &Rig{Store: s, Driver: driver, DSN: dsn,
		Runner: &harvest.Runner{Store: s, Log: s, Decoders: decoders, Spool: t.TempDir()}}
}

// Open opens the store driver ("sqlite" or "postgres") finds at dsn.
func Open(driver, dsn string) (Store, error) {
	if driver == "postgres" {
		return postgres.Open(context.Background(), dsn, nil)
	}
	return sqlite.Open(context.Background(), dsn, nil)
}

// Run runs src over scope.
func (r *Rig) Run(t *testing.T, scope harvest.Scope, src harvest.Source) error {
	t.Helper()
	return r.Runner.Run(context.Background(), scope, []harvest.Source{src})
}

// RunFails runs src over scope and fails the test unless the run's error
// holds each of wants.
func (r *Rig) RunFails(t *testing.T, scope harvest.Scope, src harvest.Source, wants ...string) {
	t.Helper()
	err := r.Run(t, scope, src)
	for _, want := range wants {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("run: %v, want an error saying %q", err, want)
		}
	}
}

// Asked runs src over scope, fails the test if the run fails, and returns
// how many requests it sent, as requests (a recorded service's count of
// the requests whose path starts with a prefix) tells.
func (r *Rig) Asked(t *testing.T, scope harvest.Scope, src harvest.Source, requests func(prefix string) int) int {
	t.Helper()
	before := requests("")
	if err := r.Run(t, scope, src); err != nil {
		t.Fatal(err)
	}
	return requests("") - before
}

// State returns the sync state of the one source that ran.
func (r *Rig) State(t *testing.T) tenderbase.SyncState {
	t.Helper()
	states, err := r.Store.SyncStates(context.Background())
	if err != nil || len(states) != 1 {
		t.Fatalf("sync states %v, %v; want one", states, err)
	}
	return states[0]
}

// CheckRecords fails unless the store holds, of each kind, the records
// keyed want and no other, each with one version: imported once.
func (r *Rig) CheckRecords(t *testing.T, want map[tenderbase.Kind][]string) {
	t.Helper()
	ctx := context.Background()
	for kind, keys := range want {
		page, err := r.Store.Search(ctx, tenderbase.Search{Kind: kind, PageSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, rec := range page.Items {
			got = append(got, rec.Key())
			versions, err := r.Store.Versions(ctx, kind, rec.Key())
			if err != nil || len(versions) != 1 {
				t.Errorf("%s %s: %d versions, %v; want 1", kind, rec.Key(), len(versions), err)
			}
		}
		slices.Sort(got)
		if diff := cmp.Diff(keys, got); diff != "" {
			t.Errorf("%s records (-want +got):\n%s", kind, diff)
		}
	}
}
