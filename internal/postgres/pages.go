package postgres

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase/internal/postings"
)

// A page of matches newest first is found from their docs one of two ways,
// whichever reads fewer rows: walking the kind's records newest first
// through the index (kind, rid) INCLUDE (doc) and keeping those whose doc
// matches, which for a common word stops after a few dozen rows; or
// reading the rids of every match by its doc and sorting them, which for a
// rare word reads a few hundred. PostgreSQL's own plans for the same page
// read every match of a common word (a bitmap scan of the GIN index, then
// a sort): 5 s at 570,000 of 1,000,000.
const (
	// fetchCost is how many rows of a walk cost what one row read by its
	// doc costs: an index probe against a step of a scan.
	fetchCost = 4
	// minWalk and maxWalk bound the rows one step of a walk reads.
	minWalk = 256
	maxWalk = 65_536
)

// pageByDocs returns the rids of the page of docs, newest first, after
// the cursor if any, and whether another page follows; all is the number
// of the kind's records.
func (sel selection) pageByDocs(ctx context.Context, tx pgx.Tx, docs *postings.Bitmap, all uint64) ([]int64, bool, error) {
	matches := docs.GetCardinality()
	if uint64(sel.offset) >= matches {
		return nil, false, nil
	}
	before := int64(math.MaxInt64)
	if sel.after != nil {
		before = sel.after.RID
	}
	want := sel.offset + sel.limit + 1                      // one more, to know whether a page follows
	walk := float64(want) * float64(all) / float64(matches) // rows a walk is expected to read
	var rids []int64
	var err error
	if float64(matches)*fetchCost < walk {
		rids, err = sel.fetchByDocs(ctx, tx, docs, before)
	} else {
		rids, err = sel.walk(ctx, tx, docs, before, want, int(math.Min(walk*1.25, maxWalk)))
	}
	if err != nil || len(rids) <= sel.offset {
		return nil, false, err
	}
	return rids[sel.offset:min(len(rids), want-1)], len(rids) >= want, nil
}

// fetchByDocs returns the rids of every doc before the rid before, newest
// first.
func (sel selection) fetchByDocs(ctx context.Context, tx pgx.Tx, docs *postings.Bitmap, before int64) ([]int64, error) {
	ids := make([]int64, 0, docs.GetCardinality())
	it := docs.Iterator()
	for it.HasNext() {
		ids = append(ids, int64(it.Next()))
	}
	rows, _ := tx.Query(ctx, `SELECT rid FROM records WHERE kind = $1 AND doc = ANY($2::bigint[]) AND rid < $3`,
		string(sel.kind), ids, before)
	rids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("read the rids of the matches: %w", err)
	}
	slices.SortFunc(rids, func(a, b int64) int { return cmp.Compare(b, a) })
	return rids, nil
}

// walk reads the kind's records newest first from the rid before, step
// rows at a time growing, until it has want matches or has read them all,
// and returns their rids.
func (sel selection) walk(ctx context.Context, tx pgx.Tx, docs *postings.Bitmap, before int64, want, step int) ([]int64, error) {
	step = max(step, minWalk)
	rids := make([]int64, 0, want)
	for len(rids) < want {
		rows, _ := tx.Query(ctx, `SELECT rid, doc FROM records WHERE kind = $1 AND rid < $2 ORDER BY rid DESC LIMIT $3`,
			string(sel.kind), before, step)
		var rid, doc int64
		read := 0
		_, err := pgx.ForEachRow(rows, []any{&rid, &doc}, func() error {
			read++
			before = rid
			if len(rids) < want && docs.Contains(uint32(doc)) {
				rids = append(rids, rid)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walk the records: %w", err)
		}
		if read < step {
			break
		}
		step = min(step*2, maxWalk)
	}
	return rids, nil
}
