package harvest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// Job is one run of one source: its scope, its log and its way into the
// store. Its methods are safe to call from several goroutines.
type Job struct {
	Scope
	runner *Runner
	source string
	spool  string
	logger *slog.Logger

	mu    sync.Mutex
	state tenderbase.SyncState
	run   Progress
}

// Logger returns the job's logger, which names the source.
func (j *Job) Logger() *slog.Logger { return j.logger }

// Spool returns the folder to download into; Import removes what it reads.
func (j *Job) Spool() string { return j.spool }

// Now returns the runner's clock.
func (j *Job) Now() time.Time { return j.runner.now() }

// CurrentTo returns the moment the source's data is current to, as its
// state says: zero when it never completed a period.
func (j *Job) CurrentTo() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.state.Through
}

// Done reports whether the partition was completed, and the value it was
// completed with.
func (j *Job) Done(ctx context.Context, partition string) (bool, string, error) {
	c, err := j.runner.Log.Checkpoint(ctx, j.source, partition)
	switch {
	case err == nil:
		return true, c.Value, nil
	case tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND:
		return false, "", nil
	}
	return false, "", err
}

// SkipDone reports whether the partition was completed, and if so counts
// it done in this run's progress: the caller then has nothing to do for it.
func (j *Job) SkipDone(ctx context.Context, partition string) (bool, error) {
	done, _, err := j.Done(ctx, partition)
	if done {
		j.Skip()
	}
	return done, err
}

// Plan tells the job how many partitions this run has to do, for progress.
func (j *Job) Plan(total int) {
	j.mu.Lock()
	j.run.Total = total
	j.mu.Unlock()
	j.report()
}

// Complete records a partition done, with the value the source needs to go
// on from it. Call it once every file of the partition was imported.
func (j *Job) Complete(ctx context.Context, partition, value string) error {
	err := j.runner.Log.SetCheckpoint(ctx, tenderbase.Checkpoint{Source: j.source, Partition: partition, Value: value, At: j.Now()})
	if err != nil {
		return err
	}
	j.mu.Lock()
	j.run.Done++
	j.state.Partitions++
	state := j.state
	j.mu.Unlock()
	j.report()
	// The counts so far outlive a run killed before its end.
	return j.runner.Log.PutSyncState(ctx, state)
}

// Skip counts a partition this run has nothing to do for, as done already.
func (j *Job) Skip() {
	j.mu.Lock()
	j.run.Done++
	j.mu.Unlock()
}

// Throttled counts a download the publisher said to wait for, before the
// source waits.
func (j *Job) Throttled() {
	j.mu.Lock()
	j.run.Throttled++
	j.state.Throttled++
	j.mu.Unlock()
	j.report()
}

// Through records that every partition up to t is completed, and saves the
// source's state: the status shows the lag from there.
func (j *Job) Through(ctx context.Context, t time.Time) error {
	j.mu.Lock()
	if t.After(j.state.Through) {
		j.state.Through = t
	}
	state := j.state
	j.mu.Unlock()
	return j.runner.Log.PutSyncState(ctx, state)
}

// Import reads a downloaded file (an archive or a document) into the store
// and removes it, then fetches the text of the files of documentation its
// notices list, when the runner is configured to (Runner.Documents). name is what the publisher calls the file, kept in the
// import's messages; it may be "". A document the publisher got wrong is
// rejected and counted, and does not fail the import: fetching it again
// would not mend it. The error is for what stops the run: a store failure,
// or ctx being done.
func (j *Job) Import(ctx context.Context, path, name string) (importer.Summary, error) {
	return j.importWithin(ctx, path, name, j.runner.Limits)
}

// ImportArchive is Import for an archive that unpacks, by design, to more
// than the import's bound of one archive: it reads up to maxUnpacked
// bytes of it, or the import's bound where that is larger. The SME
// register's monthly archive is one such: some 2 GB packed, ten times that
// unpacked, in members of a few MB that are read one at a time.
func (j *Job) ImportArchive(ctx context.Context, path, name string, maxUnpacked int64) (importer.Summary, error) {
	limits := j.runner.Limits
	if limits.MaxArchiveBytes < maxUnpacked {
		limits.MaxArchiveBytes = maxUnpacked
	}
	return j.importWithin(ctx, path, name, limits)
}

func (j *Job) importWithin(ctx context.Context, path, name string, limits importer.Limits) (importer.Summary, error) {
	path, err := j.rename(path, name)
	if err != nil {
		return importer.Summary{}, err
	}
	defer os.Remove(path)
	var docs []*tenderbase.Doc
	sum, err := importer.Import(ctx, j.runner.Store, []string{path}, importer.Options{
		Decoders: j.runner.Decoders,
		Limits:   limits,
		Stored:   func(recs []tenderbase.Record) { docs = append(docs, docsToRead(recs)...) },
	})
	if err != nil {
		return sum, fmt.Errorf("import %s: %w", filepath.Base(path), err)
	}
	j.count(path, sum)
	return sum, j.documentText(ctx, docs, 0)
}

// rename gives a download the publisher's name, made safe, so that
// messages about it name it as the publisher does.
func (j *Job) rename(path, name string) (string, error) {
	name = filepath.Base(filepath.Clean("/" + name))
	if name == "/" || name == "." || strings.HasPrefix(name, ".") {
		return path, nil
	}
	dir, err := os.MkdirTemp(j.spool, "file-")
	if err != nil {
		return "", err
	}
	to := filepath.Join(dir, name)
	if err := os.Rename(path, to); err != nil {
		return "", err
	}
	return to, nil
}

// count adds what an import did to the run and the state.
func (j *Job) count(path string, sum importer.Summary) {
	j.mu.Lock()
	j.run.Files++
	j.run.Records += sum.Records
	j.state.Files++
	j.state.Records += int64(sum.Records)
	j.state.Inserted += int64(sum.Inserted)
	rejected := sum.Rejected + len(sum.Skipped)
	j.state.Rejected += int64(rejected)
	j.run.Rejected += rejected
	var why string
	switch {
	case len(sum.Rejections) > 0:
		why = sum.Rejections[len(sum.Rejections)-1].String()
	case len(sum.Skipped) > 0:
		why = sum.Skipped[len(sum.Skipped)-1].String()
	}
	if why != "" {
		// The spool's folders mean nothing to a reader of the status.
		why = strings.ReplaceAll(why, filepath.Dir(path)+string(filepath.Separator), "")
		j.state.LastRejection = why
	}
	j.mu.Unlock()
	if rejected > 0 {
		j.logger.Warn("documents rejected", "file", filepath.Base(path), "rejected", rejected, "last", why)
	}
	j.report()
}

func (j *Job) report() {
	if j.runner.Progress == nil {
		return
	}
	j.mu.Lock()
	p := j.run
	j.mu.Unlock()
	j.runner.Progress(j.source, p)
}
