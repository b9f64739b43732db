package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// kindCounts holds, through one write transaction, how each kind's count
// of records changed and the next doc it gives, and writes them to table
// kinds once, before commit. An upsert of kinds for every record would cost
// more than its own row: a statement that may need to roll back alone
// opens a savepoint, and at each savepoint FTS5 writes the terms it holds
// for the transaction out to a new segment, which it must then merge; one
// segment a record instead of one a transaction.
type kindCounts map[string]*kindCount

type kindCount struct {
	records int    // records added less records withdrawn
	nextDoc uint32 // the next doc to give; 0 until the first insert read it
	read    bool
}

// insert counts a new record of kind and returns its doc.
func (kc kindCounts) insert(ctx context.Context, c *conn, kind string) (uint32, error) {
	n := kc.of(kind)
	if !n.read {
		var docs uint32
		err := c.queryRow(ctx, `SELECT docs FROM kinds WHERE kind = ?`, kind).Scan(&docs)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("read the docs of %s: %w", kind, describe(err))
		}
		n.nextDoc, n.read = docs, true
	}
	n.records++
	n.nextDoc++
	return n.nextDoc - 1, nil
}

// withdraw counts a record of kind taken out.
func (kc kindCounts) withdraw(kind string) { kc.of(kind).records-- }

func (kc kindCounts) of(kind string) *kindCount {
	n := kc[kind]
	if n == nil {
		n = &kindCount{}
		kc[kind] = n
	}
	return n
}

// flush writes the counts to table kinds. A kind only withdrawn from keeps
// its docs: docs never go down.
func (kc kindCounts) flush(ctx context.Context, c *conn) error {
	for kind, n := range kc {
		if _, err := c.exec(ctx, `
			INSERT INTO kinds (kind, records, docs) VALUES (?, ?, ?)
			ON CONFLICT (kind) DO UPDATE SET records = records + excluded.records, docs = max(docs, excluded.docs)`,
			kind, n.records, n.nextDoc); err != nil {
			return fmt.Errorf("count the records of %s: %w", kind, describe(err))
		}
	}
	clear(kc)
	return nil
}
