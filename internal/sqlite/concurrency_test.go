package sqlite

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

// TestReadersDuringPut runs searches while a long Put writes: every search
// must succeed (no SQLITE_BUSY) and see either none or all of the Put, and
// its page must agree with its total.
func TestReadersDuringPut(t *testing.T) {
	s := openTest(t)
	const batch = 1000
	first := batchOf(0, batch)
	put(t, s, first...)

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var reads, during atomic.Int64
	var putting atomic.Bool
	errs := make(chan error, 8)
	for range 4 {
		wg.Go(func() {
			for ctx.Err() == nil {
				inPut := putting.Load()
				if err := checkSnapshot(s, batch); err != nil {
					errs <- err
					return
				}
				reads.Add(1)
				if inPut && putting.Load() {
					during.Add(1)
				}
			}
		})
	}
	putting.Store(true)
	put(t, s, batchOf(batch, batch)...)
	putting.Store(false)
	time.Sleep(20 * time.Millisecond) // let readers see the committed Put too
	stop()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if during.Load() == 0 {
		t.Errorf("no search ran during the Put (%d searches in all); the test proves nothing", reads.Load())
	}
	t.Logf("%d searches, %d during the Put", reads.Load(), during.Load())
}

// checkSnapshot searches three ways and checks each sees whole batches.
func checkSnapshot(s *Store, batch int) error {
	searches := []tenderbase.Search{
		{Kind: tenderbase.KindTender},
		{Kind: tenderbase.KindTender, Query: tenderbase.TermQuery{Form: "поставка", Stem: "поставк"}},
		{Kind: tenderbase.KindTender, Filters: tenderbase.Filters{Regions: []int{77}}},
	}
	for _, sr := range searches {
		page, err := s.Search(context.Background(), sr)
		if err != nil {
			return fmt.Errorf("search during Put: %w", err)
		}
		if page.Total != batch && page.Total != 2*batch {
			return fmt.Errorf("search %+v saw %d records, a Put in part", sr, page.Total)
		}
		if len(page.Items) != tenderbase.DefaultPageSize {
			return fmt.Errorf("page of %d items, total %d", len(page.Items), page.Total)
		}
	}
	return nil
}

// batchOf returns n tenders numbered from start, each a day newer.
func batchOf(start, n int) []tenderbase.Record {
	out := make([]tenderbase.Record, n)
	for i := range n {
		k := start + i
		out[i] = tender(fmt.Sprintf("%011d", k), 1, fmt.Sprintf("Поставка товаров номер %d для нужд учреждения", k), 1+k/100)
	}
	return out
}
