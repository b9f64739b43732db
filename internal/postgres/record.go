package postgres

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
)

// Get returns the current version of a record.
func (s *Store) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	var body []byte
	err := s.pool.QueryRow(ctx, `
		SELECT v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.kind = $1 AND r.key = $2`, string(k), key).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, s.notFound(ctx, k, key)
	}
	if err != nil {
		return nil, fmt.Errorf("get %s %s: %w", k, key, err)
	}
	return decode(k, body)
}

// notFound is the error of Get for a record with no current row: withdrawn,
// or never stored.
func (s *Store) notFound(ctx context.Context, k tenderbase.Kind, key string) error {
	by, gone, err := withdrawnBy(ctx, s.pool, string(k), key)
	if err != nil {
		return fmt.Errorf("get %s %s: %w", k, key, err)
	}
	if gone {
		return tenderbase.Errorf(tenderbase.ENOTFOUND, "%s %q was withdrawn (withdrawal %q)", k, key, by)
	}
	return tenderbase.Errorf(tenderbase.ENOTFOUND, "no %s with key %q", k, key)
}

// Versions returns every stored version of a record, oldest first.
func (s *Store) Versions(ctx context.Context, k tenderbase.Kind, key string) ([]tenderbase.Record, error) {
	rows, _ := s.pool.Query(ctx, `
		SELECT body FROM versions WHERE kind = $1 AND key = $2 ORDER BY revision`, string(k), key)
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, fmt.Errorf("versions of %s %s: %w", k, key, err)
	}
	if len(bodies) == 0 {
		return nil, tenderbase.Errorf(tenderbase.ENOTFOUND, "no %s with key %q", k, key)
	}
	return decodeAll(k, bodies)
}

func decodeAll(k tenderbase.Kind, bodies [][]byte) ([]tenderbase.Record, error) {
	out := make([]tenderbase.Record, len(bodies))
	for i, body := range bodies {
		var err error
		if out[i], err = decode(k, body); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decode reads a stored body. A body that no longer decodes is our fault, not
// the caller's, so its error is internal.
func decode(k tenderbase.Kind, body []byte) (tenderbase.Record, error) {
	r, err := tenderbase.DecodeRecord(k, body)
	if err != nil {
		return nil, fmt.Errorf("decode stored %s: %s", k, err.Error())
	}
	return r, nil
}

// encoded is a record ready to be stored.
type encoded struct {
	rec  tenderbase.Record
	kind string
	key  string
	rev  int
	body []byte
	hash []byte
}

func encode(r tenderbase.Record) (encoded, error) {
	if r.Key() == "" {
		return encoded{}, tenderbase.Errorf(tenderbase.EINVALID, "%s record has no key", r.Kind())
	}
	if _, err := tenderbase.NewRecord(r.Kind()); err != nil {
		return encoded{}, err
	}
	body, err := tenderbase.MarshalRecord(r)
	if err != nil {
		return encoded{}, err
	}
	sum := sha256.Sum256(body)
	return encoded{rec: r, kind: string(r.Kind()), key: r.Key(), rev: r.Revision(), body: body, hash: sum[:]}, nil
}
