package postgres

import (
	"context"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/analytics"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

var _ tenderbase.Rivals = (*Store)(nil)

// bidRows returns the bids rows of the protocols among records at rids.
func bidRows(recs []tenderbase.Record, rids []int64) [][]any {
	var rows [][]any
	for i, r := range recs {
		if p, ok := r.(*tenderbase.Protocol); ok {
			for _, b := range tenderbase.BidsOf(p) {
				rows = append(rows, append([]any{rids[i]}, analytics.BidValues(b)...))
			}
		}
	}
	return rows
}

// copyBids writes the bids rows of the protocols among records at rids,
// which have none yet.
func copyBids(ctx context.Context, tx pgx.Tx, recs []tenderbase.Record, rids []int64) error {
	rows := bidRows(recs, rids)
	if len(rows) == 0 {
		return nil
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"bids"}, append([]string{"rid"}, analytics.BidColumns...),
		pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("store bids: %w", err)
	}
	return nil
}

// putBids writes the bids rows of a protocol at rid anew, and none for
// another kind.
func putBids(ctx context.Context, tx pgx.Tx, r tenderbase.Record, rid int64) error {
	if r.Kind() != tenderbase.KindProtocol {
		return nil
	}
	if _, err := tx.Exec(ctx, `DELETE FROM bids WHERE rid = $1`, rid); err != nil {
		return fmt.Errorf("clear bids: %w", err)
	}
	return copyBids(ctx, tx, []tenderbase.Record{r}, []int64{rid})
}

// encodedRecords returns the records of es.
func encodedRecords(es []versioning.Encoded) []tenderbase.Record {
	out := make([]tenderbase.Record, len(es))
	for i, e := range es {
		out[i] = e.Rec
	}
	return out
}

// fillBids writes the bids of every current protocol, and the facts of
// every current contract anew (its outcome is its status), a batch at a
// time, for a database made before bids (migration 0019).
func fillBids(ctx context.Context, tx pgx.Tx) error {
	after := int64(math.MinInt64)
	for {
		rows, _ := tx.Query(ctx, `
			SELECT r.rid, r.doc, r.kind, v.body FROM records r JOIN versions v ON v.id = r.version
			WHERE r.rid > $1 AND r.kind IN ('protocol', 'contract') ORDER BY r.rid LIMIT $2`, after, reindexBatch)
		var recs []tenderbase.Record
		var rids []int64
		var contracts []tenderbase.Record
		var crids, cdocs []int64
		var rid int64
		var doc *int64
		var kind string
		var body []byte
		_, err := pgx.ForEachRow(rows, []any{&rid, &doc, &kind, &body}, func() error {
			r, err := versioning.Decode(tenderbase.Kind(kind), body)
			if err != nil {
				return err
			}
			after = rid
			recs, rids = append(recs, r), append(rids, rid)
			if r.Kind() == tenderbase.KindContract {
				contracts, crids = append(contracts, r), append(crids, rid)
				var d int64
				if doc != nil {
					d = *doc
				}
				cdocs = append(cdocs, d)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read records for their bids: %w", err)
		}
		if err := copyBids(ctx, tx, recs, rids); err != nil {
			return err
		}
		for i, c := range contracts {
			if err := putFacts(ctx, tx, c, crids[i], cdocs[i]); err != nil {
				return err
			}
		}
		if len(recs) < reindexBatch {
			return nil
		}
	}
}

// Rivalry answers how a supplier fared in the protocols, from the bids
// table in one snapshot (tenderbase.Rivals).
func (s *Store) Rivalry(ctx context.Context, p tenderbase.Profiling) (_ tenderbase.Rivalry, err error) {
	defer classify(&err)
	var out tenderbase.Rivalry
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		gen, err := generation(ctx, tx)
		if err != nil {
			return err
		}
		q := func(ctx context.Context, query string, args ...any) (analytics.Scanner, func(), error) {
			rows, err := tx.Query(ctx, query, args...)
			if err != nil {
				return nil, nil, err
			}
			return rows, rows.Close, nil
		}
		out, err = analytics.Rivalry(ctx, q, analytics.Dollar, p)
		out.Generation = gen
		return err
	})
	return out, err
}
