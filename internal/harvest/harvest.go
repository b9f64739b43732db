// Package harvest keeps the store current from the publishers: it runs each
// source's fetcher (internal/harvest/eisdocs, .../torgiopen, ...), feeds
// what they download to the importer, and remembers in the store's sync log
// which partitions (a region, a type of document, a day) were completed, so
// that a sync restarted or killed resumes where it stopped. Sources run side
// by side and apart: one failing never stops another.
package harvest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// Source is one publisher's fetcher.
type Source interface {
	// Name names the source in the sync log, flags and status ("eis").
	Name() string
	// About says what the source fetches and when its data is stale.
	About() About
	// Sync fetches what job's scope asks for and job's log has not
	// completed, oldest first: it hands each file downloaded to job.Import
	// and records each partition done with job.Complete, after its files
	// were imported. Its error says why it stopped before the end; what it
	// completed stays completed.
	Sync(ctx context.Context, job *Job) error
}

// Scope narrows a run: from which day, up to when, which regions.
type Scope struct {
	// Since is the first day fetched. When zero, each source resumes: from
	// a day before the moment its data is current to, or from yesterday
	// when it never completed anything.
	Since   time.Time
	Until   time.Time // the moment fetched up to; now when zero
	Regions []int     // subjects of the Russian Federation; all when empty
}

// HasRegion reports whether the scope takes region code.
func (s Scope) HasRegion(code int) bool {
	return len(s.Regions) == 0 || slices.Contains(s.Regions, code)
}

// Runner runs sources into a store.
type Runner struct {
	Store    tenderbase.Store
	Log      tenderbase.SyncLog
	Decoders []importer.Decoder // the formats the importer reads
	Limits   importer.Limits    // the importer's bounds on what it reads
	Spool    string             // folder for downloads; the system's temporary folder when empty
	// Documents, when not nil, has the text of the files of documentation
	// fetched for the docs of the notices imported.
	Documents *Documents
	Logger    *slog.Logger
	Now       func() time.Time // the clock; time.Now when nil
	// Progress, when not nil, is told of each source's progress.
	Progress func(source string, p Progress)
}

// Progress is how far a source's run has come.
type Progress struct {
	Done, Total int // partitions of this run
	Files       int // imported in this run
	Records     int // read from the files imported in this run
	Rejected    int // records and paths rejected in this run
	Throttled   int // downloads the publisher said to wait for in this run
	SetAside    int // partitions set aside, of this run and before, not mended yet
	// LastSetAside names the partition set aside last, and why.
	LastSetAside, LastSetAsideError string
}

// Run runs every source once, side by side, and returns when all have
// stopped. The error joins the sources' errors, each naming its source;
// their states in the sync log say the same.
func (r *Runner) Run(ctx context.Context, scope Scope, sources []Source) error {
	if now := r.now(); scope.Until.IsZero() || scope.Until.After(now) {
		scope.Until = now
	}
	errs := make([]error, len(sources))
	var wg sync.WaitGroup
	for i, src := range sources {
		wg.Go(func() { errs[i] = r.runOne(ctx, scope, src) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Follow runs the sources again and again, every interval after the last
// run began, until ctx is done. A failed run is logged and followed by the
// next one as usual: the breaker and the retries are what keep a failing
// publisher from being asked too often.
func (r *Runner) Follow(ctx context.Context, scope Scope, sources []Source, every time.Duration) error {
	for {
		start := r.now()
		if err := r.Run(ctx, scope, sources); err != nil && ctx.Err() == nil {
			r.logger().Warn("sync run failed", "err", err)
		}
		// The next runs resume where each source is.
		scope.Since, scope.Until = time.Time{}, time.Time{}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(max(0, every-r.now().Sub(start))):
		}
	}
}

// runOne runs one source and records how it went.
func (r *Runner) runOne(ctx context.Context, scope Scope, src Source) error {
	job, err := r.newJob(ctx, scope, src.Name())
	if err != nil {
		return fmt.Errorf("%s: %w", src.Name(), err)
	}
	defer os.RemoveAll(job.spool)
	job.logger.Info("sync started", "since", job.Since.Format(time.DateOnly), "until", job.Until.Format(time.RFC3339))
	runErr := job.retryTexts(ctx)
	if runErr == nil {
		runErr = src.Sync(ctx, job)
	}
	job.mu.Lock()
	defer job.mu.Unlock()
	now := r.now()
	switch {
	case runErr == nil:
		job.state.LastSuccess, job.state.LastError = now, ""
		job.logger.Info("sync done", "partitions", job.run.Done, "files", job.run.Files)
	case ctx.Err() != nil:
		job.state.LastError, job.state.LastErrorAt = "interrupted", now
		runErr = ctx.Err()
	default:
		job.state.LastError, job.state.LastErrorAt = runErr.Error(), now
		job.logger.Error("sync failed", "err", runErr, "partitions", job.run.Done)
	}
	// The state is written even when ctx is done, so that status tells.
	if err := r.Log.PutSyncState(context.WithoutCancel(ctx), job.state); err != nil {
		runErr = errors.Join(runErr, err)
	}
	if runErr != nil {
		return fmt.Errorf("%s: %w", src.Name(), runErr)
	}
	return nil
}

func (r *Runner) newJob(ctx context.Context, scope Scope, name string) (*Job, error) {
	state, err := r.state(ctx, name)
	if err != nil {
		return nil, err
	}
	state.LastAttempt = r.now()
	if scope.Since.IsZero() {
		scope.Since = resumeFrom(state, r.now())
	}
	if err := r.Log.PutSyncState(ctx, state); err != nil {
		return nil, err
	}
	spool, err := os.MkdirTemp(r.Spool, "tenderbase-sync-"+name+"-")
	if err != nil {
		return nil, fmt.Errorf("make a folder for downloads: %w", err)
	}
	return &Job{Scope: scope, runner: r, source: name, state: state, spool: spool,
		logger: r.logger().With("source", name)}, nil
}

// resumeLap is how far before the moment a source is current to a run
// that resumes begins: documents come late into the days just past.
const resumeLap = 24 * time.Hour

// resumeFrom returns the first day a resuming run of a source fetches.
func resumeFrom(state tenderbase.SyncState, now time.Time) time.Time {
	if state.Through.IsZero() {
		return now.Add(-resumeLap)
	}
	return state.Through.Add(-resumeLap)
}

// state returns the source's recorded state, or a new one.
func (r *Runner) state(ctx context.Context, name string) (tenderbase.SyncState, error) {
	states, err := r.Log.SyncStates(ctx)
	if err != nil {
		return tenderbase.SyncState{}, err
	}
	for _, s := range states {
		if s.Source == name {
			return s, nil
		}
	}
	return tenderbase.SyncState{Source: name}, nil
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) logger() *slog.Logger {
	if r.Logger != nil {
		return r.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// ParseRegions reads a list of region codes, "77,50".
func ParseRegions(s string) ([]int, error) {
	var codes []int
	for part := range strings.SplitSeq(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || c < 1 || c > 99 {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "region %q: want a code from 1 to 99, such as 77", part)
		}
		codes = append(codes, c)
	}
	return codes, nil
}

// ParseAddress reads the http(s) address a source is configured with;
// what names it in the error ("torgi.gov.ru data set").
func ParseAddress(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%s %q: want an http(s) address", what, raw)
	}
	return u, nil
}
