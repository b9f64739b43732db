package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// Withdraw records that wd withdraws its target and takes the target's
// current row out of records, its full-text table and lookups, so that no
// search or Get finds it; its versions stay.
func (w writer) Withdraw(ctx context.Context, wd *tenderbase.Withdrawal) error {
	kind, key := string(wd.TargetKind), wd.TargetKey
	if _, err := w.c.exec(ctx, `INSERT OR IGNORE INTO withdrawn (kind, key, by) VALUES (?, ?, ?)`,
		kind, key, wd.ID); err != nil {
		return fmt.Errorf("withdraw %s %s: %w", kind, key, describe(err))
	}
	var rid int64
	err := w.c.queryRow(ctx, `SELECT rid FROM records WHERE kind = ? AND key = ?`, kind, key).Scan(&rid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // not stored (yet, or of no kind stored): it is withdrawn if it comes
	}
	if err != nil {
		return fmt.Errorf("find withdrawn %s %s: %w", kind, key, describe(err))
	}
	if _, err := w.unindex(ctx, wd.TargetKind, rid); err != nil {
		return fmt.Errorf("withdraw %s %s: %w", kind, key, err)
	}
	for _, stmt := range []string{
		`DELETE FROM lookups WHERE rid = ?`,
		`DELETE FROM records WHERE rid = ?`,
	} {
		if _, err := w.c.exec(ctx, stmt, rid); err != nil {
			return fmt.Errorf("withdraw %s %s: %w", kind, key, describe(err))
		}
	}
	w.counts.withdraw(kind)
	return nil
}

// withdrawnBy returns the key of a withdrawal of the record of kind and key.
func withdrawnBy(ctx context.Context, c *conn, kind, key string) (string, bool, error) {
	var by string
	err := c.queryRow(ctx, `SELECT by FROM withdrawn WHERE kind = ? AND key = ? LIMIT 1`, kind, key).Scan(&by)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read withdrawals: %w", describe(err))
	}
	return by, true, nil
}

// notFound is the error of Get for a record with no current row: withdrawn,
// or never stored.
func notFound(ctx context.Context, c *conn, k tenderbase.Kind, key string) error {
	by, gone, err := withdrawnBy(ctx, c, string(k), key)
	if err != nil {
		return err
	}
	if gone {
		return tenderbase.Errorf(tenderbase.ENOTFOUND, "%s %s was withdrawn (withdrawal %s)", k, tenderbase.Quote(key), tenderbase.Quote(by))
	}
	return versioning.NotFound(k, key)
}
