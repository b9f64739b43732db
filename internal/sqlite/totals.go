package sqlite

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase/internal/versioning"
)

// totals caches the exact totals of searches for one generation of the
// data (table generation, migration 0006), as versioning.Totals says.
// Counting the matches of a common word reads its whole posting list
// (about 5 ms per 50,000 hits), while turning pages of one search asks for
// the same total again and again.
type totals = versioning.Totals

func newTotals() *totals { return versioning.NewTotals() }

// generation reads the generation of the data. As the first read of a read
// transaction it also fixes the snapshot the transaction reads (a deferred
// BEGIN in WAL mode takes it at its first read), so the generation is that
// of everything the transaction counts.
func generation(ctx context.Context, c *conn) (int64, error) {
	var gen int64
	if err := c.queryRow(ctx, `SELECT n FROM generation`).Scan(&gen); err != nil {
		return 0, fmt.Errorf("read generation: %w", describe(err))
	}
	return gen, nil
}

// raiseGeneration raises the generation within a write's transaction,
// and returns the new one.
func raiseGeneration(ctx context.Context, c statements) (int64, error) {
	var gen int64
	if err := c.queryRow(ctx, `UPDATE generation SET n = n + 1 RETURNING n`).Scan(&gen); err != nil {
		return 0, fmt.Errorf("raise generation: %w", describe(err))
	}
	return gen, nil
}

// ForgetTotals drops the cached totals, so that every search counts its
// total anew, as the first one after an import does. The scale benchmark
// measures such cold searches.
func (s *Store) ForgetTotals() { s.totals.Forget() }
