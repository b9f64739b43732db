package postgres

import (
	"context"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// A page of matches newest first is found from their docs by
// postings.NewestFirst, which walks the kind's records newest first
// through the index (kind, rid) INCLUDE (doc) or reads the rids of the
// matches by their doc, whichever reads fewer rows. PostgreSQL's own plans
// for the same page read every match of a common word (a bitmap scan of
// the GIN index, then a sort): 5 s at 570,000 of 1,000,000.

// pageByDocs returns the rids of the page of docs, newest first, after
// the cursor if any, and whether another page follows; all is the number
// of the kind's records.
func (sel selection) pageByDocs(ctx context.Context, tx pgx.Tx, docs *postings.Bitmap, all uint64) ([]int64, bool, error) {
	before := int64(math.MaxInt64)
	if sel.after != nil {
		before = sel.after.RID
	}
	want := sel.offset + sel.limit + 1 // one more, to know whether a page follows
	rids, err := postings.NewestFirst(ctx, records{tx, sel.kind}, docs, all, before, want)
	if err != nil || len(rids) <= sel.offset {
		return nil, false, err
	}
	return rids[sel.offset:min(len(rids), want-1)], len(rids) >= want, nil
}

// records are the records of a kind in a snapshot, as postings.Records.
type records struct {
	tx   pgx.Tx
	kind tenderbase.Kind
}

func (r records) RIDsOf(ctx context.Context, docs []uint32, before int64) ([]int64, error) {
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = int64(d)
	}
	rows, _ := r.tx.Query(ctx, `SELECT rid FROM records WHERE kind = $1 AND doc = ANY($2::bigint[]) AND rid < $3`,
		string(r.kind), ids, before)
	rids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("read the rids of the matches: %w", err)
	}
	return rids, nil
}

func (r records) Walk(ctx context.Context, before int64, step int) ([]int64, []uint32, error) {
	rows, _ := r.tx.Query(ctx, `SELECT rid, doc FROM records WHERE kind = $1 AND rid < $2 ORDER BY rid DESC LIMIT $3`,
		string(r.kind), before, step)
	var rids []int64
	var docs []uint32
	var rid, doc int64
	_, err := pgx.ForEachRow(rows, []any{&rid, &doc}, func() error {
		rids, docs = append(rids, rid), append(docs, uint32(doc))
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("walk the records: %w", err)
	}
	return rids, docs, nil
}

// byRank reads the total and the page by relevance from the postings
// (postings.Rank).
func (sel selection) byRank(ctx context.Context, tx pgx.Tx, totals cachedTotals) ([]tenderbase.Record, int, *versioning.Cursor, error) {
	var after *postings.Place
	if sel.after != nil {
		after = &postings.Place{Score: sel.after.Key, RID: sel.after.RID}
	}
	ranked, err := postings.Rank(ctx, loader(tx, sel.kind), records{tx, sel.kind}, *sel.match, sel.offset, sel.limit, after)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("rank: %w", err)
	}
	totals.cache.Set(totals.gen, sel.totalKey, ranked.Total)
	items, err := bodiesOf(ctx, tx, sel.kind, ranked.RIDs)
	if err != nil || !ranked.More || len(ranked.RIDs) == 0 {
		return items, ranked.Total, nil, err
	}
	n := len(ranked.RIDs) - 1
	return items, ranked.Total, &versioning.Cursor{RID: ranked.RIDs[n], Key: ranked.Scores[n]}, nil
}
