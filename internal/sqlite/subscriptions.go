package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.SubscriptionStore = (*Store)(nil)

const subscriptionColumns = `id, account, settings, secret, position, ran_at, created_at`

// CreateSubscription stores a new subscription, as
// tenderbase.SubscriptionStore says. The account's count is checked inside
// the write transaction, so that two created at once cannot both take its
// last place.
func (s *Store) CreateSubscription(ctx context.Context, sub tenderbase.Subscription, plan tenderbase.Plan) (tenderbase.Subscription, error) {
	sub, err := tenderbase.NewSubscription(sub, plan)
	if err != nil {
		return tenderbase.Subscription{}, err
	}
	if sub.Secret, err = tenderbase.NewSubscriptionSecret(); err != nil {
		return tenderbase.Subscription{}, err
	}
	settings, err := sub.Settings()
	if err != nil {
		return tenderbase.Subscription{}, err
	}
	err = s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		var n int
		if err := c.queryRow(ctx, `SELECT COUNT(*) FROM subscriptions WHERE account = ?`, sub.Account).Scan(&n); err != nil {
			return describe(err)
		}
		if err := tenderbase.CheckSubscriptionCount(sub.Account, plan, n); err != nil {
			return err
		}
		if err := c.queryRow(ctx, `SELECT COALESCE(MAX(seq), 0) FROM changes`).Scan(&sub.Position); err != nil {
			return describe(err)
		}
		for range 10 {
			if sub.ID, err = tenderbase.NewSubscriptionID(); err != nil {
				return err
			}
			res, err := c.exec(ctx, `INSERT INTO subscriptions (`+subscriptionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO NOTHING`,
				sub.ID, sub.Account, string(settings), sub.Secret, sub.Position, sub.RanAt.UnixMilli(), sub.CreatedAt.UnixMilli())
			if err != nil {
				return describe(err)
			}
			if n, _ := res.RowsAffected(); n == 1 {
				return nil
			}
		}
		return errors.New("no free subscription id after 10 draws")
	})
	if err != nil {
		return tenderbase.Subscription{}, fmt.Errorf("create subscription: %w", err)
	}
	s.logger.Info("subscription created", "subscription", sub.ID, "account", sub.Account, "resource", sub.Resource)
	return sub, nil
}

// Subscriptions lists subscriptions, oldest first: in the order they were
// created, which the rowid keeps.
func (s *Store) Subscriptions(ctx context.Context, account string) ([]tenderbase.Subscription, error) {
	subs := []tenderbase.Subscription{}
	err := s.read.run(ctx, func(c *conn) error {
		rows, err := c.query(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions
			WHERE ? = '' OR account = ? ORDER BY rowid`, account, account)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			sub, err := scanSubscription(rows)
			if err != nil {
				return err
			}
			subs = append(subs, sub)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list subscriptions: %w", describe(err))
	}
	return subs, nil
}

