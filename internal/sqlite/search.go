package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// Search returns a page of current records newest first with the exact
// total, as tenderbase.Store says. Page and total come from one read
// transaction, so they agree even while a Put commits.
func (s *Store) Search(ctx context.Context, q tenderbase.Search) (tenderbase.Page, error) {
	page, findable, err := versioning.CheckSearch(q)
	if err != nil || !findable {
		return page, err
	}
	sel, err := s.plan(ctx, q)
	if err != nil {
		return tenderbase.Page{}, err
	}
	if sel.after, err = versioning.DecodeCursor(q); err != nil {
		return tenderbase.Page{}, err
	}
	found, last, err := s.search(ctx, sel, true)
	if err != nil {
		return tenderbase.Page{}, fmt.Errorf("search %s: %w", q.Kind, err)
	}
	page.Items, page.Total, page.Generation = found.Items, found.Total, found.Generation
	if last != nil {
		page.Next = versioning.EncodeCursor(q, *last)
	}
	return page, nil
}

// search runs sel in one read transaction, taking its total from the cache,
// when useCache is set, if it was counted in the generation that the
// transaction reads. It returns the records, the total and the generation
// as a page, and the place of the page's last record when another page
// follows.
func (s *Store) search(ctx context.Context, sel selection, useCache bool) (tenderbase.Page, *versioning.Cursor, error) {
	var found tenderbase.Page
	var last *versioning.Cursor
	err := s.read.tx(ctx, "BEGIN", func(c *conn) error {
		gen, err := generation(ctx, c)
		if err != nil {
			return err
		}
		found.Generation = gen
		key := sel.totalKey
		if n, ok := s.totals.Get(gen, key); ok && useCache {
			sel.total = n
		}
		switch {
		case sel.match != nil && sel.order == tenderbase.SortRelevance:
			// Relevance comes from the postings' impact levels, the
			// same as on every store, without a match scored alone.
			found.Items, found.Total, last, err = sel.ranked(ctx, c)
		case sel.verify:
			found.Items, found.Total, last, err = sel.checked(ctx, c)
		default:
			found.Items, found.Total, last, err = sel.run(ctx, c)
		}
		if err == nil && sel.total < 0 {
			s.totals.Set(gen, key, found.Total)
		}
		return err
	})
	if err != nil {
		return tenderbase.Page{}, nil, err
	}
	if found.Items == nil {
		found.Items = []tenderbase.Record{}
	}
	return found, last, nil
}

// selection is a search as SQL: where candidate rids come from, in rid order.
type selection struct {
	kind tenderbase.Kind
	col  string // the rid column of from
	from string // FROM and WHERE clauses
	args []any
	all  bool // every record of the kind: the total is in table kinds
	// measures is set when the source is the measures table, whose rows
	// hold the measures themselves.
	measures bool
	// verify is set when candidates must be checked in Go: against check
	// (nil matches all) and the filter groups.
	verify bool
	check  tenderbase.Query
	groups [][]string
	// openOnly checks the query against the text every plan sees only
	// (tenderbase.Search.OpenTextOnly).
	openOnly bool
	// order is the order of the results; rank, for SortRelevance when
	// match is not set, is the BM25 of the full-text match, which only the
	// query that matches can read.
	order  tenderbase.Sort
	rank   string
	limit  int
	offset int
	after  *versioning.Cursor // the page starts after it; nil: at offset
	total  int                // the total when known from the cache, else -1
	// totalKey names the search's total in the totals cache
	// (versioning.TotalKey).
	totalKey string
	// match, when set, counts the total from the postings instead of
	// the full-text table, and ranks a search by relevance: the search is
	// of text and flags alone, which postings answer exactly.
	match *postings.Match
}

// plan checks a search and chooses its source: the kind's full-text table
// when there is a query or a filter, else the first lookup's index, else
// the records of the kind. Further lookups narrow any of them.
//
// When the first lookup holds few records and there is a query or a filter,
// the lookup is the source and its records are checked in Go: a full-text
// scan for a common word costs milliseconds whatever the lookup, while
// checking a few hundred records costs less.
func (s *Store) plan(ctx context.Context, q tenderbase.Search) (selection, error) {
	few := false
	// Relevance that the postings do not rank (postings.Rank: a search
	// with a lookup among them) is read from the full-text match, so that
	// must be the source, however few records the lookup holds.
	if keys := q.Keys(); len(keys) > 0 && (q.Query != nil || len(q.Groups()) > 0) && q.Order() != tenderbase.SortRelevance {
		var err error
		if few, err = s.fewRIDs(ctx, q.Kind, keys[0]); err != nil {
			return selection{}, err
		}
	}
	return plan(q, few)
}

// fewLookupRIDs is the most records a lookup may hold to be checked in Go.
const fewLookupRIDs = 500

