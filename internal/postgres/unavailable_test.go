package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// storeCall is one call of the store, for the tests that cut it off.
type storeCall struct {
	name string
	call func(ctx context.Context, s *Store) error
}

// storeCalls are calls of every part of the store: records, searches,
// writes, keys, the feed, sync state and readiness.
var storeCalls = []storeCall{
	{"Get", func(ctx context.Context, s *Store) error {
		_, err := s.Get(ctx, tenderbase.KindTender, "1")
		return err
	}},
	{"Search", func(ctx context.Context, s *Store) error {
		_, err := s.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender})
		return err
	}},
	{"Put", func(ctx context.Context, s *Store) error {
		_, err := s.Put(ctx, []tenderbase.Record{&tenderbase.Tender{PurchaseNumber: "2", Law: tenderbase.Law44, Version: 1, Title: "Поставка бумаги",
			PublishedAt: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)}})
		return err
	}},
	{"Authenticate", func(ctx context.Context, s *Store) error {
		_, err := s.Authenticate(ctx, "tb_nobody_issued_this")
		return err
	}},
	{"Changes", func(ctx context.Context, s *Store) error {
		_, err := s.Changes(ctx, tenderbase.FeedQuery{Kinds: []tenderbase.Kind{tenderbase.KindTender}, Limit: 10})
		return err
	}},
	{"SyncStates", func(ctx context.Context, s *Store) error { _, err := s.SyncStates(ctx); return err }},
	{"Ready", func(ctx context.Context, s *Store) error { return s.Ready(ctx) }},
}

// ignoreCode drops an error the store answered on purpose (a record or a
// key not found), keeping only failures.
func ignoreCode(err error) error {
	if c := tenderbase.ErrorCode(err); c != tenderbase.EINTERNAL && c != tenderbase.EUNAVAILABLE {
		return nil
	}
	return err
}

// TestUnavailableWhenCut checks that with the database cut off (a TCP proxy
// closed between the store and the server, with the connections it held)
// every part of the store fails EUNAVAILABLE, with pgx's error in the
// chain, and that the store serves again by itself once the proxy is
// back: its pool makes new connections.
func TestUnavailableWhenCut(t *testing.T) {
	through, proxy := pgtest.ProxiedURL(t)
	s, err := Open(t.Context(), through+"&pool_max_conns=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	for _, c := range storeCalls {
		if err := ignoreCode(c.call(ctx, s)); err != nil {
			t.Fatalf("%s before the cut: %v", c.name, err)
		}
	}
	proxy.Cut()
	for _, c := range storeCalls {
		err := c.call(ctx, s)
		if tenderbase.ErrorCode(err) != tenderbase.EUNAVAILABLE {
			t.Errorf("%s with the database cut off: %v (%s), want unavailable", c.name, err, tenderbase.ErrorCode(err))
		}
	}
	if err := proxy.Restore(); err != nil {
		t.Fatal(err)
	}
	waitAnswers(t, s)
	for _, c := range storeCalls {
		if err := ignoreCode(c.call(ctx, s)); err != nil {
			t.Errorf("%s once the database is back: %v", c.name, err)
		}
	}
}

// waitAnswers calls Get until the store answers, for ten seconds at most: a
// pool learns that a connection broke at its next use.
func waitAnswers(t *testing.T, s *Store) {
	t.Helper()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err = ignoreCode(storeCalls[0].call(t.Context(), s)); err == nil {
			return
		}
	}
	t.Fatalf("the store does not answer again: %v", err)
}

// TestUnavailableOnAdminShutdown checks that a connection the server ends
// (pg_terminate_backend, as a shutdown or an administrator does) fails the
// statement on it EUNAVAILABLE, and that the next one is served on a new
// connection. Only the store's own backend is terminated.
func TestUnavailableOnAdminShutdown(t *testing.T) {
	direct := pgtest.URL(t)
	s, err := Open(t.Context(), direct+"&pool_max_conns=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	var pid int
	if err := s.pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(ctx, direct)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, `SELECT pg_terminate_backend($1, 5000)`, pid); err != nil {
		t.Fatal(err)
	}
	err = storeCalls[0].call(ctx, s)
	if tenderbase.ErrorCode(err) != tenderbase.EUNAVAILABLE {
		t.Errorf("Get on a terminated connection: %v (%s), want unavailable", err, tenderbase.ErrorCode(err))
	}
	if err := ignoreCode(storeCalls[0].call(ctx, s)); err != nil {
		t.Errorf("Get after: %v", err)
	}
}

// TestUnavailableClassification checks which errors of the driver make an
// unavailable store, by their codes and types, with a real refused
// connection among them.
func TestUnavailableClassification(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	_, refused := pgx.Connect(t.Context(), "postgres://postgres@"+closed+"/test?sslmode=disable&connect_timeout=5")
	if refused == nil {
		t.Fatal("a connection to a closed port succeeded")
	}
	pgError := func(code string) error { return fmt.Errorf("search: %w", &pgconn.PgError{Code: code}) }
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", refused, true},
		{"admin_shutdown", pgError("57P01"), true},
		{"crash_shutdown", pgError("57P02"), true},
		{"cannot_connect_now (starting)", pgError("57P03"), true},
		{"too_many_connections", pgError("53300"), true},
		{"disk_full", pgError("53100"), true},
		{"out_of_memory", pgError("53200"), true},
		{"io_error", pgError("58030"), true},
		{"connection_failure", pgError("08006"), true},
		{"connection reset", fmt.Errorf("query: %w", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}), true},
		{"connection closed mid-answer", fmt.Errorf("receive: %w", io.ErrUnexpectedEOF), true},
		{"connection closed by pgx", fmt.Errorf("query: %w", pgconn.ErrConnClosed), true},
		{"a syntax error", pgError("42601"), false},
		{"a unique violation", pgError("23505"), false},
		{"a password refused", pgError("28P01"), false},
		{"no such database", pgError("3D000"), false},
		{"the request's deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), false},
		{"a client gone", errors.Join(context.Canceled, io.ErrUnexpectedEOF), false},
		{"no rows", pgx.ErrNoRows, false},
	}
	for _, tt := range tests {
		got := unavailable(tt.err)
		if (tenderbase.ErrorCode(got) == tenderbase.EUNAVAILABLE) != tt.want {
			t.Errorf("%s (%v): classified %s, want unavailable %v", tt.name, tt.err, tenderbase.ErrorCode(got), tt.want)
		}
		if !errors.Is(got, tt.err) {
			t.Errorf("%s: the driver's error is lost", tt.name)
		}
	}
}
