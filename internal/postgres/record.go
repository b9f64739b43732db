package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// Get returns the current version of a record.
func (s *Store) Get(ctx context.Context, k tenderbase.Kind, key string) (_ tenderbase.Record, err error) {
	defer classify(&err)
	if err := versioning.CheckKey(k, key); err != nil {
		return nil, err
	}
	var body []byte
	err = s.pool.QueryRow(ctx, `
		SELECT v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = $1 AND r.key = $2`, string(k), key).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, s.notFound(ctx, k, key)
	}
	if err != nil {
		return nil, fmt.Errorf("get %s %s: %w", k, key, err)
	}
	return versioning.Decode(k, body)
}

// GetMany returns the current records of kind k among keys, in one round
// trip (tenderbase.ManyGetter).
func (s *Store) GetMany(ctx context.Context, k tenderbase.Kind, keys []string) (_ map[string]tenderbase.Record, err error) {
	defer classify(&err)
	keys = versioning.HoldableKeys(keys)
	rows, _ := s.pool.Query(ctx, `
		SELECT r.key, v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = $1 AND r.key = ANY($2)`, string(k), keys)
	out := make(map[string]tenderbase.Record, len(keys))
	var key string
	var body []byte
	_, err = pgx.ForEachRow(rows, []any{&key, &body}, func() error {
		r, err := versioning.Decode(k, body)
		out[key] = r
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("get %d records of %s: %w", len(keys), k, err)
	}
	return out, nil
}

// notFound is the error of Get for a record with no current row: withdrawn,
// or never stored.
func (s *Store) notFound(ctx context.Context, k tenderbase.Kind, key string) error {
	by, gone, err := withdrawnBy(ctx, s.pool, string(k), key)
	if err != nil {
		return fmt.Errorf("get %s %s: %w", k, key, err)
	}
	if gone {
		return tenderbase.Errorf(tenderbase.ENOTFOUND, "%s %s was withdrawn (withdrawal %s)", k, tenderbase.Quote(key), tenderbase.Quote(by))
	}
	return versioning.NotFound(k, key)
}

// Versions returns every stored version of a record, oldest first.
func (s *Store) Versions(ctx context.Context, k tenderbase.Kind, key string) (_ []tenderbase.Record, err error) {
	defer classify(&err)
	if err := versioning.CheckKey(k, key); err != nil {
		return nil, err
	}
	rows, _ := s.pool.Query(ctx, `
		SELECT body FROM versions WHERE kind = $1 AND key = $2 ORDER BY revision`, string(k), key)
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, fmt.Errorf("versions of %s %s: %w", k, key, err)
	}
	if len(bodies) == 0 {
		return nil, versioning.NotFound(k, key)
	}
	return versioning.DecodeAll(k, bodies)
}
