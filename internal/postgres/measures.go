package postgres

import (
	"context"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// measures returns the price and deadline columns of r, nil where it has
// none.
func measures(r tenderbase.Record) (price *float64, deadline *int64) {
	m := tenderbase.MeasuresOf(r)
	if m.Price > 0 {
		price = &m.Price
	}
	return price, unixOrNil(m.Deadline.IsZero(), m.Deadline.Unix())
}

// endsOf returns the ends column of r, nil where it has no end.
func endsOf(r tenderbase.Record) *int64 {
	m := tenderbase.MeasuresOf(r)
	return unixOrNil(m.Ends.IsZero(), m.Ends.Unix())
}

func unixOrNil(zero bool, unix int64) *int64 {
	if zero {
		return nil
	}
	return &unix
}

// fillMeasures writes the measures and the lookups of every current record,
// a batch at a time, and derives every tender's standing, for a database
// made before measures (migration 0008).
func fillMeasures(ctx context.Context, tx pgx.Tx) error {
	after := int64(math.MinInt64)
	for {
		var n int
		var err error
		if after, n, err = fillMeasuresAfter(ctx, tx, after); err != nil {
			return err
		}
		if n < reindexBatch {
			return settleAllStates(ctx, tx, true)
		}
	}
}

// fillMeasuresAfter fills the measures and lookups of the next reindexBatch
// records after the rid after, and returns the last rid read and how many
// were.
func fillMeasuresAfter(ctx context.Context, tx pgx.Tx, after int64) (int64, int, error) {
	rows, _ := tx.Query(ctx, `
		SELECT r.rid, r.kind, v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.rid > $1 ORDER BY r.rid LIMIT $2`, after, reindexBatch)
	var rids, lookupRIDs []int64
	var prices []*float64
	var deadlines []*int64
	var kinds, fields, values []string
	var rid int64
	var kind string
	var body []byte
	n := 0
	_, err := pgx.ForEachRow(rows, []any{&rid, &kind, &body}, func() error {
		after, n = rid, n+1
		r, err := versioning.Decode(tenderbase.Kind(kind), body)
		if err != nil {
			return err
		}
		p, d := measures(r)
		rids, prices, deadlines = append(rids, rid), append(prices, p), append(deadlines, d)
		for _, l := range r.Lookups() {
			lookupRIDs, kinds = append(lookupRIDs, rid), append(kinds, kind)
			fields, values = append(fields, l.Field), append(values, l.Value)
		}
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("read records to measure: %w", err)
	}
	if _, err := tx.Exec(ctx, `
		UPDATE records r SET price = u.price, deadline = u.deadline
		FROM unnest($1::bigint[], $2::double precision[], $3::bigint[]) AS u (rid, price, deadline)
		WHERE r.rid = u.rid`, rids, prices, deadlines); err != nil {
		return 0, 0, fmt.Errorf("store measures: %w", err)
	}
	if _, err := tx.Exec(ctx, `
		INSERT INTO lookups (kind, field, value, rid)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
		ON CONFLICT DO NOTHING`, kinds, fields, values, lookupRIDs); err != nil {
		return 0, 0, fmt.Errorf("store lookups: %w", err)
	}
	return after, n, nil
}

// fillEnds writes the end of the term of every current contract, a batch
// at a time, for a database made before records had it (migration 0017).
// Contracts alone have an end, so they alone are read.
func fillEnds(ctx context.Context, tx pgx.Tx) error {
	for after := int64(math.MinInt64); ; {
		rows, _ := tx.Query(ctx, `
			SELECT r.rid, v.body FROM records r JOIN versions v ON v.id = r.version
			WHERE r.kind = $1 AND r.rid > $2 ORDER BY r.rid LIMIT $3`, string(tenderbase.KindContract), after, reindexBatch)
		var rids []int64
		var ends []*int64
		var rid int64
		n := 0
		var body []byte
		_, err := pgx.ForEachRow(rows, []any{&rid, &body}, func() error {
			after = rid
			r, err := versioning.Decode(tenderbase.KindContract, body)
			if err != nil {
				return err
			}
			// A row rewritten for nothing costs what a row of text costs
			// to index again: only the contracts with an end are written.
			if end := endsOf(r); end != nil {
				rids, ends = append(rids, rid), append(ends, end)
			}
			n++
			return nil
		})
		if err != nil {
			return fmt.Errorf("read contracts to measure: %w", err)
		}
		if _, err := tx.Exec(ctx, `
			UPDATE records r SET ends = u.ends FROM unnest($1::bigint[], $2::bigint[]) AS u (rid, ends)
			WHERE r.rid = u.rid`, rids, ends); err != nil {
			return fmt.Errorf("store the ends of contracts: %w", err)
		}
		if n < reindexBatch {
			return nil
		}
	}
}
