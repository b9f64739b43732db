package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
)

// Withdraw records that wd withdraws its target and deletes the target's
// current row and its lookups, so that no search or Get finds it;
// its versions stay.
func (w writer) Withdraw(ctx context.Context, wd *tenderbase.Withdrawal) error {
	kind, key := string(wd.TargetKind), wd.TargetKey
	if _, err := w.q.Exec(ctx, `INSERT INTO withdrawn (kind, key, by) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		kind, key, wd.ID); err != nil {
		return fmt.Errorf("withdraw %s %s: %w", kind, key, err)
	}
	if _, err := w.unpost(ctx, wd.TargetKind, `r.kind = $1 AND r.key = $2`, kind, key); err != nil {
		return fmt.Errorf("withdraw %s %s: %w", kind, key, err)
	}
	if _, err := w.q.Exec(ctx, `
		WITH r AS (DELETE FROM records WHERE kind = $1 AND key = $2 RETURNING rid)
		DELETE FROM lookups l USING r WHERE l.rid = r.rid`, kind, key); err != nil {
		return fmt.Errorf("withdraw %s %s: %w", kind, key, err)
	}
	return nil
}

// withdrawnBy returns the key of a withdrawal of the record of kind and key.
func withdrawnBy(ctx context.Context, q querier, kind, key string) (string, bool, error) {
	var by string
	err := q.QueryRow(ctx, `SELECT by FROM withdrawn WHERE kind = $1 AND key = $2 ORDER BY by LIMIT 1`, kind, key).Scan(&by)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read withdrawals: %w", err)
	}
	return by, true, nil
}
