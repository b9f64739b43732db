package postgres

import (
	"context"
	"testing"

	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// openTest opens a store in a fresh schema and closes it when the test
// ends (before the schema is dropped).
func openTest(tb testing.TB) *Store {
	tb.Helper()
	s, err := Open(context.Background(), pgtest.URL(tb), nil)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
