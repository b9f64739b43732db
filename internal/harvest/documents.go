package harvest

import (
	"context"
	"errors"
	"fmt"
	"os"

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
// is: that is counted and logged, and does not fail the partition, whose
// records are stored already. The error is for what stops the run.
func (j *Job) documentText(ctx context.Context, docs []*tenderbase.Doc) error {
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
			j.documentFailed(doc, err)
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

func (j *Job) documentFailed(doc *tenderbase.Doc, err error) {
	why := fmt.Sprintf("%s (%s): %v", doc.FileName, doc.ID, err)
	j.mu.Lock()
	j.state.DocumentsFailed++
	j.state.LastDocumentError = why
	j.mu.Unlock()
	j.logger.Warn("no text of a file of documentation", "doc", doc.ID, "err", err)
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
