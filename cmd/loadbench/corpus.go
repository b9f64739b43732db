package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// corpusSeed seeds the synthetic records, as in the stores' benchmarks.
const corpusSeed = 2026

// putBatch is how many records one Put stores, as an import would.
const putBatch = 1000

// benchStore is a store that keeps API keys too, as both stores do.
type benchStore interface {
	tenderbase.Store
	tenderbase.KeyStore
}

// openStore opens the PostgreSQL database of a postgres:// URL, or else the
// SQLite file at the path, as the tenderbase command's --db does.
func openStore(ctx context.Context, db string, logger *slog.Logger) (benchStore, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		return postgres.Open(ctx, db, logger)
	}
	return sqlite.Open(ctx, db, logger)
}

// corpus is what the traffic draws from: words of the tenders' titles,
// common and rare, tenders' numbers and the INNs of complained-about
// customers.
type corpus struct {
	common, rare []string
	tenders      []string
	customers    []string
	// The keys of the last synthetic tender and complaint.
	lastTender, lastComplaint string
}

// How much of the corpus the traffic draws from.
const (
	commonWords = 10
	rareWords   = 200
	sampleKeys  = 1000
)

// loadCorpus returns the corpus of n tenders, storing it first unless the
// store holds it already: the demo dataset, n synthetic tenders and n/10
// synthetic complaints. The synthetic records are generated either way,
// which is much faster than storing them, to learn their words and keys.
func loadCorpus(ctx context.Context, store tenderbase.Store, n int, progress io.Writer) (corpus, error) {
	c, _ := generate(n, nil)
	if held, err := holdsCorpus(ctx, store, c); held || err != nil {
		return c, err
	}
	b := &batcher{ctx: ctx, store: store, progress: progress, start: time.Now()}
	fmt.Fprintf(progress, "loadbench: storing the demo dataset, %d tenders and %d complaints\n", n, complaintsOf(n))
	if err := b.putDemo(); err != nil {
		return c, err
	}
	if _, err := generate(n, b); err != nil {
		return c, err
	}
	return c, b.finish()
}

func complaintsOf(n int) int { return max(1, n/10) }

// holdsCorpus reports whether store holds the last synthetic tender and
// complaint of c, which it stored after all the others.
func holdsCorpus(ctx context.Context, store tenderbase.Store, c corpus) (bool, error) {
	for k, key := range map[tenderbase.Kind]string{tenderbase.KindTender: c.lastTender, tenderbase.KindComplaint: c.lastComplaint} {
		_, err := store.Get(ctx, k, key)
		if tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("look the corpus up: %w", err)
		}
	}
	return true, nil
}

// countCorpus returns the numbers of tenders and complaints of the store.
func countCorpus(ctx context.Context, store tenderbase.Store) (tenders, complaints int, err error) {
	for k, n := range map[tenderbase.Kind]*int{tenderbase.KindTender: &tenders, tenderbase.KindComplaint: &complaints} {
		page, err := store.Search(ctx, tenderbase.Search{Kind: k, PageSize: 1})
		if err != nil {
			return 0, 0, fmt.Errorf("count %s records: %w", k, err)
		}
		*n = page.Total
	}
	return tenders, complaints, nil
}

// generate generates the synthetic records of a corpus of n tenders,
// passes them to b unless it is nil, and returns what the traffic draws
// from them.
func generate(n int, b *batcher) (corpus, error) {
	var c corpus
	freq := map[string]int{}
	stride, i := max(1, n/sampleKeys), 0
	for t := range demo.Tenders(corpusSeed, n) {
		for _, w := range titleWords(t.Title) {
			freq[w]++
		}
		if i++; i%stride == 0 {
			c.tenders = append(c.tenders, t.PurchaseNumber)
		}
		c.lastTender = t.Key()
		if err := b.add(t); err != nil {
			return c, err
		}
	}
	seen := map[string]bool{}
	for cp := range demo.Complaints(corpusSeed, complaintsOf(n)) {
		if !seen[cp.CustomerINN] && len(seen) < sampleKeys {
			seen[cp.CustomerINN] = true
			c.customers = append(c.customers, cp.CustomerINN)
		}
		c.lastComplaint = cp.Key()
		if err := b.add(cp); err != nil {
			return c, err
		}
	}
	c.common, c.rare = splitWords(freq)
	return c, nil
}

// titleWords returns the distinct words of a title, lower case, of four
// letters or more.
func titleWords(title string) []string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool { return !unicode.IsLetter(r) })
	words = slices.DeleteFunc(words, func(w string) bool { return len([]rune(w)) < 4 })
	slices.Sort(words)
	return slices.Compact(words)
}

// splitWords returns the most frequent words and the least frequent ones.
func splitWords(freq map[string]int) (common, rare []string) {
	words := make([]string, 0, len(freq))
	for w := range freq {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int {
		return cmp.Or(cmp.Compare(freq[b], freq[a]), strings.Compare(a, b))
	})
	common = words[:min(commonWords, len(words))]
	rare = words[max(len(common), len(words)-rareWords):]
	if len(rare) == 0 {
		rare = common
	}
	return common, rare
}

// batcher stores records in batches of putBatch and shows progress. A nil
// batcher stores nothing.
type batcher struct {
	ctx      context.Context
	store    tenderbase.Store
	progress io.Writer
	start    time.Time
	batch    []tenderbase.Record
	stored   int
}

// putDemo stores the demo dataset.
func (b *batcher) putDemo() error {
	recs, err := demo.Records()
	if err != nil {
		return fmt.Errorf("demo dataset: %w", err)
	}
	for batch := range slices.Chunk(recs, putBatch) {
		if _, err := b.store.Put(b.ctx, batch); err != nil {
			return fmt.Errorf("store the demo dataset: %w", err)
		}
	}
	return nil
}

func (b *batcher) add(r tenderbase.Record) error {
	if b == nil {
		return nil
	}
	if b.batch = append(b.batch, r); len(b.batch) < putBatch {
		return nil
	}
	return b.flush()
}

func (b *batcher) flush() error {
	if len(b.batch) == 0 {
		return nil
	}
	if _, err := b.store.Put(b.ctx, b.batch); err != nil {
		return fmt.Errorf("store the corpus: %w", err)
	}
	b.stored += len(b.batch)
	b.batch = b.batch[:0]
	if b.stored%(50*putBatch) == 0 {
		fmt.Fprintf(b.progress, "loadbench: %d records stored in %s\n", b.stored, time.Since(b.start).Round(time.Second))
	}
	return nil
}

// finish stores the last batch and lets the store optimize its indexes
// for searching, as after an import.
func (b *batcher) finish() error {
	if err := b.flush(); err != nil {
		return err
	}
	if o, ok := b.store.(interface{ Optimize(context.Context) error }); ok {
		if err := o.Optimize(b.ctx); err != nil {
			return fmt.Errorf("optimize the store: %w", err)
		}
	}
	fmt.Fprintf(b.progress, "loadbench: corpus of %d records stored in %s\n", b.stored, time.Since(b.start).Round(time.Second))
	return nil
}
