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

// ForgetTotals drops the cached totals, so that every search counts its
// total anew, as the first one after an import does. The scale benchmark
// measures such cold searches.
func (s *Store) ForgetTotals() { s.totals.Forget() }
