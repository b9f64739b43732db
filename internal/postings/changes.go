package postings

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/tenderbase/tenderbase"
)

// Key names one chunk of a term's bitmap.
type Key struct {
	Term  string
	Chunk uint32
}

// compareKeys orders keys as a store's table: by term, then chunk.
func compareKeys(a, b Key) int {
	return cmp.Or(cmp.Compare(a.Term, b.Term), cmp.Compare(a.Chunk, b.Chunk))
}

// Chunks is a store's table of chunks, within the transaction of a write.
type Chunks interface {
	// Read returns the stored chunks of kind among keys; a chunk not
	// stored is missing from the map.
	Read(ctx context.Context, kind tenderbase.Kind, keys []Key) (map[Key][]byte, error)
	// Write stores the chunks of kind, which come in the order of their
	// keys (term, then chunk), so that a table kept in that order is
	// walked once; a chunk with nil Bits is deleted.
	Write(ctx context.Context, kind tenderbase.Kind, chunks []ChunkBits) error
}

// ChunkBits is one chunk of a term's bitmap, serialized.
type ChunkBits struct {
	Key
	Bits []byte
	// Stored says whether the table held the chunk before the write, so
	// that a store may insert the new ones without looking for them.
	Stored bool
}

// Changes gathers the docs a write adds to and removes from terms, to
// apply them to each chunk once, at the end of the write: an import of a
// thousand records touches each chunk of a word once instead of once per
// record that has the word.
type Changes struct {
	kinds map[tenderbase.Kind]map[Key][]op
	n     int
}

// op adds a doc to a term or removes it; the ops of a chunk apply in the
// order they came, so that a record stored and withdrawn by one write is
// gone.
type op struct {
	doc    uint32
	remove bool
}

// Add notes that doc holds terms.
func (c *Changes) Add(kind tenderbase.Kind, doc uint32, terms []string) {
	c.note(kind, doc, terms, false)
}

// Remove notes that doc no longer holds terms.
func (c *Changes) Remove(kind tenderbase.Kind, doc uint32, terms []string) {
	c.note(kind, doc, terms, true)
}

func (c *Changes) note(kind tenderbase.Kind, doc uint32, terms []string, remove bool) {
	if c.kinds == nil {
		c.kinds = map[tenderbase.Kind]map[Key][]op{}
	}
	keys := c.kinds[kind]
	if keys == nil {
		keys = map[Key][]op{}
		c.kinds[kind] = keys
	}
	for _, t := range terms {
		k := Key{Term: t, Chunk: Chunk(doc)}
		keys[k] = append(keys[k], op{doc: doc, remove: remove})
	}
	c.n += len(terms)
}

// Pending returns the number of term changes not yet written.
func (c *Changes) Pending() int { return c.n }

// Flush applies the changes to the chunks and forgets them.
func (c *Changes) Flush(ctx context.Context, chunks Chunks) error {
	kinds := make([]tenderbase.Kind, 0, len(c.kinds))
	for k := range c.kinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		if err := flushKind(ctx, chunks, kind, c.kinds[kind]); err != nil {
			return fmt.Errorf("write the postings of %s: %w", kind, err)
		}
	}
	c.kinds, c.n = nil, 0
	return nil
}

func flushKind(ctx context.Context, chunks Chunks, kind tenderbase.Kind, ops map[Key][]op) error {
	keys := make([]Key, 0, len(ops))
	for k := range ops {
		keys = append(keys, k)
	}
	// In the order of the table's key, so that the writes walk it once.
	slices.SortFunc(keys, compareKeys)
	stored, err := chunks.Read(ctx, kind, keys)
	if err != nil {
		return err
	}
	out := make([]ChunkBits, 0, len(keys))
	for _, k := range keys {
		bm := roaring.New()
		old, wasStored := stored[k]
		if wasStored {
			if err := bm.UnmarshalBinary(old); err != nil {
				return fmt.Errorf("read the chunk %d of %q: %w", k.Chunk, k.Term, err)
			}
		}
		for _, o := range ops[k] {
			if o.remove {
				bm.Remove(o.doc)
			} else {
				bm.Add(o.doc)
			}
		}
		if bm.IsEmpty() {
			if wasStored {
				out = append(out, ChunkBits{Key: k, Stored: true})
			}
			continue
		}
		bm.RunOptimize()
		b, err := bm.ToBytes()
		if err != nil {
			return err
		}
		out = append(out, ChunkBits{Key: k, Bits: b, Stored: wasStored})
	}
	return chunks.Write(ctx, kind, out)
}
