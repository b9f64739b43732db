package spelling

import (
	"context"
	"fmt"
	"slices"
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
// build reads every word of a kind (0.7 s at 100,000 tenders), so in
// between the newest words may be missing from it. A word offered from it
// is always counted in the current records, so it is never one that
// nothing holds.
const RebuildAfter = time.Minute

// buildTimeout bounds a build in the background, which no request waits
// for and none cancels.
const buildTimeout = time.Minute

// Vocabulary keeps an Index of each kind's words of a store. The first
// correction of a kind waits for its index; after the store has changed,
// at most once per RebuildAfter, the index is built again in the
// background while the one kept serves. It is safe for concurrent use.
type Vocabulary struct {
	src      Source
	now      func() time.Time
	mu       sync.Mutex
	kind     map[tenderbase.Kind]*built
	building sync.WaitGroup
}

// built is the index of one kind, with the generation of the store it
// was read at and when.
type built struct {
	first    sync.Mutex // held while the first index is built
	index    *Index
	gen      int64
	at       time.Time
	building bool // a build runs in the background
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
// generation gen: the one kept, which is built again in the background
// when it was read at another generation at least RebuildAfter ago.
func (v *Vocabulary) Index(ctx context.Context, k tenderbase.Kind, gen int64) (*Index, error) {
	v.mu.Lock()
	b := v.kind[k]
	if b == nil {
		b = &built{}
		v.kind[k] = b
	}
	v.mu.Unlock()
	b.first.Lock()
	defer b.first.Unlock()
	v.mu.Lock()
	idx := b.index
	stale := idx != nil && b.gen != gen && v.now().Sub(b.at) >= RebuildAfter && !b.building
	if stale {
		b.building = true
		v.building.Add(1)
		go v.rebuild(context.WithoutCancel(ctx), k, b, gen)
	}
	v.mu.Unlock()
	if idx != nil {
		return idx, nil
	}
	idx, err := v.build(ctx, k)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	b.index, b.gen, b.at = idx, gen, v.now()
	v.mu.Unlock()
	return idx, nil
}

// rebuild builds the index of kind k in the background and keeps it. A
// build that fails keeps the old index, and is tried again RebuildAfter
// later.
func (v *Vocabulary) rebuild(ctx context.Context, k tenderbase.Kind, b *built, gen int64) {
	defer v.building.Done()
	ctx, cancel := context.WithTimeout(ctx, buildTimeout)
	defer cancel()
	idx, err := v.build(ctx, k)
	v.mu.Lock()
	defer v.mu.Unlock()
	b.building, b.at = false, v.now()
	if err == nil {
		b.index, b.gen = idx, gen
	}
}

// Wait waits for the builds running in the background.
func (v *Vocabulary) Wait() { v.building.Wait() }

// build reads the words of kind k and builds the index of those of
// letters alone, the only ones a correction offers: the numbers and codes
// (purchase numbers, INNs) would be most of a large store's vocabulary.
func (v *Vocabulary) build(ctx context.Context, k tenderbase.Kind) (*Index, error) {
	words, err := v.src.Words(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("read the words of %s: %w", k, err)
	}
	return Build(slices.DeleteFunc(words, func(w string) bool { return !letters(w) }))
}
