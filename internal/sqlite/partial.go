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
func (s *Store) SearchPartial(ctx context.Context, q tenderbase.Search, want int) (tenderbase.PartialPage, error) {
	if _, findable, err := versioning.CheckSearch(q); err != nil || !findable {
		return tenderbase.PartialPage{}, err
	}
	m, ranked, err := postings.PartialMatch(q, query.ForKind(q.Kind, q.Query))
	if err != nil {
		return tenderbase.PartialPage{}, err
	}
	var found tenderbase.PartialPage
	err = s.read.tx(ctx, "BEGIN", func(c *conn) (err error) {
		bodies := func(ctx context.Context, rids []int64) ([]tenderbase.Record, error) {
			return bodiesOf(ctx, c, q.Kind, rids)
		}
		if found, err = postings.PartialMatches(ctx, loader(c, q.Kind), records{c, q.Kind}, bodies, m, want, ranked); err != nil {
			return err
		}
		found.Generation, err = generation(ctx, c)
		return err
	})
	if err != nil {
		return tenderbase.PartialPage{}, fmt.Errorf("partial matches of %s: %w", q.Kind, describe(err))
	}
	return found, nil
}
