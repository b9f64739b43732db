package postgres

import (
	"fmt"

	"github.com/tenderbase/tenderbase/internal/versioning"
)

// totals caches the exact totals of searches for one generation of the
// data (table generation). A search reads the generation in the snapshot it
// counts in, so a total cached under a generation is the total of every
// snapshot of that generation, on every server.
type totals = versioning.Totals[int64]

func newTotals() *totals { return versioning.NewTotals[int64]() }

// totalKey identifies the count of a selection: its conditions and their
// arguments.
func (sel selection) totalKey() string {
	where, args := sel.where(false)
	return fmt.Sprintf("%s\x00%q", where, args)
}
