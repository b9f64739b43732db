package postgres

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// Search returns a page of current records newest first with the exact
// total, as tenderbase.Store says. Page and total come from one snapshot
// (a repeatable-read transaction), so they agree even while a Put commits.
func (s *Store) Search(ctx context.Context, q tenderbase.Search) (_ tenderbase.Page, err error) {
	defer classify(&err)
	page, findable, err := versioning.CheckSearch(q)
	if err != nil || !findable {
		return page, err
	}
	if _, err := plan(q); err != nil {
		return tenderbase.Page{}, err
	}
	after, err := versioning.DecodeCursor(q)
	if err != nil {
		return tenderbase.Page{}, err
	}
	var last *versioning.Cursor
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = pgx.BeginTxFunc(ctx, s.pool, opts, func(tx pgx.Tx) error {
		// The snapshot's first read: the page and its total are of this
		// generation.
		gen, err := generation(ctx, tx)
		if err != nil {
			return err
		}
		sel, err := planIn(ctx, tx, q)
		if err != nil {
			return err
		}
		sel.after = after
		page.Generation = gen
		page.Items, page.Total, last, err = sel.run(ctx, tx, cachedTotals{s.totals, gen})
		return err
	})
	if err != nil {
		return tenderbase.Page{}, fmt.Errorf("search %s: %w", q.Kind, err)
	}
	if last != nil {
		page.Next = versioning.EncodeCursor(q, *last)
	}
	if page.Items == nil {
		page.Items = []tenderbase.Record{}
	}
	return page, nil
}

// selection is a search as SQL over records r: conditions in rid order.
type selection struct {
	kind  tenderbase.Kind
	conds []string // every condition but the text's
	args  []any
	// exact is the tsquery of the query's text, "" for none; loose, set for
	// a phrase query, finds its candidates in tsvectors that lost positions,
	// and check is the query they are checked against in Go.
	exact string
	loose string
	check tenderbase.Query
	// openOnly checks against the text every plan sees only
	// (tenderbase.Search.OpenTextOnly).
	openOnly bool
	order    tenderbase.Sort
	limit    int
	offset   int
	after    *versioning.Cursor // the page starts after it; nil: at offset
	// match, when set, counts the total from the postings instead of the
	// tsvectors, and reads the page newest first or by relevance from
	// them: the search is of text and flags alone, which postings answer
	// exactly.
	match *postings.Match
	// totalKey names the search's total in the totals cache
	// (versioning.TotalKey).
	totalKey string
}

