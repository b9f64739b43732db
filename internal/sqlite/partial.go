package sqlite

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// SearchPartial finds the partial matches of s from the postings in one
// read transaction (postings.Partial), as tenderbase.PartialSearcher says.
func (s *Store) SearchPartial(ctx context.Context, q tenderbase.Search, want int) ([]tenderbase.PartialMatch, error) {
	if _, findable, err := versioning.CheckSearch(q); err != nil || !findable {
		return nil, err
	}
	m, ranked, err := postings.PartialMatch(q, query.ForKind(q.Kind, q.Query))
	if err != nil {
		return nil, err
	}
	var found []tenderbase.PartialMatch
	err = s.read.tx(ctx, "BEGIN", func(c *conn) (err error) {
		bodies := func(ctx context.Context, rids []int64) ([]tenderbase.Record, error) {
			return bodiesOf(ctx, c, q.Kind, rids)
		}
		found, err = postings.PartialMatches(ctx, loader(c, q.Kind), records{c, q.Kind}, bodies, m, want, ranked)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("partial matches of %s: %w", q.Kind, describe(err))
	}
	return found, nil
}
