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

// Related returns, by value, the current records of kind k with the lookup
// field holding one of values, newest first.
func (w stateWriter) Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error) {
	rows, _ := w.q.Query(ctx, `
		SELECT l.value, v.body FROM lookups l JOIN records r ON r.rid = l.rid JOIN versions v ON v.id = r.version
		WHERE l.kind = $1 AND l.field = $2 AND l.value = ANY($3::text[]) ORDER BY l.rid DESC`, string(k), field, values)
	out := map[string][]tenderbase.Record{}
	var value string
	var body []byte
	_, err := pgx.ForEachRow(rows, []any{&value, &body}, func() error {
		r, err := versioning.Decode(k, body)
		out[value] = append(out[value], r)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read %s records by %s: %w", k, field, err)
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

// SetStates makes each state the one state lookup of the current tender
// whose key is its key, in two statements for all of them: in one, the
// insert would meet the rows the delete takes.
func (w stateWriter) SetStates(ctx context.Context, states map[string]string) error {
	keys, values := make([]string, 0, len(states)), make([]string, 0, len(states))
	for k, v := range states {
		keys, values = append(keys, k), append(values, v)
	}
	kind := string(tenderbase.KindTender)
	if _, err := w.q.Exec(ctx, `
		DELETE FROM lookups l USING unnest($3::text[], $4::text[]) AS u (key, state), records r
		WHERE r.kind = $1 AND r.key = u.key AND l.rid = r.rid
		AND l.kind = $1 AND l.field = $2 AND l.value <> u.state`,
		kind, tenderbase.LookupState, keys, values); err != nil {
		return fmt.Errorf("clear states: %w", err)
	}
	if _, err := w.q.Exec(ctx, `
		INSERT INTO lookups (kind, field, value, rid)
		SELECT $1, $2, u.state, r.rid FROM unnest($3::text[], $4::text[]) AS u (key, state)
		JOIN records r ON r.kind = $1 AND r.key = u.key
		ON CONFLICT DO NOTHING`, kind, tenderbase.LookupState, keys, values); err != nil {
		return fmt.Errorf("store states: %w", err)
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
	return versioning.SettleTenders(ctx, stateWriter{tx}, keys)
}

// TenderStates returns the state the store keeps for each current tender
// among numbers (purchase numbers), by number; a number of no current
// tender is left out. It reads them in one statement, where deriving them
// again takes two searches a tender.
func (s *Store) TenderStates(ctx context.Context, numbers []string) (map[string]string, error) {
	rows, _ := s.pool.Query(ctx, `SELECT r.key, l.value FROM records r
		JOIN lookups l ON l.rid = r.rid AND l.kind = r.kind AND l.field = $1
		WHERE r.kind = $2 AND r.key = ANY($3::text[])`,
		tenderbase.LookupState, string(tenderbase.KindTender), numbers)
	states := map[string]string{}
	var key, state string
	if _, err := pgx.ForEachRow(rows, []any{&key, &state}, func() error {
		states[key] = state
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read tender states: %w", err)
	}
	return states, nil
}
