package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/analytics"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

var _ tenderbase.Aggregator = (*Store)(nil)

// putFactsSQL upserts a facts row (analytics.Columns after rid and kind).
var putFactsSQL = `INSERT INTO facts (rid, kind, ` + strings.Join(analytics.Columns, ", ") + `) VALUES (?, ?` +
	strings.Repeat(", ?", len(analytics.Columns)) + `) ON CONFLICT (rid) DO UPDATE SET ` + updateAll(analytics.Columns)

func updateAll(cols []string) string {
	set := []string{"kind = excluded.kind"}
	for _, c := range cols {
		set = append(set, c+" = excluded."+c)
	}
	return strings.Join(set, ", ")
}

// putFacts writes the facts row of r at rid, or none for a kind that does
// not aggregate.
func putFacts(ctx context.Context, c statements, r tenderbase.Record, rid int64) error {
	f, ok := tenderbase.FactsOf(r)
	if !ok {
		return nil
	}
	args := append([]any{rid, string(r.Kind())}, analytics.Values(f)...)
	if _, err := c.exec(ctx, putFactsSQL, args...); err != nil {
		return fmt.Errorf("store facts: %w", describe(err))
	}
	return nil
}

// fillFacts writes the facts of every current record that has facts and
// no row yet, and the standing of every tender into its facts when it
// wrote a tender's, for a database made before facts (migration 0023) or
// before complaints had them (0024).
func fillFacts(ctx context.Context, tx *sql.Tx) error {
	c := txStatements{tx}
	tenders := false
	after := int64(math.MinInt64)
	for {
		batch, err := recordsWithoutFacts(ctx, tx, after)
		if err != nil {
			return err
		}
		for _, r := range batch {
			if err := putFacts(ctx, c, r.rec, r.rid); err != nil {
				return err
			}
			tenders = tenders || r.rec.Kind() == tenderbase.KindTender
			after = r.rid
		}
		if len(batch) < reindexBatch {
			break
		}
	}
	if !tenders {
		return nil
	}
	return settleAllStates(ctx, tx, false)
}

// recordsWithoutFacts returns the next reindexBatch current records of
// the kinds that have facts, after the rid after, that have no facts row.
func recordsWithoutFacts(ctx context.Context, tx *sql.Tx, after int64) ([]ridRecord, error) {
	kinds := tenderbase.FactKinds()
	rows, err := tx.QueryContext(ctx, `
		SELECT r.rid, r.kind, v.body FROM records r JOIN versions v ON v.id = r.version
		WHERE r.rid > ? AND r.kind IN (SELECT value FROM json_each(?))
			AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.rid = r.rid)
		ORDER BY r.rid LIMIT ?`, after, jsonList(kinds), reindexBatch)
	return scanRidRecords(rows, err, "read records for their facts")
}

func jsonList(items []string) string {
	b, _ := json.Marshal(items)
	return string(b)
}

// Aggregate answers an aggregation from the facts of the search's matches,
// in one read transaction (tenderbase.Aggregator). The matches are the
// rids the search's plan selects, as its total counts them; a plan whose
// candidates are checked in Go (a phrase the full-text index matches only
// roughly, a few records of a lookup) is checked the same way, one record
// at a time, and only the rids kept.
func (s *Store) Aggregate(ctx context.Context, a tenderbase.Aggregation) (tenderbase.Aggregate, error) {
	q, findable, err := analytics.Check(a)
	if err != nil {
		return tenderbase.Aggregate{}, err
	}
	acc := analytics.NewAccumulator(a)
	if !findable {
		return acc.Result(), nil
	}
	sel, err := s.plan(ctx, q)
	if err != nil {
		return tenderbase.Aggregate{}, err
	}
	var gen int64
	err = s.read.tx(ctx, "BEGIN", func(c *conn) error {
		if gen, err = generation(ctx, c); err != nil {
			return err
		}
		where, args := "f.rid IN (SELECT "+sel.col+" FROM "+sel.from+")", sel.args
		switch {
		case sel.verify:
			rids, err := sel.checkedRIDs(ctx, c)
			if err != nil {
				return err
			}
			list, err := json.Marshal(rids)
			if err != nil {
				return err
			}
			where, args = "f.rid IN (SELECT value FROM json_each(?))", []any{string(list)}
		case sel.all:
			// The unary + keeps SQLite from reading the kind's facts
			// through the index of (kind, purchase), a seek into the
			// table a row: the scan took 46 ms for 20,000 tenders where
			// the index took 69.
			where, args = "+f.kind = ?", []any{string(q.Kind)}
		}
		rows, err := c.query(ctx, analytics.Rows(q.Kind, a.By, "facts f", where), args...)
		if err != nil {
			return fmt.Errorf("select facts: %w", describe(err))
		}
		defer rows.Close()
		var r analytics.Row
		for rows.Next() {
			if err := rows.Scan(r.Dest()...); err != nil {
				return fmt.Errorf("read facts: %w", describe(err))
			}
			acc.Add(r)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read facts: %w", describe(err))
		}
		rows.Close()
		return addComplaints(ctx, c, acc, analytics.ComplaintRows("facts f", where), args)
	})
	if err != nil {
		return tenderbase.Aggregate{}, fmt.Errorf("aggregate %s: %w", q.Kind, describe(err))
	}
	out := acc.Result()
	out.Generation = gen
	return out, nil
}

