package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
)

// chunks is the postings table (migration 0015) as postings.Chunks.
type chunks struct{ q statements }

// readChunksAtOnce is how many chunks Read asks for in one statement.
const readChunksAtOnce = 2000

// Read asks for many chunks in each statement (eachOfKeys): a batch of
// 5,000 tenders reads some 50,000 chunks, and a statement apiece spent
// more in the statement than in the probe.
func (c chunks) Read(ctx context.Context, kind tenderbase.Kind, keys []postings.Key) (map[postings.Key][]byte, error) {
	pairs := make([][2]any, len(keys))
	for i, k := range keys {
		pairs[i] = [2]any{k.Term, k.Chunk}
	}
	out := make(map[postings.Key][]byte, len(keys))
	err := eachOfKeys(ctx, c.q, pairs, readChunksAtOnce, `SELECT p.term, p.chunk, p.bits FROM json_each(?) j
		CROSS JOIN postings p ON p.kind = ? AND p.term = j.value ->> 0 AND p.chunk = j.value ->> 1`, []any{string(kind)},
		func(rows *sql.Rows) error {
			var k postings.Key
			var b []byte
			if err := rows.Scan(&k.Term, &k.Chunk, &b); err != nil {
				return err
			}
			out[k] = b
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read postings: %w", describe(err))
	}
	return out, nil
}

// eachOfKeys runs query for keys, atOnce of them a statement as a JSON
// array, its first parameter, before args; and calls row for each row.
// The query walks the array with json_each and probes its table's key for
// each: CROSS JOIN keeps the array the outer loop, where the planner left
// to itself walks the table and looks each row up in the array.
func eachOfKeys[K any](ctx context.Context, q statements, keys []K, atOnce int, query string, args []any, row func(*sql.Rows) error) error {
	for part := range slices.Chunk(keys, atOnce) {
		list, err := json.Marshal(part)
		if err != nil {
			return err
		}
		rows, err := q.query(ctx, query, append([]any{string(list)}, args...)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := row(rows); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (c chunks) Write(ctx context.Context, kind tenderbase.Kind, all []postings.ChunkBits) error {
	for _, ch := range all {
		var err error
		if ch.Bits == nil {
			_, err = c.q.exec(ctx, `DELETE FROM postings WHERE kind = ? AND term = ? AND chunk = ?`,
				string(kind), ch.Term, ch.Chunk)
		} else {
			_, err = c.q.exec(ctx, `INSERT INTO postings (kind, term, chunk, bits) VALUES (?, ?, ?, ?)
				ON CONFLICT (kind, term, chunk) DO UPDATE SET bits = excluded.bits`,
				string(kind), ch.Term, ch.Chunk, ch.Bits)
		}
		if err != nil {
			return fmt.Errorf("write postings: %w", describe(err))
		}
	}
	return nil
}

// loader reads the bitmaps of terms of kind k through c, whole: every
// chunk of each term.
func loader(c statements, k tenderbase.Kind) postings.Loader {
	return func(ctx context.Context, terms []string) (map[string]*postings.Bitmap, error) {
		out := make(map[string]*postings.Bitmap, len(terms))
		for _, t := range terms {
			rows, err := c.query(ctx, `SELECT bits FROM postings WHERE kind = ? AND term = ?`, string(k), t)
			if err != nil {
				return nil, fmt.Errorf("read postings: %w", describe(err))
			}
			bm, err := unionOfChunks(rows)
			if err != nil {
				return nil, fmt.Errorf("read postings of %q: %w", t, err)
			}
			out[t] = bm
		}
		return out, nil
	}
}

// unionOfChunks reads the chunks rows yields into one bitmap.
func unionOfChunks(rows *sql.Rows) (*postings.Bitmap, error) {
	defer rows.Close()
	var bm *postings.Bitmap
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, describe(err)
		}
		chunk, err := postings.Decode(b)
		if err != nil {
			return nil, err
		}
		if bm == nil {
			bm = chunk
		} else {
			bm.Or(chunk) // chunks hold docs apart: their containers are appended
		}
	}
	if err := rows.Err(); err != nil {
		return nil, describe(err)
	}
	if bm == nil {
		bm = postings.New()
	}
	return bm, nil
}
