package tenderbase

import (
	"context"
	"time"
)

// SyncLog keeps what the sync has done, in the store it fills, so that a
// sync restarted or killed resumes where it stopped: the partitions of each
// source it completed (a region, a type of document and a day), and how each
// source's last runs went. The SQLite and PostgreSQL stores implement it and
// pass the same suite (internal/storetest).
//
// Errors: ENOTFOUND from Checkpoint for a partition never completed; EINVALID
// for a checkpoint or state without a source; anything else is internal.
type SyncLog interface {
	// Checkpoint returns the checkpoint of a source's partition.
	Checkpoint(ctx context.Context, source, partition string) (Checkpoint, error)
	// SetCheckpoint records a partition as completed, replacing what was
	// recorded of it before.
	SetCheckpoint(ctx context.Context, c Checkpoint) error
	// Checkpoints returns at most limit checkpoints of a source whose
	// partitions begin with prefix, in the order of their names.
	Checkpoints(ctx context.Context, source, prefix string, limit int) ([]Checkpoint, error)
	// DeleteCheckpoint forgets a partition; forgetting one never recorded
	// is no error.
	DeleteCheckpoint(ctx context.Context, source, partition string) error
	// SyncStates returns the state of every source that has run, by name.
	SyncStates(ctx context.Context) ([]SyncState, error)
	// PutSyncState replaces the state of s.Source.
	PutSyncState(ctx context.Context, s SyncState) error
}

// Checkpoint says that a partition of a source was fetched and stored whole,
// and what the source needs to know of it to go on: the newest version it
// saw there, for a source read newest first until a known one.
type Checkpoint struct {
	Source    string    `json:"source"`
	Partition string    `json:"partition"`
	Value     string    `json:"value,omitempty"`
	At        time.Time `json:"at"` // when it was completed
}

// SyncState is how a source's sync went: what its status shows.
type SyncState struct {
	Source string `json:"source"`
	// Through is the moment up to which every partition of the source was
	// completed: its data is current to there, and the lag is from there.
	Through     time.Time `json:"through,omitzero"`
	LastAttempt time.Time `json:"last_attempt,omitzero"` // start of the last run
	LastSuccess time.Time `json:"last_success,omitzero"` // end of the last run without error
	// LastError is why the last run failed, or "" after a run without
	// error; LastErrorAt says when the last error came, whichever run it was.
	LastError   string    `json:"last_error,omitempty"`
	LastErrorAt time.Time `json:"last_error_at,omitzero"`
	// Totals over every run.
	Partitions int64 `json:"partitions"` // completed
	Files      int64 `json:"files"`      // downloaded and read
	Records    int64 `json:"records"`    // read from them
	Inserted   int64 `json:"inserted"`   // of which new to the store
	Rejected   int64 `json:"rejected"`   // not stored: the publisher's document was wrong
	// Throttled counts the downloads the publisher said to wait for (the
	// EIS's "download blocked"), which were waited for.
	Throttled int64 `json:"throttled"`
	// SetAside counts the partitions that failed every attempt and are set
	// aside, tried again on their own schedule: their data is missing.
	// LastSetAside names the one that failed last, with its error.
	SetAside     int64  `json:"set_aside"`
	LastSetAside string `json:"last_set_aside,omitempty"`
	// GivenUp counts the partitions set aside that failed for a week and
	// are no longer tried; LastGivenUp names the last, with its error.
	GivenUp     int64  `json:"given_up"`
	LastGivenUp string `json:"last_given_up,omitempty"`
	// LastRejection is the reason of the last record rejected, with its file.
	LastRejection string `json:"last_rejection,omitempty"`
	// Files of documentation whose text was read, and those that could not
	// be had or read, the last of them with why.
	Documents         int64  `json:"documents"`
	DocumentsFailed   int64  `json:"documents_failed"`
	LastDocumentError string `json:"last_document_error,omitempty"`
}

// Lag returns how far behind now the source's data is, or 0 when it has
// never completed a partition.
func (s SyncState) Lag(now time.Time) time.Duration {
	if s.Through.IsZero() {
		return 0
	}
	return now.Sub(s.Through).Round(time.Second)
}

// CheckSyncSource checks that a checkpoint or state names a source.
func CheckSyncSource(source string) error {
	if source == "" || !Holdable(source) {
		return Errorf(EINVALID, "a sync checkpoint or state needs the name of its source")
	}
	return nil
}