// Subscription returns one subscription.
func (s *Store) Subscription(ctx context.Context, id string) (tenderbase.Subscription, error) {
	var sub tenderbase.Subscription
	err := s.read.run(ctx, func(c *conn) error {
		var err error
		sub, err = scanSubscription(c.queryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions WHERE id = ?`, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return sub, tenderbase.NoSubscription(id)
	}
	if err != nil {
		return sub, fmt.Errorf("read subscription %s: %w", id, describe(err))
	}
	return sub, nil
}

func scanSubscription(row scanner) (tenderbase.Subscription, error) {
	var sub tenderbase.Subscription
	var settings string
	var ran, created int64
	if err := row.Scan(&sub.ID, &sub.Account, &settings, &sub.Secret, &sub.Position, &ran, &created); err != nil {
		return sub, err
	}
	sub.RanAt, sub.CreatedAt = time.UnixMilli(ran).UTC(), time.UnixMilli(created).UTC()
	return sub, sub.SetSettings([]byte(settings))
}

// DeleteSubscription deletes a subscription and its deliveries not sent.
func (s *Store) DeleteSubscription(ctx context.Context, account, id string) error {
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		res, err := c.exec(ctx, `DELETE FROM subscriptions WHERE id = ? AND (? = '' OR account = ?)`, id, account, account)
		if err != nil {
			return describe(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return tenderbase.NoSubscription(id)
		}
		_, err = c.exec(ctx, `DELETE FROM deliveries WHERE subscription = ? AND status = ?`, id, tenderbase.DeliveryPending)
		return describe(err)
	})
	if err != nil {
		return fmt.Errorf("delete subscription: %w", err)
	}
	s.logger.Info("subscription deleted", "subscription", id)
	return nil
}

// RemoveRecipient takes a recipient off a subscription.
func (s *Store) RemoveRecipient(ctx context.Context, id, recipient string) error {
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		sub, err := scanSubscription(c.queryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return tenderbase.NoSubscription(id)
		}
		if err != nil {
			return describe(err)
		}
		sub, target, had := sub.WithoutRecipient(recipient)
		if !had {
			return tenderbase.Errorf(tenderbase.ENOTFOUND, "subscription %s mails no %s", id, tenderbase.Quote(recipient))
		}
		if _, err := c.exec(ctx, `DELETE FROM deliveries WHERE subscription = ? AND target = ? AND status = ?`,
			id, target, tenderbase.DeliveryPending); err != nil {
			return describe(err)
		}
		if !sub.Mails() {
			_, err := c.exec(ctx, `DELETE FROM subscriptions WHERE id = ?`, id)
			return describe(err)
		}
		settings, err := sub.Settings()
		if err != nil {
			return err
		}
		_, err = c.exec(ctx, `UPDATE subscriptions SET settings = ? WHERE id = ?`, string(settings), id)
		return describe(err)
	})
	if err != nil {
		return fmt.Errorf("unsubscribe: %w", err)
	}
	s.logger.Info("recipient unsubscribed", "subscription", id)
	return nil
}

// CommitMailing stores a mailing's deliveries and moves its subscription,
// in one transaction.
func (s *Store) CommitMailing(ctx context.Context, m tenderbase.MailingCommit) error {
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		// RETURNING reads the settings as this transaction writes: a
		// recipient who unsubscribed since the mailer read them gets
		// nothing.
		var settings string
		err := c.queryRow(ctx, `UPDATE subscriptions SET position = ?, ran_at = ? WHERE id = ? AND position = ? RETURNING settings`,
			m.To, m.At.UnixMilli(), m.Subscription, m.From).Scan(&settings)
		if errors.Is(err, sql.ErrNoRows) {
			return tenderbase.ErrMailingConflict
		}
		if err != nil {
			return describe(err)
		}
		sub := tenderbase.Subscription{ID: m.Subscription}
		if err := sub.SetSettings([]byte(settings)); err != nil {
			return err
		}
		for _, d := range sub.StillTargeted(m.Deliveries) {
			mailing, err := json.Marshal(d.Mailing)
			if err != nil {
				return err
			}
			if _, err := c.exec(ctx, `INSERT INTO deliveries (id, subscription, target, mailing, status, attempts, next_attempt, created_at)
				VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
				d.ID, m.Subscription, d.Target, string(mailing), tenderbase.DeliveryPending, m.At.UnixMilli(), d.CreatedAt.UnixMilli()); err != nil {
				return describe(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit the mailing of subscription %s: %w", m.Subscription, err)
	}
	return nil
}

const deliveryColumns = `id, subscription, target, mailing, status, attempts, next_attempt, sent_at, last_error, created_at`

// ClaimDeliveries claims the deliveries due at now.
func (s *Store) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]tenderbase.Delivery, error) {
	var ds []tenderbase.Delivery
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		var err error
		ds, err = queryDeliveries(ctx, c, `UPDATE deliveries SET next_attempt = ? WHERE id IN (
				SELECT id FROM deliveries WHERE status = ? AND next_attempt <= ? ORDER BY created_at, id LIMIT ?)
			RETURNING `+deliveryColumns,
			now.Add(lease).UnixMilli(), tenderbase.DeliveryPending, now.UnixMilli(), limit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", describe(err))
	}
	// RETURNING comes in no set order.
	slices.SortFunc(ds, tenderbase.CompareDeliveries)
	return ds, nil
}

// queryDeliveries runs query, whose rows are deliveryColumns, and reads
// them.
func queryDeliveries(ctx context.Context, c *conn, query string, args ...any) ([]tenderbase.Delivery, error) {
	rows, err := c.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ds := []tenderbase.Delivery{}
	for rows.Next() {
		var d tenderbase.Delivery
		var mailing string
		var next, created int64
		var sent sql.NullInt64
		if err := rows.Scan(&d.ID, &d.Subscription, &d.Target, &mailing, &d.Status, &d.Attempts, &next, &sent, &d.LastError, &created); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(mailing), &d.Mailing); err != nil {
			return nil, fmt.Errorf("delivery %s: %w", d.ID, err)
		}
		d.NextAttempt, d.CreatedAt = time.UnixMilli(next).UTC(), time.UnixMilli(created).UTC()
		if sent.Valid {
			d.SentAt = time.UnixMilli(sent.Int64).UTC()
		}
		if d.Status != tenderbase.DeliveryPending {
			d.NextAttempt = time.Time{}
		}
		ds = append(ds, d)
	}
	return ds, rows.Err()
}

// FinishDelivery records the outcome of an attempt.
func (s *Store) FinishDelivery(ctx context.Context, d tenderbase.Delivery) error {
	var sent sql.NullInt64
	if !d.SentAt.IsZero() {
		sent = sql.NullInt64{Int64: d.SentAt.UnixMilli(), Valid: true}
	}
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		_, err := c.exec(ctx, `UPDATE deliveries SET status = ?, attempts = ?, next_attempt = ?, sent_at = ?, last_error = ? WHERE id = ?`,
			d.Status, d.Attempts, d.NextAttempt.UnixMilli(), sent, d.LastError, d.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish delivery %s: %w", d.ID, describe(err))
	}
	return nil
}

// Deliveries lists a subscription's deliveries, newest first.
func (s *Store) Deliveries(ctx context.Context, subscription string, limit int) ([]tenderbase.Delivery, error) {
	var ds []tenderbase.Delivery
	err := s.read.run(ctx, func(c *conn) error {
		var err error
		ds, err = queryDeliveries(ctx, c, `SELECT `+deliveryColumns+` FROM deliveries WHERE subscription = ?
			ORDER BY created_at DESC, id DESC LIMIT ?`, subscription, limit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list deliveries: %w", describe(err))
	}
	return ds, nil
}
