package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// putMeasures writes the measures row of r at rid, or none for a record of
// a kind without measures.
func putMeasures(ctx context.Context, c statements, r tenderbase.Record, rid int64) error {
	if _, ok := r.(tenderbase.Measured); !ok {
		return nil
	}
	m := tenderbase.MeasuresOf(r)
	// An upsert, not INSERT OR REPLACE, whose conflict handling cost
	// 185 µs a record on import against 31.
	if _, err := c.exec(ctx, `INSERT INTO measures (rid, kind, price, deadline, ends) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (rid) DO UPDATE SET kind = excluded.kind, price = excluded.price, deadline = excluded.deadline, ends = excluded.ends`,
		rid, string(r.Kind()), nullPrice(m.Price), nullTime(m.Deadline.IsZero(), m.Deadline.Unix()),
		nullTime(m.Ends.IsZero(), m.Ends.Unix())); err != nil {
		return fmt.Errorf("store measures: %w", describe(err))
	}
	return nil
}

// putMeasures13 writes the measures row of r at rid in the columns that
// migration 0013 made, for its step: the ends came with 0022 (fillEnds).
func putMeasures13(ctx context.Context, c statements, r tenderbase.Record, rid int64) error {
	if _, ok := r.(tenderbase.Measured); !ok {
		return nil
	}
	m := tenderbase.MeasuresOf(r)
	if _, err := c.exec(ctx, `INSERT INTO measures (rid, kind, price, deadline) VALUES (?, ?, ?, ?)
		ON CONFLICT (rid) DO UPDATE SET kind = excluded.kind, price = excluded.price, deadline = excluded.deadline`,
		rid, string(r.Kind()), nullPrice(m.Price), nullTime(m.Deadline.IsZero(), m.Deadline.Unix())); err != nil {
		return fmt.Errorf("store measures: %w", describe(err))
	}
	return nil
}

func nullPrice(p float64) sql.NullFloat64 { return sql.NullFloat64{Float64: p, Valid: p > 0} }

func nullTime(zero bool, unix int64) sql.NullInt64 { return sql.NullInt64{Int64: unix, Valid: !zero} }

// fillMeasures writes the measures and the lookups of every current record,
// and derives every tender's standing, for a database made before measures
// (migration 0013).
func fillMeasures(ctx context.Context, tx *sql.Tx) error {
	c := txStatements{tx}
	err := eachCurrentRecord(ctx, tx, func(r ridRecord) error {
		if err := putMeasures13(ctx, c, r.rec, r.rid); err != nil {
			return err
		}
		for _, l := range r.rec.Lookups() {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO lookups (kind, field, value, rid) VALUES (?, ?, ?, ?)`,
				string(r.rec.Kind()), l.Field, l.Value, r.rid); err != nil {
				return fmt.Errorf("store lookup %s: %w", l.Field, describe(err))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return settleAllStates(ctx, tx, true)
}

// fillEnds writes the end of the term of every current contract, for a
// database made before the measures had it (migration 0022). Contracts
// alone have an end, so they alone are read.
func fillEnds(ctx context.Context, tx *sql.Tx) error {
	return eachCurrentRecordOf(ctx, tx, tenderbase.KindContract, func(r ridRecord) error {
		m := tenderbase.MeasuresOf(r.rec)
		if m.Ends.IsZero() {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE measures SET ends = ? WHERE rid = ?`, m.Ends.Unix(), r.rid); err != nil {
			return fmt.Errorf("store the end of contract %s: %w", r.rec.Key(), describe(err))
		}
		return nil
	})
}
