// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// schema in the test database, dropped when the test ends.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase/internal/tcpproxy"
)

// DefaultURL is where tests look for PostgreSQL unless
// TENDERBASE_TEST_POSTGRES says otherwise.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// ErrUnreachable says that tests found no PostgreSQL.
var ErrUnreachable = errors.New("PostgreSQL at TENDERBASE_TEST_POSTGRES (default " + DefaultURL + ") is unreachable")

// URL returns the URL of a fresh schema of the test's own in the test
// database, dropped when the test ends, so that tests run in parallel and
// leave nothing behind. Without PostgreSQL the test is skipped, unless
// TENDERBASE_REQUIRE_POSTGRES=1, as in CI, where it fails.
func URL(tb testing.TB) string {
	tb.Helper()
	u, drop, err := NewSchema()
	if errors.Is(err, ErrUnreachable) {
		if os.Getenv("TENDERBASE_REQUIRE_POSTGRES") == "1" {
			tb.Fatal(err)
		}
		tb.Skip(err.Error() + " (set TENDERBASE_REQUIRE_POSTGRES=1 to fail instead)")
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := drop(); err != nil {
			tb.Error(err)
		}
	})
	return u
}

// ProxiedURL returns the URL of a fresh schema, as URL does, reached
// through a TCP proxy of the test's own, which the test cuts to make an
// outage of the database and restores to end it. The database server
// itself is never touched: other tests use it.
func ProxiedURL(tb testing.TB) (string, *tcpproxy.Proxy) {
	tb.Helper()
	u, err := url.Parse(URL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	proxy, err := tcpproxy.Start(u.Host)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(proxy.Cut)
	u.Host = proxy.Addr()
	return u.String(), proxy
}

// NewSchema creates a schema with a random name in the test database and
// returns the URL that uses it and the function that drops it.
func NewSchema() (string, func() error, error) {
	base := os.Getenv("TENDERBASE_TEST_POSTGRES")
	if base == "" {
		base = DefaultURL
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	defer conn.Close(ctx)
	b := make([]byte, 8)
	rand.Read(b)
	schema := "tb_test_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return "", nil, fmt.Errorf("create schema: %w", err)
	}
	drop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			return fmt.Errorf("drop schema %s: %w", schema, err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			return fmt.Errorf("drop schema %s: %w", schema, err)
		}
		return nil
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}