// addComplaints adds the complaints that query (analytics.ComplaintRows)
// selects to acc.
func addComplaints(ctx context.Context, c *conn, acc *analytics.Accumulator, query string, args []any) error {
	rows, err := c.query(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("select complaints: %w", describe(err))
	}
	defer rows.Close()
	var purchase, outcome string
	for rows.Next() {
		if err := rows.Scan(&purchase, &outcome); err != nil {
			return fmt.Errorf("read complaints: %w", describe(err))
		}
		acc.AddComplaint(purchase, outcome)
	}
	return rows.Err()
}

// checkedRIDs reads the candidates of sel and returns the rids of those
// that carry the flags of sel.groups and match sel.check, as checked keeps
// them; each record is decoded, checked and dropped.
func (sel selection) checkedRIDs(ctx context.Context, c *conn) ([]int64, error) {
	rows, err := c.query(ctx, `
		SELECT p.rid, v.body FROM (SELECT `+sel.col+` AS rid FROM `+sel.from+`) p
		JOIN records r ON r.rid = p.rid JOIN versions v ON v.id = r.version`, sel.args...)
	if err != nil {
		return nil, fmt.Errorf("select candidates: %w", describe(err))
	}
	defer rows.Close()
	stems := textproc.Stemmer{}
	matcher := query.NewMatcher(sel.kind, sel.check)
	rids := []int64{}
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("check candidates: %w", err)
		}
		var rid int64
		var body []byte
		if err := rows.Scan(&rid, &body); err != nil {
			return nil, fmt.Errorf("read candidate: %w", err)
		}
		r, err := versioning.Decode(sel.kind, body)
		if err != nil {
			return nil, err
		}
		if hasFlags(r, sel.groups) && matcher.Match(query.MatchedFields(stems, r, sel.openOnly)) {
			rids = append(rids, rid)
		}
	}
	return rids, rows.Err()
}

var _ tenderbase.CustomerFlagger = (*Store)(nil)

// CustomerFigures counts a customer's figures for its red flags from the
// facts, in one read transaction (tenderbase.CustomerFlagger).
func (s *Store) CustomerFigures(ctx context.Context, q tenderbase.CustomerQuestion) (tenderbase.CustomerFigures, error) {
	var f tenderbase.CustomerFigures
	if err := q.Validate(); err != nil {
		return f, err
	}
	from, to := q.Bounds()
	args := []any{q.INN, from, to}
	err := s.read.tx(ctx, "BEGIN", func(c *conn) error {
		if err := c.queryRow(ctx, analytics.CustomerCounts("?", "?", "?"), args...).Scan(&f.Tenders, &f.Bidded,
			&f.SingleBid.Count, &f.Priced, &f.Close.Count, &f.Amended.Count); err != nil {
			return fmt.Errorf("count: %w", describe(err))
		}
		for _, e := range []struct {
			cond string
			into *tenderbase.Examples
		}{{analytics.CustomerSingleBid, &f.SingleBid}, {analytics.CustomerClose, &f.Close}, {analytics.CustomerAmended, &f.Amended}} {
			if e.into.Count == 0 {
				continue
			}
			var err error
			if e.into.Purchases, err = strings1(ctx, c, analytics.CustomerExamples("?", "?", "?", e.cond), args); err != nil {
				return err
			}
		}
		rows, err := c.query(ctx, analytics.CustomerComplaints("?", "?", "?"), args...)
		if err != nil {
			return fmt.Errorf("select complaints: %w", describe(err))
		}
		defer rows.Close()
		var purchases, outcomes []string
		for rows.Next() {
			var p, o string
			if err := rows.Scan(&p, &o); err != nil {
				return fmt.Errorf("read complaints: %w", describe(err))
			}
			purchases, outcomes = append(purchases, p), append(outcomes, o)
		}
		analytics.CustomerOutcomes(&f, purchases, outcomes)
		return rows.Err()
	})
	if err != nil {
		return tenderbase.CustomerFigures{}, fmt.Errorf("figures of customer %s: %w", q.INN, err)
	}
	return f, nil
}

// strings1 returns the first column of the rows of query.
func strings1(ctx context.Context, c *conn, query string, args []any) ([]string, error) {
	rows, err := c.query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("select examples: %w", describe(err))
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("read examples: %w", describe(err))
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
