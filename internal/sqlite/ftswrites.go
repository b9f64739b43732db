package sqlite

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/tenderbase/tenderbase"
)

// ftsWrites holds the changes a write transaction makes to the full-text
// tables and applies them just before it commits: each table's deletions
// first, then its rows in ascending rowid. FTS5 keeps the terms of a
// transaction in memory and writes them out as one segment, unless a
// rowid comes lower than the one before it, an insertion follows a
// deletion, or another statement opens a savepoint: then it writes out
// what it holds at once, a small segment it has to merge again later.
// Rids follow the records' dates, which an import meets in any order, so
// applied as they came every record of a batch made a segment of its own.
type ftsWrites map[tenderbase.Kind]*ftsChanges

type ftsChanges struct {
	deletes map[int64]bool  // rows stored before the transaction
	inserts map[int64][]any // the insert statement's values by rowid
}

func (fw ftsWrites) of(k tenderbase.Kind) *ftsChanges {
	c := fw[k]
	if c == nil {
		c = &ftsChanges{deletes: map[int64]bool{}, inserts: map[int64][]any{}}
		fw[k] = c
	}
	return c
}

// insert indexes the values of a row of k's full-text table under rid.
func (fw ftsWrites) insert(k tenderbase.Kind, rid int64, values []any) {
	fw.of(k).inserts[rid] = values
}

// delete takes rid out of k's full-text table: a row inserted in this
// transaction is never written.
func (fw ftsWrites) delete(k tenderbase.Kind, rid int64) {
	c := fw.of(k)
	if _, pending := c.inserts[rid]; pending {
		delete(c.inserts, rid)
		return
	}
	c.deletes[rid] = true
}

// apply writes the changes held to the full-text tables.
func (fw ftsWrites) apply(ctx context.Context, c *conn) error {
	for _, k := range slices.Sorted(maps.Keys(fw)) {
		t, ch := ftsTables[k], fw[k]
		for _, rid := range slices.Sorted(maps.Keys(ch.deletes)) {
			if _, err := c.exec(ctx, t.delete, rid); err != nil {
				return fmt.Errorf("unindex %s %d: %w", k, rid, describe(err))
			}
		}
		for _, rid := range slices.Sorted(maps.Keys(ch.inserts)) {
			if _, err := c.exec(ctx, t.insert, ch.inserts[rid]...); err != nil {
				return fmt.Errorf("index %s %d: %w", k, rid, describe(err))
			}
		}
	}
	clear(fw)
	return nil
}
