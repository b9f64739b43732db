package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
)

// chunks is the postings table (migration 0015) as postings.Chunks.
type chunks struct{ q statements }

func (c chunks) Read(ctx context.Context, kind tenderbase.Kind, keys []postings.Key) (map[postings.Key][]byte, error) {
	out := make(map[postings.Key][]byte, len(keys))
	for _, k := range keys {
		var b []byte
		err := c.q.queryRow(ctx, `SELECT bits FROM postings WHERE kind = ? AND term = ? AND chunk = ?`,
			string(kind), k.Term, k.Chunk).Scan(&b)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read postings: %w", describe(err))
		}
		out[k] = b
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
