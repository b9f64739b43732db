package sqlite

import (
	"fmt"
	"sync/atomic"

	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// totals caches the exact totals of searches between writes. Counting the
// matches of a common word reads its whole posting list (about 5 ms per
// 50,000 hits), while turning pages of one search asks for the same total
// again and again.
//
// A cached total is valid for one generation of the data. The generation is
// odd while a Put commits and even otherwise, so a search that saw the same
// even generation before and after it read saw no commit at all.
type totals struct {
	gen atomic.Uint64
	*versioning.Totals[uint64]
}

func newTotals() *totals { return &totals{Totals: versioning.NewTotals[uint64]()} }

// writing brackets a commit: call it before and again after.
func (t *totals) writing() { t.gen.Add(1) }

// generation returns the current generation and whether it admits caching.
func (t *totals) generation() (uint64, bool) {
	g := t.gen.Load()
	return g, g%2 == 0
}

// totalKey identifies the count of a selection: its SQL and arguments, and
// for a checked search the query and filters, since searches that differ
// only in what is checked in Go share their SQL.
func (sel selection) totalKey() string {
	key := fmt.Sprintf("%s\x00%s\x00%q\x00%q", sel.kind, sel.from, sel.args, sel.groups)
	if sel.verify && sel.check != nil {
		key += fmt.Sprintf("\x00%s\x00%v", query.Format(sel.check), sel.openOnly)
	}
	return key
}
