package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/spelling"
)

var _ spelling.Source = (*Store)(nil)

// Words returns the forms of the words the records of kind k hold, as
// spelling.Source says: the postings' terms of forms, read from the
// primary key's index in one range a column (an index-only scan, without
// the bitmaps), in one statement.
func (s *Store) Words(ctx context.Context, k tenderbase.Kind) (_ []string, err error) {
	defer classify(&err)
	lows, highs := make([]string, len(postings.FormRanges)), make([]string, len(postings.FormRanges))
	for i, r := range postings.FormRanges {
		lows[i], highs[i] = r.Low, r.High
	}
	rows, _ := s.pool.Query(ctx, `
		SELECT DISTINCT p.term FROM unnest($2::text[], $3::text[]) AS r (low, high)
		CROSS JOIN LATERAL (SELECT term FROM postings WHERE kind = $1 AND term >= r.low AND term < r.high) p`,
		string(k), lows, highs)
	var words []string
	var term string
	if _, err = pgx.ForEachRow(rows, []any{&term}, func() error {
		words = append(words, postings.WordOf(term))
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read the words of %s: %w", k, err)
	}
	return words, nil
}
