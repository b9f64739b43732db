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

// Read asks for many chunks in each statement, their keys in a JSON array
// that SQLite walks, probing the table's key for each: a batch of 5,000
// tenders reads some 50,000 chunks, and a statement apiece spent more in
// the statement than in the probe.
func (c chunks) Read(ctx context.Context, kind tenderbase.Kind, keys []postings.Key) (map[postings.Key][]byte, error) {
	out := make(map[postings.Key][]byte, len(keys))
	for part := range slices.Chunk(keys, readChunksAtOnce) {
		pairs := make([][2]any, len(part))
		for i, k := range part {
			pairs[i] = [2]any{k.Term, k.Chunk}
		}
		list, err := json.Marshal(pairs)
		if err != nil {
			return nil, err
		}
		// CROSS JOIN keeps the keys the outer loop: left to itself, the
		// planner walks every chunk of the kind and looks each up in the
		// list.
		rows, err := c.q.query(ctx, `SELECT p.term, p.chunk, p.bits FROM json_each(?) j
			CROSS JOIN postings p ON p.kind = ? AND p.term = j.value ->> 0 AND p.chunk = j.value ->> 1`, string(list), string(kind))
		if err != nil {
			return nil, fmt.Errorf("read postings: %w", describe(err))
		}
		for rows.Next() {
			var k postings.Key
			var b []byte
			if err := rows.Scan(&k.Term, &k.Chunk, &b); err != nil {
				rows.Close()
				return nil, fmt.Errorf("read postings: %w", describe(err))
			}
			out[k] = b
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("read postings: %w", describe(err))
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("read postings: %w", describe(err))
		}
	}
	return out, nil
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
