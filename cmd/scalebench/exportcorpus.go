package main

import (
	"context"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

// exportCorpusVersion is raised whenever the stored complaints change, so
// that a cached store of older ones is built again.
const exportCorpusVersion = 1

// resultEvery is how many complaints there are for each that has a check
// result: the export reads the result of every complaint it writes
// (resultFAS), found or not.
const resultEvery = 2

// putBatch is the number of records a Put of the build stores at once.
const putBatch = 1000

// resultsOf returns the number of check results stored with n complaints.
func resultsOf(n int) int { return (n + resultEvery - 1) / resultEvery }

// putComplaints stores the synthetic complaints of the configuration's
// seed (internal/demo), and a check result of every resultEvery-th, through
// Store.Put in batches, then optimizes s, and says what it took.
func (b *bench) putComplaints(ctx context.Context, s ourStore, bt *built) error {
	b.logger.Info("store the complaints", "store", bt.Store, "complaints", b.cfg.Records)
	peak := startPeak(b.logger)
	start := time.Now()
	batch := make([]tenderbase.Record, 0, putBatch)
	stored := 0
	flush := func() error {
		res, err := s.Put(ctx, batch)
		if err != nil {
			return fmt.Errorf("put into %s: %w", bt.Store, err)
		}
		stored += res.Inserted
		batch = batch[:0]
		return nil
	}
	i := 0
	for c := range demo.Complaints(int64(b.cfg.Seed), b.cfg.Records) {
		batch = append(batch, c)
		if i%resultEvery == 0 {
			batch = append(batch, resultOf(c, i))
		}
		i++
		if len(batch) >= putBatch {
			if err := flush(); err != nil {
				return err
			}
		}
		if i%(b.cfg.Records/10+1) == 0 {
			b.logger.Info("storing", "store", bt.Store, "complaints", i, "after", time.Since(start).Round(time.Second))
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if err := s.Optimize(ctx); err != nil {
		return fmt.Errorf("optimize %s: %w", bt.Store, err)
	}
	bt.Wall = time.Since(start)
	bt.Records = stored
	bt.RecordsPerSecond = float64(stored) / bt.Wall.Seconds()
	bt.PeakRSS = peak()
	b.logger.Info("stored", "store", bt.Store, "records", stored, "in", bt.Wall.Round(time.Millisecond))
	return nil
}

// outcomes are the outcomes of the check results, in turn.
var outcomes = []string{"Жалоба признана необоснованной", "Жалоба признана обоснованной", "Жалоба признана частично обоснованной"}

// resultOf returns the check result of the i-th complaint c, published a
// week after it, with another outcome than the complaint's own.
func resultOf(c *tenderbase.Complaint, i int) *tenderbase.ComplaintResult {
	at := c.DatePubl.AddDate(0, 0, 7)
	outcome := outcomes[i%len(outcomes)]
	return &tenderbase.ComplaintResult{
		CheckResultNumber:    fmt.Sprintf("9%d%09d", at.Year(), i),
		ComplaintNumber:      c.ComplaintNumber,
		VersionNumber:        1,
		CreateDate:           at.Add(-2 * time.Hour),
		PublishDate:          at,
		ComplaintRegNumber:   c.RegNum,
		ComplaintPublishDate: c.DatePubl,
		SubjectFullName:      c.SupplierName,
		SubjectINN:           c.SupplierINN,
		PurchaseNumber:       c.PurchaseNumber,
		PurchaseName:         c.PurchaseObjectInfo,
		DecisionNumber:       fmt.Sprintf("%d/06/106-%d", at.Year(), i),
		DecisionDate:         at.Add(-26 * time.Hour),
		DecisionText:         outcome + ". Нарушений законодательства о контрактной системе в действиях заказчика не выявлено.",
		ComplaintResult:      outcome,
	}
}
