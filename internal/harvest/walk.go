package harvest

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Walk is a source's walk through its partitions, oldest first: a
// partition that fails is logged and left for the next run and the walk
// goes on, and the data is current only up to the first one that failed.
type Walk struct {
	Job *Job
	// Unit is what a partition is called in the log and the error:
	// "partition" unless set.
	Unit string
	// Stops reports whether an error ends the walk: no other partition
	// would succeed.
	Stops func(error) bool

	failed []error
}

// Step records err, the outcome of the partition name. through, unless
// zero, is the time the data is current to once this partition and every
// one before it completed: the end of the last partition of a period.
// Step returns an error when the walk is to stop: ctx is done, err stops
// it, or the sync log failed.
func (w *Walk) Step(ctx context.Context, name string, err error, through time.Time) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil && w.Stops(err):
		return errors.Join(append(w.failed, err)...)
	case err != nil:
		w.Job.Logger().Warn(w.unit()+" failed", w.unit(), name, "err", err)
		w.failed = append(w.failed, fmt.Errorf("%s: %w", name, err))
	case len(w.failed) == 0 && !through.IsZero():
		return w.Job.Through(ctx, through)
	}
	return nil
}

// Err returns the error of a walk through n partitions: nil unless one
// failed.
func (w *Walk) Err(n int) error {
	if len(w.failed) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d %ss failed, left for the next run; the first: %w", len(w.failed), n, w.unit(), w.failed[0])
}

func (w *Walk) unit() string {
	if w.Unit == "" {
		return "partition"
	}
	return w.Unit
}
