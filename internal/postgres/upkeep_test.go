package postgres

import (
	"fmt"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// TestUpkeep checks that a long write vacuums and analyzes the tables it
// wrote once it has written what the upkeep waits for, and then waits for
// a share of what the store holds.
func TestUpkeep(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, pgtest.URL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.upkeep.every = 5
	vacuumed := func() bool {
		t.Helper()
		var at *time.Time
		if _, err := s.pool.Exec(ctx, `SELECT pg_stat_clear_snapshot()`); err != nil {
			t.Fatal(err)
		}
		err := s.pool.QueryRow(ctx, `SELECT last_vacuum FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'postings'`).Scan(&at)
		if err != nil {
			t.Fatal(err)
		}
		return at != nil
	}
	put := func(from, n int) {
		t.Helper()
		var recs []tenderbase.Record
		for i := from; i < from+n; i++ {
			recs = append(recs, &tenderbase.Tender{PurchaseNumber: fmt.Sprintf("03731000001260%05d", i), Law: "44", Version: 1,
				Title: "Ремонт кровли", PublishedAt: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)})
		}
		if _, err := s.Put(ctx, recs); err != nil {
			t.Fatal(err)
		}
	}
	put(0, 4)
	if vacuumed() {
		t.Fatal("vacuumed before the upkeep was due")
	}
	put(4, 2)
	if !vacuumed() {
		t.Fatal("not vacuumed once the upkeep was due")
	}
	if s.upkeep.written != 0 || s.upkeep.every != upkeepFloor {
		t.Errorf("after the upkeep: %d written, every %d; want 0 and %d for a small store", s.upkeep.written, s.upkeep.every, upkeepFloor)
	}
}

// TestUpkeepShare checks that the upkeep waits longer as the store grows,
// so that its cost stays a bounded share of a long import.
func TestUpkeepShare(t *testing.T) {
	var u upkeep
	u.done(1_000_000)
	if u.every != 250_000 {
		t.Errorf("every %d after an upkeep of 1,000,000 records, want 250,000", u.every)
	}
	if u.wrote(249_999) || !u.wrote(1) || u.wrote(300_000) {
		t.Error("due before its share, not due at it, or due twice while running")
	}
}
