package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.SubscriptionStore = (*Store)(nil)

// subscriptionsLock is the class of the advisory lock that a new
// subscription holds on its account for its transaction, so that two
// created at once, on one server or two, cannot both take the account's
// last place, while other accounts' subscriptions go on. The lock takes
// two int4 keys, the class and a hash of the account, which PostgreSQL
// keeps apart from the one-key locks of keys and Put.
const subscriptionsLock = 0x7462_7375 // "tbsu"

// subscriptionColumns are the columns scanSubscription reads, in its order.
const subscriptionColumns = `id, account, settings, secret, position, ran_at, created_at`

// CreateSubscription stores a new subscription, as
// tenderbase.SubscriptionStore says. The account's count is read under
// the account's lock, so that two created at once cannot both take its
// last place.
func (s *Store) CreateSubscription(ctx context.Context, sub tenderbase.Subscription, plan tenderbase.Plan) (_ tenderbase.Subscription, err error) {
	defer classify(&err)
	sub, err = tenderbase.NewSubscription(sub, plan)
	if err != nil {
		return tenderbase.Subscription{}, err
	}
	if sub.Secret, err = tenderbase.NewSubscriptionSecret(); err != nil {
		return tenderbase.Subscription{}, fmt.Errorf("create subscription: %w", err)
	}
	settings, err := sub.Settings()
	if err != nil {
		return tenderbase.Subscription{}, fmt.Errorf("create subscription: %w", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, subscriptionsLock, sub.Account); err != nil {
			return fmt.Errorf("lock account %s: %w", sub.Account, err)
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM subscriptions WHERE account = $1`, sub.Account).Scan(&n); err != nil {
			return fmt.Errorf("count the subscriptions of %s: %w", sub.Account, err)
		}
		if err := tenderbase.CheckSubscriptionCount(sub.Account, plan, n); err != nil {
			return err
		}
		// A Put takes its numbers under the write lock and commits in their
		// order, so the committed end of the feed is where the changes not
		// yet seen begin.
		if err := tx.QueryRow(ctx, `SELECT COALESCE(max(seq), 0) FROM changes`).Scan(&sub.Position); err != nil {
			return fmt.Errorf("read the end of the feed: %w", err)
		}
		id, err := insertSubscription(ctx, tx, sub, settings)
		sub.ID = id
		return err
	})
	if err != nil {
		return tenderbase.Subscription{}, fmt.Errorf("create subscription: %w", err)
	}
	s.logger.Info("subscription created", "subscription", sub.ID, "account", sub.Account, "resource", sub.Resource)
	return sub, nil
}

// insertSubscription inserts sub under an id no subscription has, and
// returns the id.
func insertSubscription(ctx context.Context, tx pgx.Tx, sub tenderbase.Subscription, settings []byte) (string, error) {
	for range 10 {
		id, err := tenderbase.NewSubscriptionID()
		if err != nil {
			return "", err
		}
		// DO NOTHING leaves the transaction usable after a taken id, where
		// a unique violation would abort it.
		tag, err := tx.Exec(ctx, `INSERT INTO subscriptions (`+subscriptionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (id) DO NOTHING`,
			id, sub.Account, string(settings), sub.Secret, sub.Position, sub.RanAt.UnixMilli(), sub.CreatedAt.UnixMilli())
		if err != nil {
			return "", fmt.Errorf("insert subscription: %w", err)
		}
		if tag.RowsAffected() == 1 {
			return id, nil
		}
	}
	return "", errors.New("no free subscription id after 10 draws")
}

// Subscriptions lists subscriptions, oldest first.
func (s *Store) Subscriptions(ctx context.Context, account string) (_ []tenderbase.Subscription, err error) {
	defer classify(&err)
	if !tenderbase.Holdable(account) {
		return []tenderbase.Subscription{}, nil
	}
	rows, _ := s.pool.Query(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions
		WHERE $1 = '' OR account = $1 ORDER BY made`, account)
	subs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tenderbase.Subscription, error) {
		return scanSubscription(row)
	})
	if err != nil {
		return nil, fmt.Errorf("list subscriptions: %w", err)
	}
	if subs == nil {
		subs = []tenderbase.Subscription{}
	}
	return subs, nil
}

// Subscription returns one subscription.
func (s *Store) Subscription(ctx context.Context, id string) (_ tenderbase.Subscription, err error) {
	defer classify(&err)
	if !tenderbase.Holdable(id) {
		return tenderbase.Subscription{}, tenderbase.NoSubscription(id)
	}
	sub, err := scanSubscription(s.pool.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return sub, tenderbase.NoSubscription(id)
	}
	if err != nil {
		return sub, fmt.Errorf("read subscription %s: %w", id, err)
	}
	return sub, nil
}

// scanSubscription reads the subscriptionColumns of a row.
func scanSubscription(row pgx.Row) (tenderbase.Subscription, error) {
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
func (s *Store) DeleteSubscription(ctx context.Context, account, id string) (err error) {
	defer classify(&err)
	if !tenderbase.Holdable(id) || !tenderbase.Holdable(account) {
		return tenderbase.NoSubscription(id)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The delete waits for a mailing being committed to the
		// subscription, and the next statement then sees its deliveries.
		tag, err := tx.Exec(ctx, `DELETE FROM subscriptions WHERE id = $1 AND ($2 = '' OR account = $2)`, id, account)
		if err != nil {
			return fmt.Errorf("delete the subscription: %w", err)
		}
		if tag.RowsAffected() == 0 {
			return tenderbase.NoSubscription(id)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM deliveries WHERE subscription = $1 AND status = $2`,
			id, tenderbase.DeliveryPending); err != nil {
			return fmt.Errorf("delete its pending deliveries: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete subscription: %w", err)
	}
	s.logger.Info("subscription deleted", "subscription", id)
	return nil
}

// RemoveRecipient takes a recipient off a subscription.
func (s *Store) RemoveRecipient(ctx context.Context, id, recipient string) (err error) {
	defer classify(&err)
	if !tenderbase.Holdable(id) {
		return fmt.Errorf("unsubscribe: %w", tenderbase.NoSubscription(id))
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// FOR UPDATE: two recipients leaving at once each write the
		// settings they read, and the second must read the first's.
		sub, err := scanSubscription(tx.QueryRow(ctx, `SELECT `+subscriptionColumns+` FROM subscriptions WHERE id = $1 FOR UPDATE`, id))
		if errors.Is(err, pgx.ErrNoRows) {
			return tenderbase.NoSubscription(id)
		}
		if err != nil {
			return fmt.Errorf("read the subscription: %w", err)
		}
		sub, target, had := sub.WithoutRecipient(recipient)
		if !had {
			return tenderbase.Errorf(tenderbase.ENOTFOUND, "subscription %s mails no %s", id, tenderbase.Quote(recipient))
		}
		if _, err := tx.Exec(ctx, `DELETE FROM deliveries WHERE subscription = $1 AND target = $2 AND status = $3`,
			id, target, tenderbase.DeliveryPending); err != nil {
			return fmt.Errorf("delete the recipient's pending deliveries: %w", err)
		}
		if !sub.Mails() {
			if _, err := tx.Exec(ctx, `DELETE FROM subscriptions WHERE id = $1`, id); err != nil {
				return fmt.Errorf("delete the subscription mailing nobody: %w", err)
			}
			return nil
		}
		settings, err := sub.Settings()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE subscriptions SET settings = $1 WHERE id = $2`, string(settings), id); err != nil {
			return fmt.Errorf("update the subscription: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("unsubscribe: %w", err)
	}
	s.logger.Info("recipient unsubscribed", "subscription", id)
	return nil
}

// CommitMailing stores a mailing's deliveries and moves its subscription,
// in one transaction. Of two commits from one position, the second's
// UPDATE waits for the first and then finds the position moved: it
// changes no row and is the conflict.
func (s *Store) CommitMailing(ctx context.Context, m tenderbase.MailingCommit) (err error) {
	defer classify(&err)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// RETURNING reads the settings the update locked: a recipient
		// who unsubscribed since the mailer read them gets nothing.
		var settings string
		err := tx.QueryRow(ctx, `UPDATE subscriptions SET position = $1, ran_at = $2 WHERE id = $3 AND position = $4 RETURNING settings`,
			m.To, m.At.UnixMilli(), m.Subscription, m.From).Scan(&settings)
		if errors.Is(err, pgx.ErrNoRows) {
			return tenderbase.ErrMailingConflict
		}
		if err != nil {
			return fmt.Errorf("move the subscription: %w", err)
		}
		sub := tenderbase.Subscription{ID: m.Subscription}
		if err := sub.SetSettings([]byte(settings)); err != nil {
			return err
		}
		return insertDeliveries(ctx, tx, m.Subscription, m.At, sub.StillTargeted(m.Deliveries))
	})
	if err != nil {
		return fmt.Errorf("commit the mailing of subscription %s: %w", m.Subscription, err)
	}
	return nil
}

// insertDeliveries inserts ds as pending deliveries of subscription, due
// at at, in one statement.
func insertDeliveries(ctx context.Context, tx pgx.Tx, subscription string, at time.Time, ds []tenderbase.Delivery) error {
	if len(ds) == 0 {
		return nil
	}
	ids, targets, mailings := make([]string, len(ds)), make([]string, len(ds)), make([]string, len(ds))
	created := make([]int64, len(ds))
	for i, d := range ds {
		mailing, err := json.Marshal(d.Mailing)
		if err != nil {
			return fmt.Errorf("delivery %s: %w", d.ID, err)
		}
		ids[i], targets[i], mailings[i], created[i] = d.ID, d.Target, string(mailing), d.CreatedAt.UnixMilli()
	}
	if _, err := tx.Exec(ctx, `
		INSERT INTO deliveries (id, subscription, target, mailing, status, attempts, next_attempt, created_at)
		SELECT id, $1, target, mailing, $2, 0, $7, created_at
		FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[]) AS u (id, target, mailing, created_at)`,
		subscription, tenderbase.DeliveryPending, ids, targets, mailings, created, at.UnixMilli()); err != nil {
		return fmt.Errorf("insert deliveries: %w", err)
	}
	return nil
}

// deliveryColumns are the columns scanDelivery reads, in its order.
const deliveryColumns = `id, subscription, target, mailing, status, attempts, next_attempt, sent_at, last_error, created_at`

// ClaimDeliveries claims the deliveries due at now. SKIP LOCKED passes over
// the deliveries another sender is claiming at the same moment, which it
// will have moved past now once it commits, so that two senders never
// claim one delivery and neither waits for the other.
func (s *Store) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) (_ []tenderbase.Delivery, err error) {
	defer classify(&err)
	rows, _ := s.pool.Query(ctx, `UPDATE deliveries SET next_attempt = $1 WHERE id IN (
			SELECT id FROM deliveries WHERE status = $2 AND next_attempt <= $3
			ORDER BY created_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
		RETURNING `+deliveryColumns,
		now.Add(lease).UnixMilli(), tenderbase.DeliveryPending, now.UnixMilli(), limit)
	ds, err := pgx.CollectRows(rows, scanDelivery)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	// RETURNING comes in no set order.
	slices.SortFunc(ds, tenderbase.CompareDeliveries)
	return ds, nil
}

// scanDelivery reads the deliveryColumns of a row. A delivery sent or
// given up has no next attempt, whatever its column holds.
func scanDelivery(row pgx.CollectableRow) (tenderbase.Delivery, error) {
	var d tenderbase.Delivery
	var mailing string
	var next, created int64
	var sent *int64
	if err := row.Scan(&d.ID, &d.Subscription, &d.Target, &mailing, &d.Status, &d.Attempts, &next, &sent, &d.LastError, &created); err != nil {
		return d, err
	}
	if err := json.Unmarshal([]byte(mailing), &d.Mailing); err != nil {
		return d, fmt.Errorf("delivery %s: %w", d.ID, err)
	}
	d.NextAttempt, d.CreatedAt = time.UnixMilli(next).UTC(), time.UnixMilli(created).UTC()
	if sent != nil {
		d.SentAt = time.UnixMilli(*sent).UTC()
	}
	if d.Status != tenderbase.DeliveryPending {
		d.NextAttempt = time.Time{}
	}
	return d, nil
}

// FinishDelivery records the outcome of an attempt.
func (s *Store) FinishDelivery(ctx context.Context, d tenderbase.Delivery) (err error) {
	defer classify(&err)
	var sent *int64
	if !d.SentAt.IsZero() {
		ms := d.SentAt.UnixMilli()
		sent = &ms
	}
	if _, err := s.pool.Exec(ctx, `UPDATE deliveries SET status = $1, attempts = $2, next_attempt = $3, sent_at = $4, last_error = $5 WHERE id = $6`,
		d.Status, d.Attempts, d.NextAttempt.UnixMilli(), sent, d.LastError, d.ID); err != nil {
		return fmt.Errorf("finish delivery %s: %w", d.ID, err)
	}
	return nil
}

// Deliveries lists a subscription's deliveries, newest first.
func (s *Store) Deliveries(ctx context.Context, subscription string, limit int) (_ []tenderbase.Delivery, err error) {
	defer classify(&err)
	if !tenderbase.Holdable(subscription) {
		return []tenderbase.Delivery{}, nil
	}
	rows, _ := s.pool.Query(ctx, `SELECT `+deliveryColumns+` FROM deliveries WHERE subscription = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, subscription, limit)
	ds, err := pgx.CollectRows(rows, scanDelivery)
	if err != nil {
		return nil, fmt.Errorf("list deliveries of subscription %s: %w", subscription, err)
	}
	return ds, nil
}
