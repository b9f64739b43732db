package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// SearchPartial finds the partial matches of s from the postings in one
// snapshot (postings.Partial), as tenderbase.PartialSearcher says.
func (s *Store) SearchPartial(ctx context.Context, q tenderbase.Search, want int) (_ []tenderbase.PartialMatch, err error) {
	defer classify(&err)
	if _, findable, err := versioning.CheckSearch(q); err != nil || !findable {
		return nil, err
	}
	m, ranked, err := postings.PartialMatch(q, query.ForKind(q.Kind, q.Query))
	if err != nil {
		return nil, err
	}
	var found []tenderbase.PartialMatch
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) (err error) {
		bodies := func(ctx context.Context, rids []int64) ([]tenderbase.Record, error) {
			return bodiesOf(ctx, tx, q.Kind, rids)
		}
		found, err = postings.PartialMatches(ctx, loader(tx, q.Kind), records{tx, q.Kind}, bodies, m, want, ranked)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("partial matches of %s: %w", q.Kind, err)
	}
	return found, nil
}
