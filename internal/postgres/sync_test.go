package postgres

import (
	"context"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// TestSyncLog runs the sync-log behaviour suite.
func TestSyncLog(t *testing.T) {
	storetest.RunSyncLog(t, func(t *testing.T) (tenderbase.SyncLog, func() tenderbase.SyncLog) {
		url := pgtest.URL(t)
		var s *Store
		open := func() tenderbase.SyncLog {
			if s != nil {
				s.Close()
			}
			var err error
			if s, err = Open(context.Background(), url, nil); err != nil {
				t.Fatal(err)
			}
			return s
		}
		t.Cleanup(func() { s.Close() })
		return open(), open
	})
}
