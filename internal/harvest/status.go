package harvest

import (
	"context"
	"time"

	"github.com/tenderbase/tenderbase"
)

// About says what a source fetches, for the status that an operator and an
// agent read.
type About struct {
	// Fetches is what the source fetches, in a short phrase: "TED notices
	// of the EU and beyond".
	Fetches string
	// StaleAfter is how far behind now its data may fall in normal work:
	// past it the data is stale. It follows how often the publisher
	// publishes (a register once a month, notices every day).
	StaleAfter time.Duration
	// Kinds are the kinds of records it fills the store with.
	Kinds []tenderbase.Kind
}

// SourceStatus is a source's state as its status shows it: the sync log's
// state, its lag at the moment the status was made, and the partitions set
// aside, whose data is missing.
type SourceStatus struct {
	tenderbase.SyncState
	LagSeconds int64 `json:"lag_seconds,omitempty"`
	NeverRun   bool  `json:"never_run,omitempty"`
	// Missing lists the partitions set aside, at most the number Status
	// was asked for; SetAside says how many there are.
	Missing []Aside `json:"missing,omitempty"`
}

// Status returns the state of each of the sources named, in that order, as
// of now, with at most shown of each one's partitions set aside. A source
// that never ran is NeverRun. Every interface that shows the sync's state
// (sync status, the freshness tool and endpoint) reads it here, so that
// they give the same figures.
func Status(ctx context.Context, log tenderbase.SyncLog, names []string, shown int, now time.Time) ([]SourceStatus, error) {
	states, err := log.SyncStates(ctx)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]tenderbase.SyncState, len(states))
	for _, s := range states {
		byName[s.Source] = s
	}
	rows := make([]SourceStatus, 0, len(names))
	for _, name := range names {
		s, ran := byName[name]
		if !ran {
			rows = append(rows, SourceStatus{SyncState: tenderbase.SyncState{Source: name}, NeverRun: true})
			continue
		}
		row := SourceStatus{SyncState: s, LagSeconds: int64(s.Lag(now).Seconds())}
		if row.SetAside > 0 && shown > 0 {
			if row.Missing, err = SetAside(ctx, log, name, shown); err != nil {
				return nil, err
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}
