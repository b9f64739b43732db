package postgres

import (
	"fmt"

	"github.com/tenderbase/tenderbase/internal/versioning"
)

// totals caches the exact totals of searches for one generation of the
// data (table generation), as versioning.Totals says.
type totals = versioning.Totals

func newTotals() *totals { return versioning.NewTotals() }

// totalKey identifies the count of a selection: its conditions and their
// arguments.
func (sel selection) totalKey() string {
	where, args := sel.where(false)
	return fmt.Sprintf("%s\x00%q", where, args)
}
