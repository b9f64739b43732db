package postgres

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/analytics"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

var _ tenderbase.Aggregator = (*Store)(nil)

// factsType returns the SQL type of a facts column, to cast a parameter
// that may be NULL.
func factsType(col string) string {
	switch col {
	case "published", "amount", "base":
		return "bigint"
	case "bids":
		return "integer"
	}
	return "text"
}

// factsSelect returns the select list of a facts row whose values are the
// parameters from $first on, in the order of analytics.Columns.
func factsSelect(first int) string {
	vals := make([]string, len(analytics.Columns))
	for i, c := range analytics.Columns {
		vals[i] = "$" + strconv.Itoa(first+i) + "::" + factsType(c)
	}
	return strings.Join(vals, ", ")
}

// factsColumns is the column list of a facts row. PostgreSQL's facts keep
// the record's doc too, which the matches of a search read from the
// postings are.
var factsColumns = "rid, kind, doc, " + strings.Join(analytics.Columns, ", ")

// factsArgs returns whether r aggregates and the values of its facts row,
// NULLs for a record that does not.
func factsArgs(r tenderbase.Record) (bool, []any) {
	f, ok := tenderbase.FactsOf(r)
	if !ok {
		return false, make([]any, len(analytics.Columns))
	}
	return true, analytics.Values(f)
}

// putFacts writes the facts row of r at rid with its doc, or none for a
// kind that does not aggregate.
func putFacts(ctx context.Context, q querier, r tenderbase.Record, rid, doc int64) error {
	ok, vals := factsArgs(r)
	if !ok {
		return nil
	}
	set := make([]string, len(analytics.Columns))
	for i, c := range analytics.Columns {
		set[i] = c + " = excluded." + c
	}
	if _, err := q.Exec(ctx, `INSERT INTO facts (`+factsColumns+`) SELECT $1, $2, $3, `+factsSelect(4)+`
		ON CONFLICT (rid) DO UPDATE SET kind = excluded.kind, doc = excluded.doc, `+strings.Join(set, ", "),
		append([]any{rid, string(r.Kind()), doc}, vals...)...); err != nil {
		return fmt.Errorf("store facts: %w", err)
	}
	return nil
}

// factsRows returns the facts rows of records at rids with docs, for a
// copy.
func factsRows[D int64 | *int64](es []versioning.Encoded, rids []int64, docs []D) [][]any {
	var rows [][]any
	for i, e := range es {
		if ok, vals := factsArgs(e.Rec); ok {
			rows = append(rows, append([]any{rids[i], e.Kind, docs[i]}, vals...))
		}
	}
	return rows
}

// copyFacts writes the facts rows of records new to the store.
func copyFacts[D int64 | *int64](ctx context.Context, tx pgx.Tx, es []versioning.Encoded, rids []int64, docs []D) error {
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"facts"}, append([]string{"rid", "kind", "doc"}, analytics.Columns...),
		pgx.CopyFromRows(factsRows(es, rids, docs))); err != nil {
		return fmt.Errorf("store facts: %w", err)
	}
	return nil
}

// fillFacts writes the facts of every current record that has facts and
// no row yet, a batch at a time, and the standing of every tender into
// its facts when it wrote a tender's, for a database made before facts
// (migration 0018) or before complaints had them (0020).
func fillFacts(ctx context.Context, tx pgx.Tx) error {
	tenders := false
	err := eachBatchOf(ctx, tx, tenderbase.FactKinds(), withoutFacts, func(es []versioning.Encoded, rids []int64, docs []*int64) error {
		for _, e := range es {
			tenders = tenders || e.Rec.Kind() == tenderbase.KindTender
		}
		return copyFacts(ctx, tx, es, rids, docs)
	})
	if err != nil || !tenders {
		return err
	}
	return settleAllStates(ctx, tx, false)
}

// withoutFacts is the condition of eachBatchOf that picks the records that
// have no facts row yet.
const withoutFacts = "NOT EXISTS (SELECT 1 FROM facts f WHERE f.rid = r.rid)"

