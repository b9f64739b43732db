package sqlite

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/spelling"
)

var _ spelling.Source = (*Store)(nil)

// Words returns the forms of the words the records of kind k hold, as
// spelling.Source says: the postings' terms of forms, read from the
// table's index in one range a column, without their bitmaps.
func (s *Store) Words(ctx context.Context, k tenderbase.Kind) ([]string, error) {
	var words []string
	err := s.read.tx(ctx, "BEGIN", func(c *conn) error {
		for _, r := range postings.FormRanges {
			rows, err := c.query(ctx, `SELECT DISTINCT term FROM postings WHERE kind = ? AND term >= ? AND term < ?`,
				string(k), r.Low, r.High)
			if err != nil {
				return err
			}
			for rows.Next() {
				var t string
				if err := rows.Scan(&t); err != nil {
					rows.Close()
					return err
				}
				words = append(words, postings.WordOf(t))
			}
			if err := rows.Close(); err != nil {
				return err
			}
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the words of %s: %w", k, describe(err))
	}
	return words, nil
}
