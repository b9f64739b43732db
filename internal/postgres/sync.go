package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.SyncLog = (*Store)(nil)

// Checkpoint returns a partition's checkpoint, as tenderbase.SyncLog says.
func (s *Store) Checkpoint(ctx context.Context, source, partition string) (_ tenderbase.Checkpoint, err error) {
	defer classify(&err)
	c := tenderbase.Checkpoint{Source: source, Partition: partition}
	if !tenderbase.Holdable(source) || !tenderbase.Holdable(partition) {
		return c, tenderbase.Errorf(tenderbase.ENOTFOUND, "%s has not completed %s", source, partition)
	}
	err = s.pool.QueryRow(ctx, `SELECT value, at FROM sync_checkpoints WHERE source = $1 AND partition = $2`,
		source, partition).Scan(&c.Value, &c.At)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, tenderbase.Errorf(tenderbase.ENOTFOUND, "%s has not completed %s", source, partition)
	}
	if err != nil {
		return c, fmt.Errorf("read checkpoint %s %s: %w", source, partition, err)
	}
	c.At = c.At.UTC()
	return c, nil
}

// SetCheckpoint records a completed partition, as tenderbase.SyncLog says.
func (s *Store) SetCheckpoint(ctx context.Context, c tenderbase.Checkpoint) (err error) {
	defer classify(&err)
	if err := tenderbase.CheckSyncSource(c.Source); err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `
		INSERT INTO sync_checkpoints (source, partition, value, at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (source, partition) DO UPDATE SET value = excluded.value, at = excluded.at`,
		c.Source, c.Partition, c.Value, c.At)
	if err != nil {
		return fmt.Errorf("record checkpoint %s %s: %w", c.Source, c.Partition, err)
	}
	return nil
}

// Checkpoints lists checkpoints by prefix, as tenderbase.SyncLog says.
func (s *Store) Checkpoints(ctx context.Context, source, prefix string, limit int) (_ []tenderbase.Checkpoint, err error) {
	defer classify(&err)
	rows, _ := s.pool.Query(ctx, `
		SELECT partition, value, at FROM sync_checkpoints
		WHERE source = $1 AND partition >= $2 AND left(partition, length($2)) = $2
		ORDER BY partition COLLATE "C" LIMIT $3`, source, prefix, limit)
	cps, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tenderbase.Checkpoint, error) {
		c := tenderbase.Checkpoint{Source: source}
		err := row.Scan(&c.Partition, &c.Value, &c.At)
		c.At = c.At.UTC()
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("list checkpoints %s %s: %w", source, prefix, err)
	}
	if cps == nil {
		cps = []tenderbase.Checkpoint{}
	}
	return cps, nil
}

// DeleteCheckpoint forgets a partition, as tenderbase.SyncLog says.
func (s *Store) DeleteCheckpoint(ctx context.Context, source, partition string) (err error) {
	defer classify(&err)
	if _, err := s.pool.Exec(ctx, `DELETE FROM sync_checkpoints WHERE source = $1 AND partition = $2`, source, partition); err != nil {
		return fmt.Errorf("forget checkpoint %s %s: %w", source, partition, err)
	}
	return nil
}

// SyncStates returns every source's state, as tenderbase.SyncLog says.
func (s *Store) SyncStates(ctx context.Context) (_ []tenderbase.SyncState, err error) {
	defer classify(&err)
	rows, _ := s.pool.Query(ctx, `SELECT state FROM sync_states ORDER BY source`)
	states, err := pgx.CollectRows(rows, pgx.RowTo[tenderbase.SyncState])
	if err != nil {
		return nil, fmt.Errorf("read sync states: %w", err)
	}
	if states == nil {
		states = []tenderbase.SyncState{}
	}
	return states, nil
}

// PutSyncState replaces a source's state, as tenderbase.SyncLog says.
func (s *Store) PutSyncState(ctx context.Context, st tenderbase.SyncState) (err error) {
	defer classify(&err)
	if err := tenderbase.CheckSyncSource(st.Source); err != nil {
		return err
	}
	_, err = s.pool.Exec(ctx, `
		INSERT INTO sync_states (source, state) VALUES ($1, $2)
		ON CONFLICT (source) DO UPDATE SET state = excluded.state`, st.Source, st)
	if err != nil {
		return fmt.Errorf("record sync state of %s: %w", st.Source, err)
	}
	return nil
}