// eachBatchOf calls f with every current record of kinds, in rid order,
// reindexBatch at a time, with their rids and docs (nil before the
// postings gave docs, 0010: a reindex gives them); a condition other than
// "" (on records r) picks some of them.
func eachBatchOf(ctx context.Context, tx pgx.Tx, kinds []string, condition string, f func(es []versioning.Encoded, rids []int64, docs []*int64) error) error {
	if condition == "" {
		condition = "TRUE"
	}
	after := int64(math.MinInt64)
	for {
		rows, _ := tx.Query(ctx, `
			SELECT r.rid, r.doc, r.kind, v.body FROM records r JOIN versions v ON v.id = r.version
			WHERE r.rid > $1 AND r.kind = ANY($2) AND `+condition+` ORDER BY r.rid LIMIT $3`, after, kinds, reindexBatch)
		var es []versioning.Encoded
		var rids []int64
		var docs []*int64
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
			es, rids, docs = append(es, versioning.Encoded{Rec: r, Kind: kind}), append(rids, rid), append(docs, doc)
			return nil
		})
		if err != nil {
			return fmt.Errorf("read records of %v: %w", kinds, err)
		}
		if err := f(es, rids, docs); err != nil {
			return err
		}
		if len(es) < reindexBatch {
			return nil
		}
	}
}

