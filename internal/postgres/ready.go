package postgres

import (
	"context"
	"errors"
	"fmt"
)

// Ready reports whether the store can serve: the database answers and has
// every migration of this build and its index this build's text analysis.
// Another build may have migrated or re-indexed the database since this
// server opened it; this one's searches would then read an index it does not
// understand.
func (s *Store) Ready(ctx context.Context) (err error) {
	defer classify(&err)
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer c.Release()
	all, err := loadMigrations()
	if err != nil {
		return err
	}
	done, err := upToDate(ctx, c.Conn(), all)
	switch {
	case err != nil:
		return err
	case !done:
		return errors.New("the database lacks a migration of this build, or is indexed with another text analysis: another build changed it")
	}
	return nil
}
