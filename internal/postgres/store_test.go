package postgres

import (
	"context"
	"sync"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// TestOpenAtOnce checks that servers started at once against one empty
// database migrate it once and all open it.
func TestOpenAtOnce(t *testing.T) {
	url := pgtest.URL(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			s, err := Open(context.Background(), url, nil)
			if err == nil {
				s.Close()
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Open: %v", err)
		}
	}
	s, err := Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var applied, files int
	if err := s.pool.QueryRow(context.Background(), `SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	all, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if files = len(all); applied != files {
		t.Errorf("%d migrations recorded, want %d", applied, files)
	}
}

func TestOpenRejectsOtherPaths(t *testing.T) {
	for _, url := range []string{"store.db", "host=localhost dbname=test", "mysql://localhost/test", ""} {
		_, err := Open(context.Background(), url, nil)
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("Open(%q): %v, want %s", url, err, tenderbase.EINVALID)
		}
	}
}

// TestOptimize checks that Optimize runs on a store with records and
// leaves its answers alone.
func TestOptimize(t *testing.T) {
	s := openTest(t)
	if _, err := s.Put(context.Background(), []tenderbase.Record{tender("1", "Поставка бумаги", 1)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Optimize(context.Background()); err != nil {
		t.Fatalf("Optimize: %v", err)
	}
	if got := found(t, s, "бумага"); len(got) != 1 {
		t.Errorf("after Optimize: %v", got)
	}
}

// TestOpenReadOnly opens a migrated database as a read-only replica is
// opened: Open reads the schema version without writing, searches work,
// and a Put says that the database refused it.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	s, err := Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := tender("0373200041525000031", "Поставка бумаги", 1)
	if _, err := s.Put(ctx, []tenderbase.Record{rec}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	ro, err := Open(ctx, url+"&default_transaction_read_only=on", nil)
	if err != nil {
		t.Fatalf("Open of a read-only, migrated database: %v", err)
	}
	defer ro.Close()
	if got := found(t, ro, "бумага"); len(got) != 1 {
		t.Errorf("Search on the read-only database: %v; want the tender", got)
	}
	other := *rec
	other.PurchaseNumber = "0373200041525000032"
	if _, err := ro.Put(ctx, []tenderbase.Record{&other}); err == nil {
		t.Error("Put on a read-only database succeeded")
	}
}
