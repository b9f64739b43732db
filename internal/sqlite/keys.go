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

var _ tenderbase.KeyStore = (*Store)(nil)

// keyColumns are the columns scanKey reads, in its order.
const keyColumns = `id, name, account, plan, status, created_at, overrides`

// CreateKey stores a new active key, as tenderbase.KeyStore says. The seat
// count and the account's plan are checked inside the write transaction, so
// that two keys created at once cannot both take an account's last seat.
func (s *Store) CreateKey(ctx context.Context, k tenderbase.Key) (tenderbase.Key, string, error) {
	k, err := tenderbase.NewKey(k)
	if err != nil {
		return tenderbase.Key{}, "", err
	}
	secret, err := tenderbase.NewSecret()
	if err != nil {
		return tenderbase.Key{}, "", fmt.Errorf("create key: %w", err)
	}
	err = s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		if err := checkAccount(ctx, c, k); err != nil {
			return err
		}
		if k.ID, err = freeKeyID(ctx, c); err != nil {
			return err
		}
		return insertKey(ctx, c, k, tenderbase.HashSecret(secret))
	}, nil)
	if err != nil {
		return tenderbase.Key{}, "", fmt.Errorf("create key: %w", err)
	}
	s.logger.Info("key created", "key", k.ID, "account", k.Account, "plan", k.Plan)
	return k, secret, nil
}

// checkAccount checks that the account of k, a key about to be created, is
// on k's plan and has a free seat.
func checkAccount(ctx context.Context, c *conn, k tenderbase.Key) error {
	plan, active, err := accountState(ctx, c, k.Account)
	if err != nil {
		return err
	}
	return tenderbase.CheckAccount(k.Account, k.Plan, plan, active)
}

// accountState returns the plan of an account's keys that are not revoked
// ("" when it has none) and how many of them are active. Revoked keys keep
// no plan, so that an account can move to another plan by revoking its keys.
func accountState(ctx context.Context, c *conn, account string) (tenderbase.Plan, int, error) {
	var plan sql.NullString
	var active int
	err := c.queryRow(ctx, `
		SELECT MIN(plan), COUNT(*) FILTER (WHERE status = 'active') FROM keys
		WHERE account = ? AND status != 'revoked'`, account).Scan(&plan, &active)
	if err != nil {
		return "", 0, fmt.Errorf("read account %s: %w", account, describe(err))
	}
	return tenderbase.Plan(plan.String), active, nil
}

// freeKeyID returns a key id no key has. Ids are short, so that people can
// read and type them; the rare collision is drawn again.
func freeKeyID(ctx context.Context, c *conn) (string, error) {
	for range 10 {
		id, err := tenderbase.NewKeyID()
		if err != nil {
			return "", err
		}
		var n int
		if err := c.queryRow(ctx, `SELECT COUNT(*) FROM keys WHERE id = ?`, id).Scan(&n); err != nil {
			return "", fmt.Errorf("check key id: %w", describe(err))
		}
		if n == 0 {
			return id, nil
		}
	}
	return "", errors.New("no free key id after 10 draws")
}

