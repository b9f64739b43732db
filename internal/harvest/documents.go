package harvest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/doctext"
	"github.com/tenderbase/tenderbase/internal/fetch"
)

// Documents configures the download of the files of documentation that
// the notices a sync imports list, whose text then makes their docs
// searchable by the words inside the files.
type Documents struct {
	// Client fetches the files: a client of its own, whose breaker opens
	// for the publisher's file store alone.
	Client *fetch.Client
	// MaxBytes bounds a file downloaded; a larger one is left without text.
	MaxBytes int64
	Limits   doctext.Limits
}

// DefaultDocumentBytes is the largest file of documentation downloaded
// unless configured otherwise.
const DefaultDocumentBytes = 30 << 20

// documentText downloads the file of each doc just stored that has an
// address and no text yet (stored or come), and stores the doc again with
// the file's text. A file that cannot be had or read leaves its doc as it
// is: that is counted and logged, kept to be tried again by the next runs
// (attempts says how many tried it before), and does not fail the
// partition, whose records are stored already. The error is for what
// stops the run.
func (j *Job) documentText(ctx context.Context, docs []*tenderbase.Doc, attempts int) error {
	d := j.runner.Documents
	if d == nil {
		return nil
	}
	for _, doc := range docs {
		if stored, err := j.runner.Store.Get(ctx, tenderbase.KindDoc, doc.ID); err == nil {
			if s := stored.(*tenderbase.Doc); s.Text != "" && s.URL == doc.URL {
				continue // the merge keeps it
			}
		}
		text, err := j.download(ctx, d, doc)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			if err := j.documentFailed(ctx, doc, attempts+1, err); err != nil {
				return err
			}
			continue
		}
		withText := *doc
		withText.Text = text
		if _, err := j.runner.Store.Put(ctx, []tenderbase.Record{&withText}); err != nil {
			return fmt.Errorf("store the text of %s: %w", doc.ID, err)
		}
		j.mu.Lock()
		j.state.Documents++
		j.mu.Unlock()
		if attempts > 0 {
			if err := j.runner.Log.DeleteCheckpoint(ctx, j.source, pendingText+doc.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// download fetches one file and extracts its text.
func (j *Job) download(ctx context.Context, d *Documents, doc *tenderbase.Doc) (string, error) {
	max := d.MaxBytes
	if max <= 0 {
		max = DefaultDocumentBytes
	}
	path, _, err := d.Client.Download(ctx, fetch.Request{URL: doc.URL, MaxBytes: max, RefuseTypes: []string{"text/html"}}, j.spool)
	if err != nil {
		return "", err
	}
	defer os.Remove(path)
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	text, err := doctext.Extract(ctx, doc.FileName, f, info.Size(), d.Limits)
	if err != nil {
		return "", errors.New(tenderbase.ErrorMessage(err))
	}
	return text.Text, nil
}

// documentFailed counts a file that could not be had or read, and keeps
// its doc among those to try again in the next runs.
func (j *Job) documentFailed(ctx context.Context, doc *tenderbase.Doc, attempts int, err error) error {
	why := fmt.Sprintf("%s (%s): %v", doc.FileName, doc.ID, err)
	j.mu.Lock()
	j.state.DocumentsFailed++
	j.state.LastDocumentError = why
	j.mu.Unlock()
	j.logger.Warn("no text of a file of documentation", "doc", doc.ID, "attempts", attempts, "err", err)
	if attempts >= textAttempts {
		return j.runner.Log.DeleteCheckpoint(ctx, j.source, pendingText+doc.ID)
	}
	return j.runner.Log.SetCheckpoint(ctx, tenderbase.Checkpoint{Source: j.source, Partition: pendingText + doc.ID,
		Value: strconv.Itoa(attempts), At: j.Now()})
}

// pendingText starts the names of the entries of the sync log that keep a
// doc whose file could not be had, to be tried again by the next runs; the
// value is the number of runs that tried.
const pendingText = "texts/"

// textAttempts is how many runs try a file before it is given up: a file
// store down for a day is waited for, a file removed is not forever.
const textAttempts = 5

// retriesPerRun bounds the files tried again at the start of a run.
const retriesPerRun = 100

// retryTexts tries again the files of the docs that earlier runs could not
// have, before the run's own work.
func (j *Job) retryTexts(ctx context.Context) error {
	if j.runner.Documents == nil {
		return nil
	}
	pending, err := j.runner.Log.Checkpoints(ctx, j.source, pendingText, retriesPerRun)
	if err != nil {
		return err
	}
	for _, p := range pending {
		id := strings.TrimPrefix(p.Partition, pendingText)
		rec, err := j.runner.Store.Get(ctx, tenderbase.KindDoc, id)
		doc, _ := rec.(*tenderbase.Doc)
		switch {
		case tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND || err == nil && (doc.URL == "" || doc.Text != ""):
			err = j.runner.Log.DeleteCheckpoint(ctx, j.source, p.Partition) // withdrawn, or read since
		case err == nil:
			attempts, _ := strconv.Atoi(p.Value)
			err = j.documentText(ctx, []*tenderbase.Doc{doc}, attempts)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// docsToRead returns the docs among records that have an address and no text.
func docsToRead(records []tenderbase.Record) []*tenderbase.Doc {
	var docs []*tenderbase.Doc
	for _, r := range records {
		if d, ok := r.(*tenderbase.Doc); ok && d.URL != "" && d.Text == "" {
			docs = append(docs, d)
		}
	}
	return docs
}
