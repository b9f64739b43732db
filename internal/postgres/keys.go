package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.KeyStore = (*Store)(nil)

// keysLock is the advisory lock key that changes of keys hold for their
// transaction, so that two keys created at once, on one server or two,
// cannot both take an account's last seat.
const keysLock = 0x7462_6b65_7973 // "tbkeys"

// keyColumns are the columns scanKey reads, in its order.
const keyColumns = `id, name, account, plan, status, created_at, overrides`

// CreateKey stores a new active key, as tenderbase.KeyStore says.
func (s *Store) CreateKey(ctx context.Context, k tenderbase.Key) (_ tenderbase.Key, _ string, err error) {
	defer classify(&err)
	k, err = tenderbase.NewKey(k)
	if err != nil {
		return tenderbase.Key{}, "", err
	}
	// timestamptz holds microseconds; the key returned is the key stored.
	k.CreatedAt = k.CreatedAt.Truncate(time.Microsecond)
	secret, err := tenderbase.NewSecret()
	if err != nil {
		return tenderbase.Key{}, "", fmt.Errorf("create key: %w", err)
	}
	err = s.changeKeys(ctx, func(tx pgx.Tx) error {
		plan, active, err := accountState(ctx, tx, k.Account)
		if err != nil {
			return err
		}
		if err := tenderbase.CheckAccount(k.Account, k.Plan, plan, active); err != nil {
			return err
		}
		if k.ID, err = freeKeyID(ctx, tx); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO keys (id, name, account, plan, status, created_at, overrides, secret_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			k.ID, k.Name, k.Account, string(k.Plan), k.Status, k.CreatedAt, k.Overrides, tenderbase.HashSecret(secret))
		if err != nil {
			return fmt.Errorf("insert key: %w", err)
		}
		return nil
	})
	if err != nil {
		return tenderbase.Key{}, "", fmt.Errorf("create key: %w", err)
	}
	s.logger.Info("key created", "key", k.ID, "account", k.Account, "plan", k.Plan)
	return k, secret, nil
}

// changeKeys runs f in a transaction that holds the keys lock.
func (s *Store) changeKeys(ctx context.Context, f func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, keysLock); err != nil {
			return fmt.Errorf("lock keys: %w", err)
		}
		return f(tx)
	})
}

// accountState returns the plan of an account's keys that are not revoked
// ("" when it has none) and how many of them are active.
func accountState(ctx context.Context, q querier, account string) (tenderbase.Plan, int, error) {
	var plan *string
	var active int
	err := q.QueryRow(ctx, `
		SELECT min(plan), count(*) FILTER (WHERE status = 'active') FROM keys
		WHERE account = $1 AND status != 'revoked'`, account).Scan(&plan, &active)
	if err != nil {
		return "", 0, fmt.Errorf("read account %s: %w", account, err)
	}
	if plan == nil {
		return "", active, nil
	}
	return tenderbase.Plan(*plan), active, nil
}

