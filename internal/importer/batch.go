package importer

import (
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// A batch is stored while the next one is read: flush hands it to a
// goroutine of its own and waits only for the batch before it, so that
// decoding overlaps the store's writes and at most two batches are held.

// outcome is what storing one batch did, applied to the Summary by the
// goroutine that reads, in the order the batches were read.
type outcome struct {
	res      tenderbase.PutResult
	stored   [][]tenderbase.Record // for Options.Stored, in order
	rejected []storeRejection
	err      error
}

// storeRejection is a record the store refused as invalid.
type storeRejection struct {
	origin origin
	reason string
}

// flush hands the pending batch to be stored, after the batch before it is
// stored.
func (imp *importer) flush() error {
	if err := imp.wait(); err != nil {
		return err
	}
	if len(imp.batch) == 0 {
		return nil
	}
	batch := imp.batch
	imp.batch = nil
	if err := imp.ctx.Err(); err != nil {
		return err
	}
	done := make(chan outcome, 1)
	imp.storing = done
	go func() { done <- imp.put(batch) }()
	return nil
}

// wait waits for the batch being stored, if any, and applies its outcome.
func (imp *importer) wait() error {
	if imp.storing == nil {
		return nil
	}
	o := <-imp.storing
	imp.storing = nil
	imp.summary.PutResult.Add(o.res)
	for _, recs := range o.stored {
		if imp.opts.Stored != nil {
			imp.opts.Stored(recs)
		}
	}
	for _, r := range o.rejected {
		imp.reject(r.origin, r.reason)
		imp.rejectedLater(r.origin)
	}
	return o.err
}

// put stores a batch; it runs beside the reading and touches nothing of
// the importer's but its options, store and context.
func (imp *importer) put(batch []pending) outcome {
	var o outcome
	imp.putHalves(batch, &o)
	return o
}

// putHalves stores batch, or, when the store refuses it as invalid, each
// of its halves in turn, down to the records refused: one bad record in a
// batch of thousands costs a few dozen transactions, not one a record. It
// reports whether the import may go on.
func (imp *importer) putHalves(batch []pending, o *outcome) bool {
	res, err := imp.store.Put(imp.ctx, records(batch))
	switch {
	case err == nil:
		o.res.Add(res)
		o.stored = append(o.stored, records(batch))
		return true
	case imp.ctx.Err() != nil:
		o.err = imp.ctx.Err() // the transaction was rolled back; nothing else went wrong
		return false
	case tenderbase.ErrorCode(err) == tenderbase.EINVALID && len(batch) == 1:
		o.rejected = append(o.rejected, storeRejection{origin: batch[0].origin, reason: tenderbase.ErrorMessage(err)})
		return true
	case tenderbase.ErrorCode(err) == tenderbase.EINVALID:
		half := len(batch) / 2
		return imp.putHalves(batch[:half], o) && imp.putHalves(batch[half:], o)
	case len(batch) == 1:
		o.err = fmt.Errorf("store %s %s: %w", batch[0].rec.Kind(), batch[0].rec.Key(), err)
	default:
		o.err = fmt.Errorf("store %d records read from %s: %w", len(batch), displayName(batch[0].origin.file, batch[0].origin.member), err)
	}
	return false
}

func records(batch []pending) []tenderbase.Record {
	recs := make([]tenderbase.Record, len(batch))
	for i, p := range batch {
		recs[i] = p.rec
	}
	return recs
}
