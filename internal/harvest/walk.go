package harvest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tenderbase/tenderbase/internal/fetch"
)

// Walk is a source's walk through its partitions, oldest first. A
// partition that fails is logged and the walk goes on. With SetAside, the
// partition is set aside: tried again on its own schedule (Redo), named in
// the status as data missing, and the data is current past it. Without,
// it is left for the next run and the data is current only up to the
// first one that failed.
type Walk struct {
	Job *Job
	// Unit is what a partition is called in the log and the error:
	// "partition" unless set.
	Unit string
	// Stops reports whether an error ends the walk: no other partition
	// would succeed.
	Stops func(error) bool
	// SetAside sets failed partitions aside rather than holding the data
	// back at them; the source then calls Redo before its walk.
	SetAside bool

	failed []error           // this run's failures that hold the data back, or new ones set aside
	aside  map[string]*Aside // the partitions set aside, loaded on first use
}

// Step records err, the outcome of the partition name. through, unless
// zero, is the time the data is current to once this partition and every
// one before it completed or was set aside: the end of the last partition
// of a period. Step returns an error when the walk is to stop: ctx is
// done, err stops it, or the sync log failed.
func (w *Walk) Step(ctx context.Context, name string, err error, through time.Time) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil && w.Stops(err):
		return errors.Join(append(w.failed, err)...)
	case err != nil && w.SetAside:
		if err := w.setAside(ctx, name, err); err != nil {
			return err
		}
	case err != nil:
		w.Job.Logger().Warn(w.unit()+" failed", w.unit(), name, "err", err)
		w.failed = append(w.failed, fmt.Errorf("%s: %w", name, err))
		return nil
	case w.SetAside:
		if err := w.mended(ctx, name); err != nil {
			return err
		}
	}
	if !through.IsZero() && (w.SetAside || len(w.failed) == 0) {
		return w.Job.Through(ctx, through)
	}
	return nil
}

// Redo tries again the partitions set aside whose time has come, each
// with redo, which reports false for a partition this run does not take
// (another scope, a type no longer fetched). planned are the partitions
// the walk will do anyway: they are left to it. Redo returns an error when
// the walk is to stop, as Step does.
func (w *Walk) Redo(ctx context.Context, planned []string, redo func(ctx context.Context, name string) (bool, error)) error {
	if err := w.load(ctx); err != nil {
		return err
	}
	inWalk := make(map[string]bool, len(planned))
	for _, name := range planned {
		inWalk[name] = true
	}
	now := w.Job.Now()
	for _, name := range sortedKeys(w.aside) {
		if a, ok := w.aside[name]; !ok || inWalk[name] || a.Next.After(now) {
			continue
		}
		took, err := redo(ctx, name)
		if !took && err == nil {
			continue
		}
		if err := w.Step(ctx, name, err, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// Err returns the error of a walk through n partitions: nil unless one
// failed that held the data back, or one was set aside that was not
// before. A partition set aside failing again is in the status, not an
// error of the run.
func (w *Walk) Err(n int) error {
	if len(w.failed) == 0 {
		return nil
	}
	if w.SetAside {
		return fmt.Errorf("%d of %d %ss failed, set aside to be tried again later; the first: %w", len(w.failed), n, w.unit(), w.failed[0])
	}
	return fmt.Errorf("%d of %d %ss failed, left for the next run; the first: %w", len(w.failed), n, w.unit(), w.failed[0])
}

func (w *Walk) unit() string {
	if w.Unit == "" {
		return "partition"
	}
	return w.Unit
}

// ErrDocument marks the failure of one document of a partition, wrapped
// in its error: the other documents are fetched still, and the partition
// is left for the next run.
var ErrDocument = errors.New("document")

// EachDocument does each of a partition's documents in order. One that
// fails with ErrDocument is counted and the others go on; any other
// error, ctx being done or the publisher's breaker open stops at once.
// The error says how many of the documents, what (unit: "notices"),
// failed, and the first one's error.
func EachDocument[T any](ctx context.Context, docs []T, unit string, do func(T) error) error {
	var failed []error
	for _, d := range docs {
		err := do(d)
		switch {
		case err == nil:
		case errors.Is(err, ErrDocument) && !errors.Is(err, fetch.ErrBroken) && ctx.Err() == nil:
			failed = append(failed, err)
		default:
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d %s failed; the first: %w", len(failed), len(docs), unit, failed[0])
	}
	return nil
}

// StartsWith returns a check of a download (fetch.Request.Check): that
// it starts, past a byte order mark and white space, with first, as every
// document of its kind does (what: "a JSON document"). A page a publisher
// answered with in its place (a 200 in HTML) is then asked for again; a
// document that starts so and does not parse is the importer's to reject.
func StartsWith(first byte, what string) func(body io.ReaderAt, size int64) error {
	return func(body io.ReaderAt, size int64) error {
		b := make([]byte, min(size, 512))
		n, _ := body.ReadAt(b, 0)
		start := bytes.TrimLeft(bytes.TrimPrefix(b[:n], []byte("\ufeff")), " \t\r\n")
		if len(start) == 0 || start[0] != first {
			return fmt.Errorf("the answer is not %s", what)
		}
		return nil
	}
}
