package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// stateWriter derives the state lookups of tenders (versioning.StateTx) in
// a write transaction: Put's or a migration's.
type stateWriter struct{ q querier }

var _ versioning.StateTx = stateWriter{}

// Related returns the current records of kind k with the lookup
// field=value, newest first.
func (w stateWriter) Related(ctx context.Context, k tenderbase.Kind, field, value string) ([]tenderbase.Record, error) {
	rows, _ := w.q.Query(ctx, `
		SELECT v.body FROM lookups l JOIN records r ON r.rid = l.rid JOIN versions v ON v.id = r.version
		WHERE l.kind = $1 AND l.field = $2 AND l.value = $3 ORDER BY l.rid DESC`, string(k), field, value)
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, fmt.Errorf("read %s records by %s: %w", k, field, err)
	}
	out := make([]tenderbase.Record, len(bodies))
	for i, body := range bodies {
		if out[i], err = versioning.Decode(k, body); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Latest returns the newest stored version of a record, or nil.
func (w stateWriter) Latest(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	var body []byte
	err := w.q.QueryRow(ctx, `SELECT body FROM versions WHERE kind = $1 AND key = $2 ORDER BY revision DESC LIMIT 1`,
		string(k), key).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", k, key, err)
	}
	return versioning.Decode(k, body)
}

// SetState makes state the one state lookup of the current tender key. Two
// statements, since in one the insert would meet the row the delete takes.
func (w stateWriter) SetState(ctx context.Context, key, state string) error {
	kind := string(tenderbase.KindTender)
	if _, err := w.q.Exec(ctx, `
		DELETE FROM lookups WHERE kind = $1 AND field = $2 AND value <> $3
		AND rid IN (SELECT rid FROM records WHERE kind = $1 AND key = $4)`,
		kind, tenderbase.LookupState, state, key); err != nil {
		return fmt.Errorf("clear state of tender %s: %w", key, err)
	}
	if _, err := w.q.Exec(ctx, `
		INSERT INTO lookups (kind, field, value, rid)
		SELECT $1, $2, $3, rid FROM records WHERE kind = $1 AND key = $4
		ON CONFLICT DO NOTHING`, kind, tenderbase.LookupState, state, key); err != nil {
		return fmt.Errorf("store state of tender %s: %w", key, err)
	}
	return nil
}

// settleAllStates derives the state lookup of every stored tender, for a
// database made before tenders had one (migration 0005).
func settleAllStates(ctx context.Context, tx pgx.Tx) error {
	rows, _ := tx.Query(ctx, `SELECT key FROM records WHERE kind = $1`, string(tenderbase.KindTender))
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("read tenders: %w", err)
	}
	for _, key := range keys {
		if err := versioning.SettleState(ctx, stateWriter{tx}, key); err != nil {
			return fmt.Errorf("state of tender %s: %w", key, err)
		}
	}
	return nil
}
