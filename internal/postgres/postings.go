package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// chunks is the postings table (migration 0010) as postings.Chunks. Every
// read and every write is one statement over arrays, whatever the number
// of chunks: an import's write touches thousands.
type chunks struct{ q pgx.Tx }

func (c chunks) Read(ctx context.Context, kind tenderbase.Kind, keys []postings.Key) (map[postings.Key][]byte, error) {
	terms, nums := make([]string, len(keys)), make([]int64, len(keys))
	for i, k := range keys {
		terms[i], nums[i] = k.Term, int64(k.Chunk)
	}
	rows, _ := c.q.Query(ctx, `
		SELECT p.term, p.chunk, p.bits FROM unnest($2::text[], $3::bigint[]) AS k (term, chunk)
		JOIN postings p ON p.kind = $1 AND p.term = k.term AND p.chunk = k.chunk`, string(kind), terms, nums)
	out := make(map[postings.Key][]byte, len(keys))
	var term string
	var chunk int64
	var bits []byte
	_, err := pgx.ForEachRow(rows, []any{&term, &chunk, &bits}, func() error {
		out[postings.Key{Term: term, Chunk: uint32(chunk)}] = bits
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read postings: %w", err)
	}
	return out, nil
}

// Write deletes the chunks gone, copies in the new ones and updates the
// others. A new chunk goes in by COPY, without the upsert's look for a
// row of its key: new chunks are most of an import's (938,000 of the
// 1,606,000 chunk writes at 100,000 tenders), and the server's time
// writing chunks went from 11.5 to 8.9 s.
func (c chunks) Write(ctx context.Context, kind tenderbase.Kind, all []postings.ChunkBits) error {
	var terms, goneTerms []string
	var nums, goneNums []int64
	var blobs [][]byte
	var fresh [][]any
	for _, ch := range all {
		switch {
		case ch.Bits == nil:
			goneTerms, goneNums = append(goneTerms, ch.Term), append(goneNums, int64(ch.Chunk))
		case !ch.Stored:
			fresh = append(fresh, []any{string(kind), ch.Term, int64(ch.Chunk), ch.Bits})
		default:
			terms, nums, blobs = append(terms, ch.Term), append(nums, int64(ch.Chunk)), append(blobs, ch.Bits)
		}
	}
	if len(fresh) > 0 {
		if _, err := c.q.CopyFrom(ctx, pgx.Identifier{"postings"}, []string{"kind", "term", "chunk", "bits"},
			pgx.CopyFromRows(fresh)); err != nil {
			return fmt.Errorf("write new postings: %w", err)
		}
	}
	if len(goneTerms) > 0 {
		if _, err := c.q.Exec(ctx, `
			DELETE FROM postings p USING unnest($2::text[], $3::bigint[]) AS k (term, chunk)
			WHERE p.kind = $1 AND p.term = k.term AND p.chunk = k.chunk`, string(kind), goneTerms, goneNums); err != nil {
			return fmt.Errorf("delete postings: %w", err)
		}
	}
	if len(terms) > 0 {
		if _, err := c.q.Exec(ctx, `
			INSERT INTO postings (kind, term, chunk, bits)
			SELECT $1, term, chunk, bits FROM unnest($2::text[], $3::bigint[], $4::bytea[]) AS k (term, chunk, bits)
			ON CONFLICT (kind, term, chunk) DO UPDATE SET bits = excluded.bits`, string(kind), terms, nums, blobs); err != nil {
			return fmt.Errorf("write postings: %w", err)
		}
	}
	return nil
}

// loader reads the bitmaps of terms of kind k through q, whole: every
// chunk of each term, in one statement.
func loader(q querier, k tenderbase.Kind) postings.Loader {
	return func(ctx context.Context, terms []string) (map[string]*postings.Bitmap, error) {
		rows, _ := q.Query(ctx, `SELECT term, bits FROM postings WHERE kind = $1 AND term = ANY($2)`, string(k), terms)
		out := make(map[string]*postings.Bitmap, len(terms))
		var term string
		var bits []byte
		_, err := pgx.ForEachRow(rows, []any{&term, &bits}, func() error {
			chunk, err := postings.Decode(bits)
			if err != nil {
				return fmt.Errorf("read postings of %q: %w", term, err)
			}
			if bm := out[term]; bm != nil {
				bm.Or(chunk) // chunks hold docs apart: their containers are appended
			} else {
				out[term] = chunk
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read postings: %w", err)
		}
		return out, nil
	}
}

// unpost takes the terms of the current record that cond (over records r)
// picks, if any, out of the postings of its doc, and returns its doc.
func (w writer) unpost(ctx context.Context, k tenderbase.Kind, cond string, args ...any) (uint32, error) {
	var doc int64
	var body []byte
	err := w.q.QueryRow(ctx, `
		SELECT r.doc, v.body FROM records r JOIN versions v ON v.id = r.version WHERE `+cond, args...).Scan(&doc, &body)
	if err == pgx.ErrNoRows {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the indexed version: %w", err)
	}
	old, err := versioning.Decode(k, body)
	if err != nil {
		return 0, err
	}
	w.changes.Remove(k, uint32(doc), postings.RecordTerms(w.stems, old))
	return uint32(doc), nil
}
