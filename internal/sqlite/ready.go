package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/tenderbase/tenderbase/internal/postings"
)

// Ready reports whether the store can serve: its file is still the one
// opened at its path, and it has this build's schema and index. A file
// deleted or replaced under a running server is served from the old inode
// while every write goes where nobody will look again, so a server whose
// file is gone is not ready, and is again if the file comes back.
func (s *Store) Ready(ctx context.Context) error {
	now, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("the store file %s: %w", s.path, err)
	}
	if !os.SameFile(now, s.opened) {
		return fmt.Errorf("the store file %s is not the file this server opened: it was replaced", s.path)
	}
	return s.read.run(ctx, func(c *conn) error {
		var migrations, analysis string
		err := c.c.QueryRowContext(ctx, `SELECT (SELECT coalesce(max(version), 0) FROM schema_migrations), (SELECT coalesce(max(version), '') FROM analysis)`).
			Scan(&migrations, &analysis)
		if err != nil {
			return fmt.Errorf("read the schema version: %w", describe(err))
		}
		if migrations != s.schemaVersion {
			return fmt.Errorf("the store's schema is version %s, this build's %s: another build migrated it", migrations, s.schemaVersion)
		}
		if analysis != postings.IndexVersion() {
			return errors.New("the store is indexed with another text analysis: another build re-indexed it")
		}
		return nil
	})
}
