package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.SyncLog = (*Store)(nil)

// Checkpoint returns a partition's checkpoint, as tenderbase.SyncLog says.
func (s *Store) Checkpoint(ctx context.Context, source, partition string) (tenderbase.Checkpoint, error) {
	c := tenderbase.Checkpoint{Source: source, Partition: partition}
	var at string
	err := s.read.run(ctx, func(cn *conn) error {
		return cn.queryRow(ctx, `SELECT value, at FROM sync_checkpoints WHERE source = ? AND partition = ?`,
			source, partition).Scan(&c.Value, &at)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return c, tenderbase.Errorf(tenderbase.ENOTFOUND, "%s has not completed %s", source, partition)
	}
	if err != nil {
		return c, fmt.Errorf("read checkpoint %s %s: %w", source, partition, describe(err))
	}
	if c.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
		return c, fmt.Errorf("read checkpoint %s %s: %w", source, partition, err)
	}
	return c, nil
}

// SetCheckpoint records a completed partition, as tenderbase.SyncLog says.
func (s *Store) SetCheckpoint(ctx context.Context, c tenderbase.Checkpoint) error {
	if err := tenderbase.CheckSyncSource(c.Source); err != nil {
		return err
	}
	err := s.write.run(ctx, func(cn *conn) error {
		_, err := cn.exec(ctx, `
			INSERT INTO sync_checkpoints (source, partition, value, at) VALUES (?, ?, ?, ?)
			ON CONFLICT (source, partition) DO UPDATE SET value = excluded.value, at = excluded.at`,
			c.Source, c.Partition, c.Value, c.At.UTC().Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		return fmt.Errorf("record checkpoint %s %s: %w", c.Source, c.Partition, describe(err))
	}
	return nil
}

// Checkpoints lists checkpoints by prefix, as tenderbase.SyncLog says.
func (s *Store) Checkpoints(ctx context.Context, source, prefix string, limit int) ([]tenderbase.Checkpoint, error) {
	cps := []tenderbase.Checkpoint{}
	err := s.read.run(ctx, func(cn *conn) error {
		// substr rather than LIKE: a prefix may hold % and _.
		rows, err := cn.query(ctx, `
			SELECT partition, value, at FROM sync_checkpoints
			WHERE source = ? AND partition >= ? AND substr(partition, 1, length(?)) = ?
			ORDER BY partition LIMIT ?`, source, prefix, prefix, prefix, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c := tenderbase.Checkpoint{Source: source}
			var at string
			if err := rows.Scan(&c.Partition, &c.Value, &at); err != nil {
				return err
			}
			if c.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
				return err
			}
			cps = append(cps, c)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list checkpoints %s %s: %w", source, prefix, describe(err))
	}
	return cps, nil
}

// DeleteCheckpoint forgets a partition, as tenderbase.SyncLog says.
func (s *Store) DeleteCheckpoint(ctx context.Context, source, partition string) error {
	err := s.write.run(ctx, func(cn *conn) error {
		_, err := cn.exec(ctx, `DELETE FROM sync_checkpoints WHERE source = ? AND partition = ?`, source, partition)
		return err
	})
	if err != nil {
		return fmt.Errorf("forget checkpoint %s %s: %w", source, partition, describe(err))
	}
	return nil
}

// SyncStates returns every source's state, as tenderbase.SyncLog says.
func (s *Store) SyncStates(ctx context.Context) ([]tenderbase.SyncState, error) {
	states := []tenderbase.SyncState{}
	err := s.read.run(ctx, func(cn *conn) error {
		rows, err := cn.query(ctx, `SELECT state FROM sync_states ORDER BY source`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var raw []byte
			var st tenderbase.SyncState
			if err := rows.Scan(&raw); err != nil {
				return err
			}
			if err := json.Unmarshal(raw, &st); err != nil {
				return err
			}
			states = append(states, st)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read sync states: %w", describe(err))
	}
	return states, nil
}

// PutSyncState replaces a source's state, as tenderbase.SyncLog says.
func (s *Store) PutSyncState(ctx context.Context, st tenderbase.SyncState) error {
	if err := tenderbase.CheckSyncSource(st.Source); err != nil {
		return err
	}
	raw, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("record sync state of %s: %w", st.Source, err)
	}
	err = s.write.run(ctx, func(cn *conn) error {
		_, err := cn.exec(ctx, `
			INSERT INTO sync_states (source, state) VALUES (?, ?)
			ON CONFLICT (source) DO UPDATE SET state = excluded.state`, st.Source, string(raw))
		return err
	})
	if err != nil {
		return fmt.Errorf("record sync state of %s: %w", st.Source, describe(err))
	}
	return nil
}
