package spelling

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Source is a store that lists its vocabulary.
//
// Errors: those of the store's reads.
type Source interface {
	// Words returns the forms of the words that the current records of
	// kind k hold, in their open and their tariff text, each once, in any
	// order: every word a query word may be corrected to.
	Words(ctx context.Context, k tenderbase.Kind) ([]string, error)
}

// RebuildAfter is the least time a vocabulary is kept before the store's
// writes make it built again: an import writes many times a minute, and a
// build reads every word of a kind, so in between the newest words may be
// missing from it. A word offered from it is always counted in the
// current records, so it is never one that nothing holds.
const RebuildAfter = time.Minute

// Vocabulary keeps an Index of each kind's words of a store, built when
// it is first needed and again when the store has changed, at most once
// per RebuildAfter. It is safe for concurrent use.
type Vocabulary struct {
	src  Source
	now  func() time.Time
	mu   sync.Mutex
	kind map[tenderbase.Kind]*built
}

// built is the index of one kind, with the generation of the store it
// was read at and when.
type built struct {
	mu    sync.Mutex // held while it is built
	index *Index
	gen   int64
	at    time.Time
}

// NewVocabulary returns the vocabulary of src, judging time by now
// (time.Now when nil).
func NewVocabulary(src Source, now func() time.Time) *Vocabulary {
	if now == nil {
		now = time.Now
	}
	return &Vocabulary{src: src, now: now, kind: map[tenderbase.Kind]*built{}}
}

// Index returns the index of the words of kind k, the store being at
// generation gen: the one kept, unless it was read at another generation
// at least RebuildAfter ago.
func (v *Vocabulary) Index(ctx context.Context, k tenderbase.Kind, gen int64) (*Index, error) {
	v.mu.Lock()
	b := v.kind[k]
	if b == nil {
		b = &built{}
		v.kind[k] = b
	}
	v.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.index != nil && (b.gen == gen || v.now().Sub(b.at) < RebuildAfter) {
		return b.index, nil
	}
	words, err := v.src.Words(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("read the words of %s: %w", k, err)
	}
	idx, err := Build(words)
	if err != nil {
		return nil, err
	}
	b.index, b.gen, b.at = idx, gen, v.now()
	return idx, nil
}
