package postgres

import (
	"context"
	"sync"
)

// The upkeep of a long write: every Put rewrites the last chunk of the
// postings of its words and the standings of its tenders, which leaves
// dead rows behind, and the tables grow past the statistics the planner
// last read. On a server whose autovacuum is off or behind, an import then
// slows as it goes: 717 records/s at 20,000 tenders, 300/s at 128,000,
// the postings' reads wading through dead rows and the standings' read
// scanning every state the stale statistics called rare. A VACUUM
// (ANALYZE) at 146,000 brought it back to 783/s. So the store does it
// itself, as the writes go, after a share of what it holds.
const (
	// upkeepFloor is the fewest records written between two upkeeps.
	upkeepFloor = 25_000
	// upkeepShare is the share of the records stored that the writes
	// between two upkeeps come to, so that the upkeep, whose cost grows
	// with the tables, stays a bounded part of a long import.
	upkeepShare = 0.25
)

// upkeep counts what Put wrote since the tables were last vacuumed and
// analyzed.
type upkeep struct {
	mu      sync.Mutex
	written int // records written since the last upkeep
	every   int // records between two upkeeps
	running bool
}

// wrote counts n records written and reports whether the upkeep is due;
// it is then this caller's to run, and no other's until done.
func (u *upkeep) wrote(n int) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.every == 0 {
		u.every = upkeepFloor
	}
	u.written += n
	if u.running || u.written < u.every {
		return false
	}
	u.running = true
	return true
}

// done notes an upkeep run, with the records the store now holds.
func (u *upkeep) done(stored int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.running, u.written = false, 0
	u.every = max(upkeepFloor, int(float64(stored)*upkeepShare))
}

// keepUp runs the upkeep when the writes since the last one call for it:
// the VACUUM (ANALYZE) of Optimize, outside any transaction. A failure is
// logged and left to the next: the write it follows has committed.
func (s *Store) keepUp(ctx context.Context, written int) {
	if written == 0 || !s.upkeep.wrote(written) {
		return
	}
	// A Put whose caller has gone still leaves its upkeep due; it is not
	// the caller's to wait for.
	ctx = context.WithoutCancel(ctx)
	var stored int
	if err := s.Optimize(ctx); err != nil {
		s.logger.Warn("upkeep of a long write", "err", err)
	} else if err := s.pool.QueryRow(ctx, `SELECT reltuples::bigint FROM pg_class WHERE oid = 'records'::regclass`).Scan(&stored); err != nil {
		s.logger.Warn("upkeep of a long write: count the records", "err", err)
	}
	s.logger.Debug("upkeep of a long write", "records", stored)
	s.upkeep.done(stored)
}