func insertKey(ctx context.Context, c *conn, k tenderbase.Key, hash []byte) error {
	overrides, err := json.Marshal(k.Overrides)
	if err != nil {
		return err
	}
	_, err = c.exec(ctx, `
		INSERT INTO keys (id, name, account, plan, status, created_at, overrides, secret_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.Name, k.Account, string(k.Plan), k.Status,
		k.CreatedAt.Format(time.RFC3339Nano), string(overrides), hash)
	if err != nil {
		return fmt.Errorf("insert key: %w", describe(err))
	}
	return nil
}

// Keys lists every key, newest first: in the order they were created, which
// the rowid keeps even when the clock is set back.
func (s *Store) Keys(ctx context.Context) ([]tenderbase.Key, error) {
	keys := []tenderbase.Key{}
	err := s.read.run(ctx, func(c *conn) error {
		rows, err := c.query(ctx, `SELECT `+keyColumns+` FROM keys ORDER BY rowid DESC`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			k, err := scanKey(rows)
			if err != nil {
				return err
			}
			keys = append(keys, k)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", describe(err))
	}
	return keys, nil
}

// SetKeyStatus changes a key's status, as tenderbase.KeyStore says. A key
// resumed takes a seat again, so it needs a free one.
func (s *Store) SetKeyStatus(ctx context.Context, id, status string) (tenderbase.Key, error) {
	if err := tenderbase.CheckKeyStatus(status); err != nil {
		return tenderbase.Key{}, err
	}
	var k tenderbase.Key
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		var err error
		if k, err = getKey(ctx, c, id); err != nil {
			return err
		}
		if err := checkStatusChange(ctx, c, k, status); err != nil {
			return err
		}
		k.Status = status
		return updateKey(ctx, c, id, "status", status)
	}, nil)
	if err != nil {
		return tenderbase.Key{}, fmt.Errorf("set status of key %s: %w", id, err)
	}
	s.logger.Info("key status set", "key", id, "status", status)
	return k, nil
}

// checkStatusChange says whether key k may take status.
func checkStatusChange(ctx context.Context, c *conn, k tenderbase.Key, status string) error {
	needsSeat, err := k.StatusChange(status)
	if err != nil || !needsSeat {
		return err
	}
	_, active, err := accountState(ctx, c, k.Account)
	if err != nil {
		return err
	}
	return tenderbase.CheckSeat(k.Account, k.Plan, active)
}

// SetKeyLimits replaces a key's overrides.
func (s *Store) SetKeyLimits(ctx context.Context, id string, l tenderbase.Limits) (tenderbase.Key, error) {
	if err := l.Validate(); err != nil {
		return tenderbase.Key{}, err
	}
	overrides, err := json.Marshal(l)
	if err != nil {
		return tenderbase.Key{}, err
	}
	var k tenderbase.Key
	err = s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		var err error
		if k, err = getKey(ctx, c, id); err != nil {
			return err
		}
		k.Overrides = l
		return updateKey(ctx, c, id, "overrides", string(overrides))
	}, nil)
	if err != nil {
		return tenderbase.Key{}, fmt.Errorf("set limits of key %s: %w", id, err)
	}
	s.logger.Info("key limits set", "key", id, "overrides", string(overrides))
	return k, nil
}

// updateKey sets one column of a key; column is one of the names the
// callers above give, never input.
func updateKey(ctx context.Context, c *conn, id, column string, value any) error {
	if _, err := c.exec(ctx, `UPDATE keys SET `+column+` = ? WHERE id = ?`, value, id); err != nil {
		return fmt.Errorf("update key: %w", describe(err))
	}
	return nil
}

func getKey(ctx context.Context, c *conn, id string) (tenderbase.Key, error) {
	k, err := scanKey(c.queryRow(ctx, `SELECT `+keyColumns+` FROM keys WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return k, tenderbase.Errorf(tenderbase.ENOTFOUND, "no key with id %s", tenderbase.Quote(id))
	}
	return k, err
}

// Authenticate returns the active key whose secret is secret, as
// tenderbase.KeyStore says, by tenderbase.AuthenticateBy's rules.
func (s *Store) Authenticate(ctx context.Context, secret string) (tenderbase.Key, error) {
	return tenderbase.AuthenticateBy(secret, func(want []byte) (tenderbase.Key, []byte, error) {
		var k tenderbase.Key
		var hash []byte
		err := s.read.run(ctx, func(c *conn) error {
			row := c.queryRow(ctx, `SELECT `+keyColumns+`, secret_hash FROM keys WHERE secret_hash = ?`, want)
			var err error
			k, err = scanKey(row, &hash)
			return err
		})
		if errors.Is(err, sql.ErrNoRows) {
			return tenderbase.Key{}, nil, nil
		}
		if err != nil {
			return k, nil, describe(err)
		}
		return k, hash, nil
	})
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanKey reads the keyColumns of a row, and then into extra.
func scanKey(row scanner, extra ...any) (tenderbase.Key, error) {
	var k tenderbase.Key
	var plan, created, overrides string
	dest := append([]any{&k.ID, &k.Name, &k.Account, &plan, &k.Status, &created, &overrides}, extra...)
	if err := row.Scan(dest...); err != nil {
		return k, err
	}
	k.Plan = tenderbase.Plan(plan)
	var err error
	if k.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return k, fmt.Errorf("key %s: created_at: %w", k.ID, err)
	}
	if err := json.Unmarshal([]byte(overrides), &k.Overrides); err != nil {
		return k, fmt.Errorf("key %s: overrides: %w", k.ID, err)
	}
	return k, nil
}
