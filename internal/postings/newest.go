package postings

import (
	"cmp"
	"context"
	"math"
	"slices"
)

// Records reads a kind's records by rid and doc, for NewestFirst.
type Records interface {
	// RIDsOf returns the rids of the docs whose rid is below before, in
	// any order.
	RIDsOf(ctx context.Context, docs []uint32, before int64) ([]int64, error)
	// Walk returns the rids and docs of at most step records, newest
	// first from below the rid before.
	Walk(ctx context.Context, before int64, step int) (rids []int64, docs []uint32, err error)
}

// A bitmap's records newest first are found one of two ways, whichever
// reads fewer rows: walking the kind's records newest first and keeping
// those whose doc is in the bitmap, which for a common word stops after a
// few dozen rows; or reading the rids of every doc of the bitmap and
// sorting them, which for a rare word reads a few hundred.
const (
	// fetchCost is how many rows of a walk cost what one row read by its
	// doc costs: an index probe against a step of a scan.
	fetchCost = 4
	// minWalk and maxWalk bound the rows one step of a walk reads.
	minWalk = 256
	maxWalk = 65_536
)

// NewestFirst returns the rids of up to want of docs, newest first, from
// below the rid before (math.MaxInt64 for all); all is the number of the
// kind's records.
func NewestFirst(ctx context.Context, recs Records, docs *Bitmap, all uint64, before int64, want int) ([]int64, error) {
	matches := docs.GetCardinality()
	if matches == 0 || want <= 0 {
		return nil, nil
	}
	walk := float64(want) * float64(max(all, matches)) / float64(matches) // rows a walk is expected to read
	if float64(matches)*fetchCost < walk {
		rids, err := recs.RIDsOf(ctx, docs.ToArray(), before)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(rids, func(a, b int64) int { return cmp.Compare(b, a) })
		return rids[:min(len(rids), want)], nil
	}
	step := max(int(math.Min(walk*1.25, maxWalk)), minWalk)
	rids := make([]int64, 0, want)
	for len(rids) < want {
		walked, walkedDocs, err := recs.Walk(ctx, before, step)
		if err != nil {
			return nil, err
		}
		for i, rid := range walked {
			if len(rids) < want && docs.Contains(walkedDocs[i]) {
				rids = append(rids, rid)
			}
		}
		if len(walked) < step {
			break
		}
		before = walked[len(walked)-1]
		step = min(step*2, maxWalk)
	}
	return rids, nil
}
