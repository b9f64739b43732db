package postgres

import (
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// totals caches the exact totals of searches for one generation of the
// data (table generation), as versioning.Totals says.
type totals = versioning.Totals

func newTotals() *totals { return versioning.NewTotals() }

// ForgetTotals drops the cached totals, so that every search counts its
// total anew, as the first one after an import does. The scale benchmark
// measures such cold searches.
func (s *Store) ForgetTotals() { s.totals.Forget() }
