package postgres

import (
	"context"
	"fmt"

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
// time, for a database made before bids (migration 0022).
func fillBids(ctx context.Context, tx pgx.Tx) error {
	kinds := []string{string(tenderbase.KindProtocol), string(tenderbase.KindContract)}
	return eachBatchOf(ctx, tx, kinds, "", func(es []versioning.Encoded, rids []int64, docs []*int64) error {
		if err := copyBids(ctx, tx, encodedRecords(es), rids); err != nil {
			return err
		}
		for i, e := range es {
			if e.Rec.Kind() != tenderbase.KindContract {
				continue
			}
			var doc int64
			if docs[i] != nil {
				doc = *docs[i]
			}
			if err := putFacts(ctx, tx, e.Rec, rids[i], doc); err != nil {
				return err
			}
		}
		return nil
	})
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
