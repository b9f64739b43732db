package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/analytics"
)

var _ tenderbase.Rivals = (*Store)(nil)

var putBidSQL = `INSERT INTO bids (rid, ` + strings.Join(analytics.BidColumns, ", ") + `) VALUES (?` +
	strings.Repeat(", ?", len(analytics.BidColumns)) + `)`

// putBids writes the bids rows of a protocol at rid anew, and none for
// another kind.
func putBids(ctx context.Context, c statements, r tenderbase.Record, rid int64) error {
	p, ok := r.(*tenderbase.Protocol)
	if !ok {
		return nil
	}
	if _, err := c.exec(ctx, `DELETE FROM bids WHERE rid = ?`, rid); err != nil {
		return fmt.Errorf("clear bids: %w", describe(err))
	}
	for _, b := range tenderbase.BidsOf(p) {
		if _, err := c.exec(ctx, putBidSQL, append([]any{rid}, analytics.BidValues(b)...)...); err != nil {
			return fmt.Errorf("store bid: %w", describe(err))
		}
	}
	return nil
}

// fillBids writes the bids of every current protocol, and the facts of
// every current contract anew (its outcome is its status), for a
// database made before bids (migration 0027).
func fillBids(ctx context.Context, tx *sql.Tx) error {
	c := txStatements{tx}
	if err := eachCurrentRecordOf(ctx, tx, tenderbase.KindProtocol, func(r ridRecord) error { return putBids(ctx, c, r.rec, r.rid) }); err != nil {
		return err
	}
	return eachCurrentRecordOf(ctx, tx, tenderbase.KindContract, func(r ridRecord) error { return putFacts(ctx, c, r.rec, r.rid) })
}

// Rivalry answers how a supplier fared in the protocols, from the bids
// table in one read transaction (tenderbase.Rivals).
func (s *Store) Rivalry(ctx context.Context, p tenderbase.Profiling) (tenderbase.Rivalry, error) {
	var out tenderbase.Rivalry
	err := s.read.tx(ctx, "BEGIN", func(c *conn) error {
		gen, err := generation(ctx, c)
		if err != nil {
			return err
		}
		q := func(ctx context.Context, query string, args ...any) (analytics.Scanner, func(), error) {
			rows, err := c.query(ctx, query, args...)
			if err != nil {
				return nil, nil, describe(err)
			}
			return rows, func() { rows.Close() }, nil
		}
		out, err = analytics.Rivalry(ctx, q, analytics.Numbered, p)
		out.Generation = gen
		return err
	})
	return out, err
}
