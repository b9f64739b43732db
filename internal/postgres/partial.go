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
func (s *Store) SearchPartial(ctx context.Context, q tenderbase.Search, want int) (_ tenderbase.PartialPage, err error) {
	defer classify(&err)
	if _, findable, err := versioning.CheckSearch(q); err != nil || !findable {
		return tenderbase.PartialPage{}, err
	}
	m, ranked, err := postings.PartialMatch(q, query.ForKind(q.Kind, q.Query))
	if err != nil {
		return tenderbase.PartialPage{}, err
	}
	var found tenderbase.PartialPage
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) (err error) {
		bodies := func(ctx context.Context, rids []int64) ([]tenderbase.Record, error) {
			return bodiesOf(ctx, tx, q.Kind, rids)
		}
		if found, err = postings.PartialMatches(ctx, loader(tx, q.Kind), records{tx, q.Kind}, bodies, m, want, ranked); err != nil {
			return err
		}
		found.Generation, err = generation(ctx, tx)
		return err
	})
	if err != nil {
		return tenderbase.PartialPage{}, fmt.Errorf("partial matches of %s: %w", q.Kind, err)
	}
	return found, nil
}