// Aggregate answers an aggregation from the facts of the search's matches,
// in one snapshot (tenderbase.Aggregator). The matches are the records the
// search's conditions select, as its total counts them; a phrase over
// lossy tsvectors is checked in Go, one record at a time, and only the
// rids kept.
func (s *Store) Aggregate(ctx context.Context, a tenderbase.Aggregation) (_ tenderbase.Aggregate, err error) {
	defer classify(&err)
	q, findable, err := analytics.Check(a)
	if err != nil {
		return tenderbase.Aggregate{}, err
	}
	acc := analytics.NewAccumulator(a)
	if !findable {
		return acc.Result(), nil
	}
	if _, err := plan(q); err != nil {
		return tenderbase.Aggregate{}, err
	}
	var gen int64
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		if gen, err = generation(ctx, tx); err != nil {
			return err
		}
		sel, err := planIn(ctx, tx, q)
		if err != nil {
			return err
		}
		source := "facts f JOIN records r ON r.rid = f.rid"
		where, args := sel.where(false)
		where = strings.TrimPrefix(where, " WHERE ")
		switch {
		case len(sel.conds) == 1 && sel.exact == "":
			// Every record of the kind: its facts alone, without reading
			// the records table, whose rows are wide.
			source, where, args = "facts f", "f.kind = $1", []any{string(sel.kind)}
		case sel.match != nil:
			// Words and flags alone: the postings give the matches, as
			// they give the search's count, where the tsvectors took
			// 2.3 s for a common word of 100,000 tenders.
			docs, err := postings.Docs(ctx, loader(tx, sel.kind), *sel.match)
			if err != nil {
				return fmt.Errorf("match: %w", err)
			}
			ids := make([]int64, 0, docs.GetCardinality())
			for it := docs.Iterator(); it.HasNext(); {
				ids = append(ids, int64(it.Next()))
			}
			// The docs joined one by one through the facts' index of
			// (kind, doc): "doc = ANY" of thousands read the whole
			// records table, and its index led to its wide rows.
			source = "unnest($2::bigint[]) AS d (doc) JOIN facts f ON f.kind = $1 AND f.doc = d.doc"
			where, args = "true", []any{string(sel.kind), ids}
		case sel.loose != "":
			var lossy bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM records WHERE kind = $1 AND lossy)`,
				string(sel.kind)).Scan(&lossy); err != nil {
				return fmt.Errorf("look for lossy records: %w", err)
			}
			if lossy {
				rids, err := sel.checkedRIDs(ctx, tx)
				if err != nil {
					return err
				}
				source, where, args = "facts f", "f.rid = ANY($1)", []any{rids}
			}
		}
		rows, _ := tx.Query(ctx, analytics.Rows(q.Kind, a.By, source, where), args...)
		var r analytics.Row
		_, err = pgx.ForEachRow(rows, r.Dest(), func() error {
			acc.Add(r)
			return nil
		})
		if err != nil {
			return fmt.Errorf("read facts: %w", err)
		}
		rows, _ = tx.Query(ctx, analytics.ComplaintRows(source, where), args...)
		var purchase, outcome string
		_, err = pgx.ForEachRow(rows, []any{&purchase, &outcome}, func() error {
			acc.AddComplaint(purchase, outcome)
			return nil
		})
		if err != nil {
			return fmt.Errorf("read complaints: %w", err)
		}
		return nil
	})
	if err != nil {
		return tenderbase.Aggregate{}, fmt.Errorf("aggregate %s: %w", q.Kind, err)
	}
	out := acc.Result()
	out.Generation = gen
	return out, nil
}

// checkedRIDs reads the candidates of a phrase query and returns the rids
// of those that match: a record with a lossy tsvector is decoded, checked
// by the reference meaning of a query (query.Match) and dropped.
func (sel selection) checkedRIDs(ctx context.Context, tx pgx.Tx) ([]int64, error) {
	where, args := sel.where(true)
	rows, _ := tx.Query(ctx, `
		SELECT r.rid, CASE WHEN r.lossy THEN (SELECT body FROM versions WHERE id = r.version) END
		FROM records r`+where, args...)
	stems := textproc.Stemmer{}
	matcher := query.NewMatcher(sel.kind, sel.check)
	rids := []int64{}
	var rid int64
	var body []byte
	_, err := pgx.ForEachRow(rows, []any{&rid, &body}, func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if body != nil {
			r, err := versioning.Decode(sel.kind, body)
			if err != nil {
				return err
			}
			if !matcher.Match(query.MatchedFields(stems, r, sel.openOnly)) {
				return nil
			}
		}
		rids = append(rids, rid)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("check candidates: %w", err)
	}
	return rids, nil
}

var _ tenderbase.CustomerFlagger = (*Store)(nil)

// CustomerFigures counts a customer's figures for its red flags from the
// facts, in one snapshot (tenderbase.CustomerFlagger).
func (s *Store) CustomerFigures(ctx context.Context, q tenderbase.CustomerQuestion) (_ tenderbase.CustomerFigures, err error) {
	defer classify(&err)
	var f tenderbase.CustomerFigures
	if err := q.Validate(); err != nil {
		return f, err
	}
	from, to := q.Bounds()
	args := []any{q.INN, from, to}
	inn, lo, hi := "$1::text", "$2::bigint", "$3::bigint"
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, analytics.CustomerCounts(inn, lo, hi), args...).Scan(&f.Tenders, &f.Bidded,
			&f.SingleBid.Count, &f.Priced, &f.Close.Count, &f.Amended.Count); err != nil {
			return fmt.Errorf("count: %w", err)
		}
		for _, e := range []struct {
			cond string
			into *tenderbase.Examples
		}{{analytics.CustomerSingleBid, &f.SingleBid}, {analytics.CustomerClose, &f.Close}, {analytics.CustomerAmended, &f.Amended}} {
			if e.into.Count == 0 {
				continue
			}
			rows, _ := tx.Query(ctx, analytics.CustomerExamples(inn, lo, hi, e.cond), args...)
			var err error
			if e.into.Purchases, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
				return fmt.Errorf("select examples: %w", err)
			}
		}
		rows, _ := tx.Query(ctx, analytics.CustomerComplaints(inn, lo, hi), args...)
		var purchases, outcomes []string
		var p, o string
		if _, err := pgx.ForEachRow(rows, []any{&p, &o}, func() error {
			purchases, outcomes = append(purchases, p), append(outcomes, o)
			return nil
		}); err != nil {
			return fmt.Errorf("read complaints: %w", err)
		}
		analytics.CustomerOutcomes(&f, purchases, outcomes)
		return nil
	})
	if err != nil {
		return tenderbase.CustomerFigures{}, fmt.Errorf("figures of customer %s: %w", q.INN, err)
	}
	return f, nil
}