// freeKeyID returns a key id no key has.
func freeKeyID(ctx context.Context, q querier) (string, error) {
	for range 10 {
		id, err := tenderbase.NewKeyID()
		if err != nil {
			return "", err
		}
		var taken bool
		if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM keys WHERE id = $1)`, id).Scan(&taken); err != nil {
			return "", fmt.Errorf("check key id: %w", err)
		}
		if !taken {
			return id, nil
		}
	}
	return "", errors.New("no free key id after 10 draws")
}

// Keys lists every key, newest first: in the order they were created.
func (s *Store) Keys(ctx context.Context) (_ []tenderbase.Key, err error) {
	defer classify(&err)
	rows, _ := s.pool.Query(ctx, `SELECT `+keyColumns+` FROM keys ORDER BY seq DESC`)
	keys, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tenderbase.Key, error) { return scanKey(row) })
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	if keys == nil {
		keys = []tenderbase.Key{}
	}
	return keys, nil
}

// SetKeyStatus changes a key's status, as tenderbase.KeyStore says. A key
// resumed takes a seat again, so it needs a free one.
func (s *Store) SetKeyStatus(ctx context.Context, id, status string) (_ tenderbase.Key, err error) {
	defer classify(&err)
	if err := tenderbase.CheckKeyStatus(status); err != nil {
		return tenderbase.Key{}, err
	}
	var k tenderbase.Key
	err = s.changeKeys(ctx, func(tx pgx.Tx) error {
		var err error
		if k, err = getKey(ctx, tx, id); err != nil {
			return err
		}
		needsSeat, err := k.StatusChange(status)
		if err != nil {
			return err
		}
		if needsSeat {
			_, active, err := accountState(ctx, tx, k.Account)
			if err != nil {
				return err
			}
			if err := tenderbase.CheckSeat(k.Account, k.Plan, active); err != nil {
				return err
			}
		}
		k.Status = status
		return updateKey(ctx, tx, id, "status", status)
	})
	if err != nil {
		return tenderbase.Key{}, fmt.Errorf("set status of key %s: %w", id, err)
	}
	s.logger.Info("key status set", "key", id, "status", status)
	return k, nil
}

// SetKeyLimits replaces a key's overrides.
func (s *Store) SetKeyLimits(ctx context.Context, id string, l tenderbase.Limits) (_ tenderbase.Key, err error) {
	defer classify(&err)
	if err := l.Validate(); err != nil {
		return tenderbase.Key{}, err
	}
	var k tenderbase.Key
	err = s.changeKeys(ctx, func(tx pgx.Tx) error {
		var err error
		if k, err = getKey(ctx, tx, id); err != nil {
			return err
		}
		k.Overrides = l
		return updateKey(ctx, tx, id, "overrides", l)
	})
	if err != nil {
		return tenderbase.Key{}, fmt.Errorf("set limits of key %s: %w", id, err)
	}
	s.logger.Info("key limits set", "key", id, "overrides", fmt.Sprintf("%+v", l))
	return k, nil
}

// updateKey sets one column of a key; column is one of the names the
// callers above give, never input.
func updateKey(ctx context.Context, q querier, id, column string, value any) error {
	if _, err := q.Exec(ctx, `UPDATE keys SET `+column+` = $1 WHERE id = $2`, value, id); err != nil {
		return fmt.Errorf("update key: %w", err)
	}
	return nil
}

func getKey(ctx context.Context, q querier, id string) (tenderbase.Key, error) {
	if !tenderbase.Holdable(id) {
		return tenderbase.Key{}, tenderbase.NoKey(id)
	}
	k, err := scanKey(q.QueryRow(ctx, `SELECT `+keyColumns+` FROM keys WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return k, tenderbase.NoKey(id)
	}
	return k, err
}

// Authenticate returns the active key whose secret is secret, as
// tenderbase.KeyStore says, by tenderbase.AuthenticateBy's rules.
func (s *Store) Authenticate(ctx context.Context, secret string) (_ tenderbase.Key, err error) {
	defer classify(&err)
	return tenderbase.AuthenticateBy(secret, func(want []byte) (tenderbase.Key, []byte, error) {
		var hash []byte
		k, err := scanKey(s.pool.QueryRow(ctx, `SELECT `+keyColumns+`, secret_hash FROM keys WHERE secret_hash = $1`, want), &hash)
		if errors.Is(err, pgx.ErrNoRows) {
			return tenderbase.Key{}, nil, nil
		}
		return k, hash, err
	})
}

// scanKey reads the keyColumns of a row, and then into extra.
func scanKey(row pgx.Row, extra ...any) (tenderbase.Key, error) {
	var k tenderbase.Key
	var plan string
	dest := append([]any{&k.ID, &k.Name, &k.Account, &plan, &k.Status, &k.CreatedAt, &k.Overrides}, extra...)
	if err := row.Scan(dest...); err != nil {
		return k, err
	}
	k.Plan = tenderbase.Plan(plan)
	k.CreatedAt = k.CreatedAt.UTC()
	return k, nil
}
