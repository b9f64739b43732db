package importer

import (
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// flush stores the pending batch in one transaction. When the store rejects
// the batch as invalid, it stores the records one by one so that only the
// invalid ones are rejected.
func (imp *importer) flush() error {
	if len(imp.batch) == 0 {
		return nil
	}
	batch := imp.batch
	imp.batch = nil
	if err := imp.ctx.Err(); err != nil {
		return err
	}
	res, err := imp.store.Put(imp.ctx, records(batch))
	switch {
	case err == nil:
		imp.summary.PutResult.Add(res)
		imp.stored(records(batch)...)
		return nil
	case imp.ctx.Err() != nil:
		return imp.ctx.Err() // the transaction was rolled back; nothing else went wrong
	case tenderbase.ErrorCode(err) == tenderbase.EINVALID:
		return imp.putEach(batch)
	}
	return fmt.Errorf("store %d records read from %s: %w", len(batch), displayName(batch[0].origin.file, batch[0].origin.member), err)
}

func (imp *importer) putEach(batch []pending) error {
	for _, p := range batch {
		res, err := imp.store.Put(imp.ctx, []tenderbase.Record{p.rec})
		switch {
		case err == nil:
			imp.summary.PutResult.Add(res)
			imp.stored(p.rec)
		case imp.ctx.Err() != nil:
			return imp.ctx.Err()
		case tenderbase.ErrorCode(err) == tenderbase.EINVALID:
			imp.reject(p.origin, tenderbase.ErrorMessage(err))
		default:
			return fmt.Errorf("store %s %s: %w", p.rec.Kind(), p.rec.Key(), err)
		}
	}
	return nil
}

func records(batch []pending) []tenderbase.Record {
	recs := make([]tenderbase.Record, len(batch))
	for i, p := range batch {
		recs[i] = p.rec
	}
	return recs
}

func (imp *importer) stored(recs ...tenderbase.Record) {
	if imp.opts.Stored != nil {
		imp.opts.Stored(recs)
	}
}
