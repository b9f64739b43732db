package postings

import (
	"context"
	"sync"

	"github.com/tenderbase/tenderbase"
)

// Recent keeps the chunks a store's last write wrote, so that the next
// write need not read them back: the batches of an import of new records
// add to the last chunk of most of the same terms, and reading those
// chunks back was a third of what the postings cost an import.
//
// What it keeps is the store's only while the store is as that write left
// it. Every write that changes the postings raises the store's generation,
// so Recent keeps the chunks with the generation their write committed,
// and a write that finds another one (another process wrote, or indexed
// the store again) reads every chunk from the store. A write that fails
// leaves the chunks and the generation as they were, and Recent with them.
type Recent struct {
	mu     sync.Mutex
	gen    int64
	kept   bool
	chunks map[tenderbase.Kind]map[Key][]byte // a nil value: the chunk is not stored
}

// Write returns the Chunks of a write that reads through r and writes to
// c, the store's table within the write's transaction; gen is the store's
// generation when the write began. A nil r keeps nothing.
func (r *Recent) Write(c Chunks, gen int64) *RecentWrite {
	w := &RecentWrite{recent: r, table: c, written: map[tenderbase.Kind]map[Key][]byte{}}
	if r != nil {
		r.mu.Lock()
		if r.kept && r.gen == gen {
			w.known = r.chunks
		}
		r.mu.Unlock()
	}
	return w
}

// RecentWrite is the postings table as one write sees it through Recent.
type RecentWrite struct {
	recent  *Recent
	table   Chunks
	known   map[tenderbase.Kind]map[Key][]byte // what the last write wrote, when it is still so
	written map[tenderbase.Kind]map[Key][]byte
}

var _ Chunks = (*RecentWrite)(nil)

// Read answers from the chunks the last write wrote and reads the others
// from the table.
func (w *RecentWrite) Read(ctx context.Context, kind tenderbase.Kind, keys []Key) (map[Key][]byte, error) {
	known := w.known[kind]
	out := make(map[Key][]byte, len(keys))
	var unknown []Key
	for _, k := range keys {
		b, ok := known[k]
		switch {
		case !ok:
			unknown = append(unknown, k)
		case b != nil:
			out[k] = b
		}
	}
	if len(unknown) == 0 {
		return out, nil
	}
	read, err := w.table.Read(ctx, kind, unknown)
	if err != nil {
		return nil, err
	}
	for k, b := range read {
		out[k] = b
	}
	return out, nil
}

// Write writes the chunks to the table and notes them.
func (w *RecentWrite) Write(ctx context.Context, kind tenderbase.Kind, chunks []ChunkBits) error {
	if err := w.table.Write(ctx, kind, chunks); err != nil {
		return err
	}
	m := w.written[kind]
	if m == nil {
		m = make(map[Key][]byte, len(chunks))
		w.written[kind] = m
	}
	for _, c := range chunks {
		m[c.Key] = c.Bits
	}
	return nil
}

// Committed tells Recent that the write committed, leaving the store at
// generation gen: the chunks it wrote are those Recent keeps, in place of
// the last write's.
func (w *RecentWrite) Committed(gen int64) {
	if w.recent == nil {
		return
	}
	w.recent.mu.Lock()
	defer w.recent.mu.Unlock()
	w.recent.chunks, w.recent.gen, w.recent.kept = w.written, gen, true
}
