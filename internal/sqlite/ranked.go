package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// records are the records of a kind in a read transaction, as
// postings.Records.
type records struct {
	c    statements
	kind tenderbase.Kind
}

func (r records) RIDsOf(ctx context.Context, docs []uint32, before int64) ([]int64, error) {
	list, err := json.Marshal(docs)
	if err != nil {
		return nil, err
	}
	rows, err := r.c.query(ctx, `SELECT r.rid FROM json_each(?) j CROSS JOIN records r ON r.kind = ? AND r.doc = j.value
		WHERE r.rid < ?`, string(list), string(r.kind), before)
	if err != nil {
		return nil, fmt.Errorf("read the rids of the matches: %w", describe(err))
	}
	defer rows.Close()
	rids := make([]int64, 0, len(docs))
	for rows.Next() {
		var rid int64
		if err := rows.Scan(&rid); err != nil {
			return nil, fmt.Errorf("read the rids of the matches: %w", describe(err))
		}
		rids = append(rids, rid)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the rids of the matches: %w", describe(err))
	}
	return rids, nil
}

func (r records) Walk(ctx context.Context, before int64, step int) ([]int64, []uint32, error) {
	rows, err := r.c.query(ctx, `SELECT rid, doc FROM records WHERE kind = ? AND rid < ? ORDER BY rid DESC LIMIT ?`,
		string(r.kind), before, step)
	if err != nil {
		return nil, nil, fmt.Errorf("walk the records: %w", describe(err))
	}
	defer rows.Close()
	var rids []int64
	var docs []uint32
	for rows.Next() {
		var rid int64
		var doc uint32
		if err := rows.Scan(&rid, &doc); err != nil {
			return nil, nil, fmt.Errorf("walk the records: %w", describe(err))
		}
		rids, docs = append(rids, rid), append(docs, doc)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("walk the records: %w", describe(err))
	}
	return rids, docs, nil
}

// ranked reads the total and the page by relevance from the postings
// (postings.Rank), and the place of the page's last record when another
// page follows.
func (sel selection) ranked(ctx context.Context, c *conn) ([]tenderbase.Record, int, *versioning.Cursor, error) {
	var after *postings.Place
	if sel.after != nil {
		after = &postings.Place{Score: sel.after.Key, RID: sel.after.RID}
	}
	ranked, err := postings.Rank(ctx, loader(c, sel.kind), records{c, sel.kind}, *sel.match, sel.offset, sel.limit, after)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("rank: %w", err)
	}
	items, err := bodiesOf(ctx, c, sel.kind, ranked.RIDs)
	if err != nil || !ranked.More || len(ranked.RIDs) == 0 {
		return items, ranked.Total, nil, err
	}
	n := len(ranked.RIDs) - 1
	return items, ranked.Total, &versioning.Cursor{RID: ranked.RIDs[n], Key: ranked.Scores[n]}, nil
}

// bodiesOf reads the current records at rids, in their order.
func bodiesOf(ctx context.Context, c statements, k tenderbase.Kind, rids []int64) ([]tenderbase.Record, error) {
	if len(rids) == 0 {
		return []tenderbase.Record{}, nil
	}
	list, err := json.Marshal(rids)
	if err != nil {
		return nil, err
	}
	rows, err := c.query(ctx, `SELECT v.body FROM json_each(?) j CROSS JOIN records r ON r.rid = j.value
		JOIN versions v ON v.id = r.version ORDER BY j.key`, string(list))
	if err != nil {
		return nil, fmt.Errorf("select page: %w", describe(err))
	}
	defer rows.Close()
	var bodies [][]byte
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&body); err != nil {
			return nil, fmt.Errorf("read page: %w", describe(err))
		}
		bodies = append(bodies, body)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read page: %w", describe(err))
	}
	return versioning.DecodeAll(k, bodies)
}