// fewRIDs reports whether at most fewLookupRIDs records carry lookup l.
func (s *Store) fewRIDs(ctx context.Context, k tenderbase.Kind, l tenderbase.Lookup) (bool, error) {
	var n int
	err := s.read.run(ctx, func(c *conn) error {
		return c.queryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM lookups
			WHERE kind = ? AND field = ? AND value = ? LIMIT ?)`,
			string(k), l.Field, l.Value, fewLookupRIDs+1).Scan(&n)
	})
	if err != nil {
		return false, fmt.Errorf("count lookup %s: %w", l.Field, describe(err))
	}
	return n <= fewLookupRIDs, nil
}

// plan writes the SQL of a search that versioning.CheckSearch passed.
func plan(q tenderbase.Search, fewRIDs bool) (selection, error) {
	groups := q.Groups()
	m, err := emitMatch(query.ForKind(q.Kind, q.Query), groups, q.OpenTextOnly)
	if err != nil {
		return selection{}, err
	}
	sel := selection{kind: q.Kind, openOnly: q.OpenTextOnly, order: q.Order(), limit: q.Size(), offset: offset(q.Page, q.Size()),
		total: -1, totalKey: versioning.TotalKey(q)}
	where := q.Keys()
	switch {
	case m.expr != "" && !(fewRIDs && len(where) > 0):
		t := ftsTables[q.Kind].name
		sel.col, sel.from, sel.args = "rowid", t+" WHERE "+t+" MATCH ?", []any{m.expr}
		if m.approximate {
			sel.verify, sel.check = true, q.Query
		}
		// The flags column only filters: every match has the flags it
		// asks for, so they weigh nothing.
		sel.rank = "bm25(" + t + ", 1, 1, 1, 1, 0)"
		pm := postings.Match{Query: query.ForKind(q.Kind, q.Query), Groups: groups, OpenOnly: q.OpenTextOnly}
		// A page by relevance comes from the postings alone (ranked),
		// whatever the full-text match admits beyond the query.
		if len(where) == 0 && len(q.Ranges) == 0 && pm.Exact() && (!m.approximate || sel.order == tenderbase.SortRelevance) {
			sel.match = &pm
		}
	case len(where) > 0:
		if m.expr != "" {
			sel.verify, sel.check, sel.groups = true, q.Query, groups
		}
		sel.col, sel.from = "rid", "lookups WHERE kind = ? AND field = ? AND value = ?"
		sel.args = []any{string(q.Kind), where[0].Field, where[0].Value}
		where = where[1:]
	case measured(q.Kind) && (boundsMeasure(q.Ranges) || q.Order().Measure() != ""):
		// Every record of a kind with measures has a row in measures, so
		// a listing by a measure reads the measures alone: a price range
		// is then one range of the index, counted without a record read.
		sel.col, sel.from, sel.args, sel.all, sel.measures = "rid", "measures WHERE kind = ?", []any{string(q.Kind)}, true, true
	default:
		sel.col, sel.from, sel.args, sel.all = "rid", "records WHERE kind = ?", []any{string(q.Kind)}, true
	}
	// The unary + keeps SQLite from driving a full-text search by the
	// lookup's rids: FTS5 then seeks every rid anew, which took 360 µs a rid
	// where scanning the matches and probing the rid list took 18 ms for
	// 10,000 rids in all.
	for _, l := range where {
		sel.from += " AND +" + sel.col + " IN (SELECT rid FROM lookups WHERE kind = ? AND field = ? AND value = ?)"
		sel.args = append(sel.args, string(q.Kind), l.Field, l.Value)
	}
	for _, r := range q.Ranges {
		sel.bound(r)
	}
	return sel, nil
}

// bound narrows sel to the records whose measure lies in r. The published
// date is the rid's own order, so its range is a range of rids; the others
// are read from the measures table, through its index.
func (sel *selection) bound(r tenderbase.Range) {
	sel.all = false // the kind's count is no longer the total
	if r.Measure == tenderbase.MeasurePublished {
		lo, hi := versioning.RIDRange(r.Min, r.Max)
		sel.from += " AND " + sel.col + " BETWEEN ? AND ?"
		sel.args = append(sel.args, lo, hi)
		return
	}
	col := measureColumn(r.Measure)
	if sel.measures {
		sel.from += " AND " + col + " BETWEEN ? AND ?"
		sel.args = append(sel.args, finite(r.Min), finite(r.Max))
		return
	}
	sel.from += " AND +" + sel.col + " IN (SELECT rid FROM measures WHERE kind = ? AND " + col + " BETWEEN ? AND ?)"
	sel.args = append(sel.args, string(sel.kind), finite(r.Min), finite(r.Max))
}

// boundsMeasure reports whether a range bounds a measure of the measures
// table: a price, a deadline or an end.
func boundsMeasure(ranges []tenderbase.Range) bool {
	return slices.ContainsFunc(ranges, func(r tenderbase.Range) bool { return r.Measure != tenderbase.MeasurePublished })
}

// measured reports whether the records of kind k have measures.
func measured(k tenderbase.Kind) bool {
	r, err := tenderbase.NewRecord(k)
	_, ok := r.(tenderbase.Measured)
	return err == nil && ok
}

// measureColumn returns the column of the measures table that holds m.
func measureColumn(m tenderbase.Measure) string {
	switch m {
	case tenderbase.MeasurePrice:
		return "price"
	case tenderbase.MeasureEnds:
		return "ends"
	}
	return "deadline"
}

// finite returns v with the infinities of an open range as the largest
// finite values, which SQLite compares with its integers and reals alike.
func finite(v float64) float64 {
	return max(-math.MaxFloat64, min(v, math.MaxFloat64))
}

// ordered returns the SQL of the rids of sel, each with the key it is
// sorted by (k), in the order of the results.
func (sel selection) ordered() string {
	switch sel.order {
	case tenderbase.SortRelevance:
		return "SELECT " + sel.col + " AS rid, " + sel.rank + " AS k FROM " + sel.from
	case tenderbase.SortNewest:
		return "SELECT " + sel.col + " AS rid, NULL AS k FROM " + sel.from
	}
	col := measureColumn(sel.order.Measure())
	if sel.measures {
		return "SELECT rid, " + col + " AS k FROM " + sel.from
	}
	return "SELECT c.rid, m." + col + " AS k FROM (SELECT " + sel.col + " AS rid FROM " + sel.from +
		") c LEFT JOIN measures m ON m.rid = c.rid"
}

// orderBy returns the ORDER BY clause of the results over the columns rid
// and k of ordered, prefixed by p. Records without the measure come last
// either way, and rids, newest first, break ties.
func (sel selection) orderBy(p string) string {
	switch sel.order {
	case tenderbase.SortRelevance:
		return " ORDER BY " + p + "k, " + p + "rid DESC" // BM25 is lower for a better match
	case tenderbase.SortPriceDesc:
		// NULL is the least value to SQLite, so it comes last here without
		// a term of its own, and a listing walks the index backwards.
		return " ORDER BY " + p + "k DESC, " + p + "rid DESC"
	case tenderbase.SortPriceAsc, tenderbase.SortDeadline, tenderbase.SortEnds:
		return " ORDER BY " + p + "k IS NULL, " + p + "k, " + p + "rid DESC"
	}
	return " ORDER BY " + p + "rid DESC"
}

// offset returns the rows before a page, saturating instead of overflowing.
func offset(page, size int) int {
	if page > math.MaxInt/size {
		return math.MaxInt
	}
	return page * size
}

// run reads the total and one page.
func (sel selection) run(ctx context.Context, c *conn) ([]tenderbase.Record, int, *versioning.Cursor, error) {
	total, err := sel.count(ctx, c)
	if err != nil || sel.offset >= total {
		return []tenderbase.Record{}, total, nil, err
	}
	items, last, err := sel.page(ctx, c)
	return items, total, last, err
}

// page reads one page of records, newest first, and the place of its last
// record when another page follows. The subquery picks the page's rids
// from the index alone; only those are joined to their bodies. After a
// cursor, the page's rows are those past it in the order (keyset), which
// the index finds as it finds the first page.
func (sel selection) page(ctx context.Context, c *conn) ([]tenderbase.Record, *versioning.Cursor, error) {
	from, args := "("+sel.ordered()+")", slices.Clip(sel.args)
	if sel.after != nil {
		cond, cargs := sel.keyset()
		from, args = "(SELECT * FROM "+from+" WHERE "+cond+")", append(args, cargs...)
	}
	rows, err := c.query(ctx, `
		SELECT p.rid, p.k, v.body FROM (SELECT * FROM `+from+sel.orderBy("")+` LIMIT ? OFFSET ?) p
		JOIN records r ON r.rid = p.rid JOIN versions v ON v.id = r.version`+sel.orderBy("p."),
		append(args, sel.limit+1, sel.offset)...)
	if err != nil {
		return nil, nil, fmt.Errorf("select page: %w", describe(err))
	}
	defer rows.Close()
	var bodies [][]byte
	var last *versioning.Cursor
	more := false
	for rows.Next() {
		var rid int64
		var k sql.NullFloat64
		var body []byte
		if err := rows.Scan(&rid, &k, &body); err != nil {
			return nil, nil, fmt.Errorf("read page: %w", describe(err))
		}
		if len(bodies) == sel.limit {
			more = true // a record past the page: another page follows
			break
		}
		bodies = append(bodies, body)
		last = &versioning.Cursor{RID: rid, Key: k.Float64, Null: !k.Valid}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("read page: %w", describe(err))
	}
	if !more {
		last = nil
	}
	// Decoded once the rows are read, on several cores for a long page.
	items, err := versioning.DecodeAll(sel.kind, bodies)
	if err != nil {
		return nil, nil, err
	}
	return items, last, nil
}

// keyset returns the condition, over the columns rid and k of ordered, of
// the records after the cursor in the order of the results, and its
// arguments.
func (sel selection) keyset() (string, []any) {
	a := sel.after
	switch {
	case sel.order == tenderbase.SortNewest:
		return "rid < ?", []any{a.RID}
	case sel.order == tenderbase.SortRelevance:
		return "(k > ? OR (k = ? AND rid < ?))", []any{a.Key, a.Key, a.RID}
	case a.Null:
		return "(k IS NULL AND rid < ?)", []any{a.RID}
	case sel.order == tenderbase.SortPriceDesc:
		return "(k < ? OR (k = ? AND rid < ?) OR k IS NULL)", []any{a.Key, a.Key, a.RID}
	}
	return "(k > ? OR (k = ? AND rid < ?) OR k IS NULL)", []any{a.Key, a.Key, a.RID}
}

func (sel selection) count(ctx context.Context, c *conn) (int, error) {
	if sel.total >= 0 {
		return sel.total, nil
	}
	var n int
	var err error
	switch {
	case sel.all:
		err = c.queryRow(ctx, `SELECT coalesce(max(records), 0) FROM kinds WHERE kind = ?`, string(sel.kind)).Scan(&n)
	case sel.match != nil:
		if n, err = postings.Count(ctx, loader(c, sel.kind), *sel.match); err != nil {
			return 0, fmt.Errorf("count: %w", err)
		}
	default:
		err = c.queryRow(ctx, "SELECT count(*) FROM "+sel.from, sel.args...).Scan(&n)
	}
	if err != nil {
		return 0, fmt.Errorf("count: %w", describe(err))
	}
	return n, nil
}

// checked reads candidates in the order of the results and keeps those
// that carry the flags of sel.groups and match sel.check by the reference
// meaning of a query (query.Match). It reads them all to count the exact
// total, unless the total is known.
func (sel selection) checked(ctx context.Context, c *conn) ([]tenderbase.Record, int, *versioning.Cursor, error) {
	rows, err := c.query(ctx, `
		SELECT p.rid, p.k, v.body FROM (`+sel.ordered()+`) p
		JOIN records r ON r.rid = p.rid JOIN versions v ON v.id = r.version`+sel.orderBy("p."), sel.args...)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("select candidates: %w", describe(err))
	}
	defer rows.Close()
	var items []tenderbase.Record
	var last *versioning.Cursor
	more := false
	total := 0
	stems := textproc.Stemmer{}
	matcher := query.NewMatcher(sel.kind, sel.check)
	for rows.Next() {
		if sel.total >= 0 && (more || total >= sel.total) {
			break // the total is known, and the page is full or every match seen
		}
		// database/sql ends the rows once ctx is done, but from another
		// goroutine; checking costs more than reading, so stop at once.
		if err := ctx.Err(); err != nil {
			return nil, 0, nil, fmt.Errorf("check candidates: %w", err)
		}
		var rid int64
		var k sql.NullFloat64
		var body []byte
		if err := rows.Scan(&rid, &k, &body); err != nil {
			return nil, 0, nil, fmt.Errorf("read candidate: %w", err)
		}
		r, err := versioning.Decode(sel.kind, body)
		if err != nil {
			return nil, 0, nil, err
		}
		if !hasFlags(r, sel.groups) || !matcher.Match(query.MatchedFields(stems, r, sel.openOnly)) {
			continue
		}
		total++
		if sel.after != nil && !sel.after.After(sel.order, true, rid, k.Float64, !k.Valid) || total <= sel.offset {
			continue
		}
		switch {
		case len(items) < sel.limit:
			items = append(items, r)
			last = &versioning.Cursor{RID: rid, Key: k.Float64, Null: !k.Valid}
		case len(items) == sel.limit:
			more = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, nil, fmt.Errorf("read candidates: %w", describe(err))
	}
	if !more {
		last = nil
	}
	if sel.total >= 0 {
		total = sel.total
	}
	return items, total, last, nil
}

// hasFlags reports whether r carries a flag of every group.
func hasFlags(r tenderbase.Record, groups [][]string) bool {
	if len(groups) == 0 {
		return true
	}
	flags := r.Flags()
	for _, g := range groups {
		if !slices.ContainsFunc(g, func(f string) bool { return slices.Contains(flags, f) }) {
			return false
		}
	}
	return true
}