// planIn writes the SQL of q for the snapshot of tx. A query that may
// match only the open text is written with weights, which the index cannot
// check, so that PostgreSQL reads the tsvector of every candidate: costly
// for a common word (a count of 31,000 hits took 199 ms instead of 163 ms,
// one of 991 hits 4.9 ms instead of 1.5 ms). When no record of the kind has
// tariff text, every query matches the same with and without weights, and
// is written without.
func planIn(ctx context.Context, tx pgx.Tx, q tenderbase.Search) (selection, error) {
	if q.OpenTextOnly && q.Query != nil {
		var tariff bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM records WHERE kind = $1 AND tariff)`,
			string(q.Kind)).Scan(&tariff); err != nil {
			return selection{}, fmt.Errorf("look for records with tariff text: %w", err)
		}
		q.OpenTextOnly = tariff
	}
	return plan(q)
}

// plan writes the SQL of a search that versioning.CheckSearch passed.
func plan(q tenderbase.Search) (selection, error) {
	sel := selection{kind: q.Kind, order: q.Order(), limit: q.Size(), offset: offset(q.Page, q.Size()), totalKey: versioning.TotalKey(q)}
	sel.conds = []string{"r.kind = " + sel.arg(string(q.Kind))}
	if q.Query != nil {
		ts, err := emitTSQuery(query.ForKind(q.Kind, q.Query), q.OpenTextOnly)
		if err != nil {
			return selection{}, err
		}
		sel.exact, sel.loose = ts.exact, ts.loose
		if ts.loose != "" {
			sel.check, sel.openOnly = q.Query, q.OpenTextOnly
		}
	}
	groups, keys := q.Groups(), q.Keys()
	for _, g := range groups {
		sel.conds = append(sel.conds, "r.flags && "+sel.arg(g)+"::text[]")
	}
	for _, l := range keys {
		sel.conds = append(sel.conds, "r.rid IN (SELECT rid FROM lookups WHERE kind = $1 AND field = "+
			sel.arg(l.Field)+" AND value = "+sel.arg(l.Value)+")")
	}
	for _, r := range q.Ranges {
		sel.bound(r)
	}
	pm := postings.Match{Query: query.ForKind(q.Kind, q.Query), Groups: groups, OpenOnly: q.OpenTextOnly}
	if len(keys) == 0 && len(q.Ranges) == 0 && pm.Exact() {
		sel.match = &pm
	}
	return sel, nil
}

// bound narrows sel to the records whose measure lies in r. The published
// date is the rid's own order, so its range is a range of rids. Each end is
// written only when it is finite, and as the column's own type, so that
// the column's index serves it.
func (sel *selection) bound(r tenderbase.Range) {
	switch r.Measure {
	case tenderbase.MeasurePublished:
		lo, hi := versioning.RIDRange(r.Min, r.Max)
		sel.conds = append(sel.conds, "r.rid BETWEEN "+sel.arg(lo)+" AND "+sel.arg(hi))
	case tenderbase.MeasurePrice:
		sel.conds = append(sel.conds, "r.price IS NOT NULL")
		if !math.IsInf(r.Min, 0) {
			sel.conds = append(sel.conds, "r.price >= "+sel.arg(r.Min))
		}
		if !math.IsInf(r.Max, 0) {
			sel.conds = append(sel.conds, "r.price <= "+sel.arg(r.Max))
		}
	case tenderbase.MeasureDeadline:
		sel.boundUnix("r.deadline", r)
	case tenderbase.MeasureEnds:
		sel.boundUnix("r.ends", r)
	}
}

// boundUnix narrows sel to the records whose column col, of unix seconds,
// lies in r.
func (sel *selection) boundUnix(col string, r tenderbase.Range) {
	sel.conds = append(sel.conds, col+" IS NOT NULL")
	if !math.IsInf(r.Min, 0) {
		sel.conds = append(sel.conds, col+" >= "+sel.arg(int64(math.Ceil(r.Min))))
	}
	if !math.IsInf(r.Max, 0) {
		sel.conds = append(sel.conds, col+" <= "+sel.arg(int64(math.Floor(r.Max))))
	}
}

// sortKey returns the expression over records r that the results are
// sorted by, adding its arguments to args, and the ORDER BY clause of the
// results over a relation p with the columns rid and k (that key). Records
// without the measure come last either way, and rids, newest first, break
// ties.
func (sel selection) sortKey(args *[]any) (key string, orderBy func(p string) string) {
	order := func(dir string) func(string) string {
		return func(p string) string { return " ORDER BY " + p + "k " + dir + ", " + p + "rid DESC" }
	}
	switch sel.order {
	case tenderbase.SortRelevance:
		*args = append(*args, sel.exact)
		return "ts_rank(r.tsv, $" + strconv.Itoa(len(*args)) + "::tsquery)", order("DESC")
	case tenderbase.SortPriceDesc:
		return "r.price", order("DESC NULLS LAST")
	case tenderbase.SortPriceAsc:
		return "r.price", order("NULLS LAST")
	case tenderbase.SortDeadline:
		return "r.deadline", order("NULLS LAST")
	case tenderbase.SortEnds:
		return "r.ends", order("NULLS LAST")
	}
	return "NULL::bigint", func(p string) string { return " ORDER BY " + p + "rid DESC" }
}

// arg adds an argument and returns its placeholder.
func (sel *selection) arg(v any) string {
	sel.args = append(sel.args, v)
	return "$" + strconv.Itoa(len(sel.args))
}

// where returns the WHERE clause and its arguments, with the exact text
// condition, or with the loose one when loose is set.
func (sel selection) where(loose bool) (string, []any) {
	w := sel
	w.conds = slices.Clone(sel.conds)
	w.args = slices.Clone(sel.args)
	switch {
	case loose:
		w.conds = append(w.conds, "r.tsv @@ "+w.arg(sel.loose)+"::tsquery AND (r.lossy OR r.tsv @@ "+w.arg(sel.exact)+"::tsquery)")
	case sel.exact != "":
		w.conds = append(w.conds, "r.tsv @@ "+w.arg(sel.exact)+"::tsquery")
	}
	return " WHERE " + strings.Join(w.conds, " AND "), w.args
}

// offset returns the rows before a page, saturating instead of overflowing.
func offset(page, size int) int {
	if page > math.MaxInt/size {
		return math.MaxInt
	}
	return page * size
}

// cachedTotals are the totals cached for the generation of a snapshot.
type cachedTotals struct {
	cache *totals
	gen   int64
}

// run reads the total and one page, and the place of its last record when
// another page follows. A phrase query over a kind with lossy tsvectors is
// checked in Go.
func (sel selection) run(ctx context.Context, tx pgx.Tx, totals cachedTotals) ([]tenderbase.Record, int, *versioning.Cursor, error) {
	// The postings hold the words and pairs of every record whole, lossy
	// tsvector or not.
	if sel.match != nil && sel.order == tenderbase.SortNewest {
		return sel.byDocs(ctx, tx, totals)
	}
	// Relevance comes from the postings' impact levels, the same as on
	// every store, without a match scored alone.
	if sel.match != nil && sel.order == tenderbase.SortRelevance {
		return sel.byRank(ctx, tx, totals)
	}
	if sel.loose != "" {
		var lossy bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM records WHERE kind = $1 AND lossy)`,
			string(sel.kind)).Scan(&lossy); err != nil {
			return nil, 0, nil, fmt.Errorf("look for lossy records: %w", err)
		}
		if lossy {
			return sel.checked(ctx, tx)
		}
	}
	where, args := sel.where(false)
	total, err := sel.count(ctx, tx, totals)
	if err != nil {
		return nil, 0, nil, err
	}
	if sel.offset >= total {
		return nil, total, nil, nil
	}
	key, orderBy := sel.sortKey(&args)
	after := ""
	if sel.after != nil {
		after = " WHERE " + sel.keyset(&args)
	}
	n := len(args)
	rows, _ := tx.Query(ctx, `
		SELECT p.rid, p.k::double precision, v.body FROM (SELECT * FROM (SELECT r.rid, r.version, `+key+` AS k FROM records r`+where+`) r`+after+orderBy("r.")+`
			LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2)+`) p
		JOIN versions v ON v.id = p.version`+orderBy("p."), append(args, sel.limit+1, sel.offset)...)
	var page []keyedBody
	var kb keyedBody
	if _, err := pgx.ForEachRow(rows, []any{&kb.rid, &kb.key, &kb.body}, func() error {
		page = append(page, kb) // the driver scans each row into new values
		return nil
	}); err != nil {
		return nil, 0, nil, fmt.Errorf("select page: %w", err)
	}
	items, last, err := sel.decodePage(page)
	return items, total, last, err
}

// keyedBody is a row of a page: a record's rid, sort key and body.
type keyedBody struct {
	rid  int64
	key  *float64
	body []byte
}

// decodePage decodes the rows of a page read with one row more than it
// holds, and returns the place of its last record when that row came.
func (sel selection) decodePage(rows []keyedBody) ([]tenderbase.Record, *versioning.Cursor, error) {
	more := len(rows) > sel.limit
	rows = rows[:min(len(rows), sel.limit)]
	bodies := make([][]byte, len(rows))
	for i, row := range rows {
		bodies[i] = row.body
	}
	items, err := versioning.DecodeAll(sel.kind, bodies)
	if err != nil {
		return nil, nil, err
	}
	if !more || len(rows) == 0 {
		return items, nil, nil
	}
	return items, cursorOf(rows[len(rows)-1].rid, rows[len(rows)-1].key), nil
}

// cursorOf returns the place of a record with its rid and sort key.
func cursorOf(rid int64, key *float64) *versioning.Cursor {
	if key == nil {
		return &versioning.Cursor{RID: rid, Null: true}
	}
	return &versioning.Cursor{RID: rid, Key: *key}
}

// keyset returns the condition, over the columns rid and k of a relation r
// in the order of the results, of the records after the cursor, adding its
// arguments to args.
func (sel selection) keyset(args *[]any) string {
	a := sel.after
	arg := func(v any) string {
		*args = append(*args, v)
		return "$" + strconv.Itoa(len(*args))
	}
	switch {
	case sel.order == tenderbase.SortNewest:
		return "r.rid < " + arg(a.RID)
	case a.Null:
		return "(r.k IS NULL AND r.rid < " + arg(a.RID) + ")"
	case sel.order == tenderbase.SortRelevance:
		k := arg(a.Key)
		return "(r.k < " + k + " OR (r.k = " + k + " AND r.rid < " + arg(a.RID) + "))"
	case sel.order == tenderbase.SortPriceDesc:
		k := arg(a.Key)
		return "(r.k < " + k + " OR (r.k = " + k + " AND r.rid < " + arg(a.RID) + ") OR r.k IS NULL)"
	}
	k := arg(a.Key)
	return "(r.k > " + k + " OR (r.k = " + k + " AND r.rid < " + arg(a.RID) + ") OR r.k IS NULL)"
}

// byDocs reads the total and the page, newest first, from the docs that
// match (pageByDocs).
func (sel selection) byDocs(ctx context.Context, tx pgx.Tx, totals cachedTotals) ([]tenderbase.Record, int, *versioning.Cursor, error) {
	// The page's plan needs the size of the kind: its All bitmap comes
	// in the match's own read of the postings.
	var kindSize uint64
	load := func(ctx context.Context, terms []string) (map[string]*postings.Bitmap, error) {
		bms, err := loader(tx, sel.kind)(ctx, append(terms, postings.All))
		if bm := bms[postings.All]; bm != nil {
			kindSize = bm.GetCardinality()
		}
		return bms, err
	}
	docs, err := postings.Docs(ctx, load, *sel.match)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("match: %w", err)
	}
	total := int(docs.GetCardinality())
	totals.cache.Set(totals.gen, sel.totalKey, total)
	rids, more, err := sel.pageByDocs(ctx, tx, docs, kindSize)
	if err != nil {
		return nil, 0, nil, err
	}
	items, err := bodiesOf(ctx, tx, sel.kind, rids)
	if err != nil || !more || len(rids) == 0 {
		return items, total, nil, err
	}
	return items, total, &versioning.Cursor{RID: rids[len(rids)-1]}, nil
}

// bodiesOf reads the current records at rids, in their order.
func bodiesOf(ctx context.Context, tx pgx.Tx, k tenderbase.Kind, rids []int64) ([]tenderbase.Record, error) {
	if len(rids) == 0 {
		return nil, nil
	}
	rows, _ := tx.Query(ctx, `
		SELECT v.body FROM unnest($1::bigint[]) WITH ORDINALITY AS p (rid, n)
		JOIN records r ON r.rid = p.rid JOIN versions v ON v.id = r.version
		ORDER BY p.n`, rids)
	bodies, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, fmt.Errorf("select page: %w", err)
	}
	return versioning.DecodeAll(k, bodies)
}

// generation reads the generation of the data in tx's snapshot.
func generation(ctx context.Context, tx pgx.Tx) (int64, error) {
	var gen int64
	if err := tx.QueryRow(ctx, `SELECT n FROM generation`).Scan(&gen); err != nil {
		return 0, fmt.Errorf("read generation: %w", err)
	}
	return gen, nil
}

// count returns the total of sel, from the cache when it was counted in
// the generation of tx's snapshot.
func (sel selection) count(ctx context.Context, tx pgx.Tx, totals cachedTotals) (int, error) {
	key := sel.totalKey
	if n, ok := totals.cache.Get(totals.gen, key); ok {
		return n, nil
	}
	var n int
	if sel.match != nil {
		var err error
		if n, err = postings.Count(ctx, loader(tx, sel.kind), *sel.match); err != nil {
			return 0, fmt.Errorf("count: %w", err)
		}
	} else {
		where, args := sel.where(false)
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM records r"+where, args...).Scan(&n); err != nil {
			return 0, fmt.Errorf("count: %w", err)
		}
	}
	totals.cache.Set(totals.gen, key, n)
	return n, nil
}

// checked reads the candidates of a phrase query newest first, checks those
// with lossy tsvectors by the reference meaning of a query (query.Match) and
// then reads the page of those that match.
func (sel selection) checked(ctx context.Context, tx pgx.Tx) ([]tenderbase.Record, int, *versioning.Cursor, error) {
	where, args := sel.where(true)
	key, orderBy := sel.sortKey(&args)
	rows, _ := tx.Query(ctx, `
		SELECT rid, k::double precision, body FROM (SELECT r.rid, `+key+` AS k, CASE WHEN r.lossy THEN (SELECT body FROM versions WHERE id = r.version) END AS body
		FROM records r`+where+`) r`+orderBy("r."), args...)
	var page []keyedBody // the matches from the offset or past the cursor
	total := 0
	stems := textproc.Stemmer{}
	matcher := query.NewMatcher(sel.kind, sel.check)
	var kb keyedBody
	_, err := pgx.ForEachRow(rows, []any{&kb.rid, &kb.key, &kb.body}, func() error {
		// Rows the driver has already received are read without asking
		// the network, which would notice that the caller has gone.
		if err := ctx.Err(); err != nil {
			return err
		}
		if kb.body != nil {
			r, err := versioning.Decode(sel.kind, kb.body)
			if err != nil {
				return err
			}
			if !matcher.Match(query.MatchedFields(stems, r, sel.openOnly)) {
				return nil
			}
		}
		total++
		past := sel.after == nil || sel.after.After(sel.order, false, kb.rid, derefOr(kb.key), kb.key == nil)
		if past && total > sel.offset && len(page) <= sel.limit {
			page = append(page, keyedBody{rid: kb.rid, key: kb.key})
		}
		return nil
	})
	if err != nil {
		return nil, 0, nil, fmt.Errorf("check candidates: %w", err)
	}
	var last *versioning.Cursor
	if len(page) > sel.limit {
		page = page[:sel.limit]
		last = cursorOf(page[len(page)-1].rid, page[len(page)-1].key)
	}
	rids := make([]int64, len(page))
	for i, p := range page {
		rids[i] = p.rid
	}
	items, err := bodiesOf(ctx, tx, sel.kind, rids)
	return items, total, last, err
}

// derefOr returns *f, or 0 for nil.
func derefOr(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}
