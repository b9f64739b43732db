package harvest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Aside is a partition that failed every attempt of a run and was set
// aside: its data is missing. It is kept in the sync log as the
// checkpoint "aside/<partition>", its value this in JSON.
type Aside struct {
	Partition string    `json:"partition"`
	Error     string    `json:"error"` // of its last failure
	Since     time.Time `json:"since"` // its first failure
	Last      time.Time `json:"last"`  // its last failure
	Tries     int       `json:"tries"` // runs it failed in
	Next      time.Time `json:"next"`  // a run from then tries it again
}

// The schedule of a partition set aside: the next run tries it again, then
// a run a day, for a week from its first failure; then it is given up,
// counted and named in the status (SyncState.GivenUp). A day suits the
// failures that last (a type the service refuses, an archive that cannot
// be read) without asking the publisher every run; a week covers an
// outage of the publisher's longest.
const (
	asideRetryEvery = 24 * time.Hour
	asideGiveUp     = 7 * 24 * time.Hour
	asidePrefix     = "aside/"
	asideMost       = 100_000 // read of the sync log at once
)

// SetAside returns at most limit partitions of source set aside, in the
// order of their names.
func SetAside(ctx context.Context, log tenderbase.SyncLog, source string, limit int) ([]Aside, error) {
	cps, err := log.Checkpoints(ctx, source, asidePrefix, limit)
	if err != nil {
		return nil, err
	}
	asides := make([]Aside, 0, len(cps))
	for _, c := range cps {
		a := Aside{Partition: strings.TrimPrefix(c.Partition, asidePrefix)}
		if err := json.Unmarshal([]byte(c.Value), &a); err != nil {
			return nil, fmt.Errorf("read %s of %s: %w", c.Partition, source, err)
		}
		asides = append(asides, a)
	}
	return asides, nil
}

// Due reports whether the partition name is to be tried by this run: it
// is not set aside, or its time to be tried again has come. When it is
// not, next is when it will be. A source whose partitions are not walked
// by day (a release of a register) asks before each.
func (w *Walk) Due(ctx context.Context, name string) (due bool, next time.Time, err error) {
	if err := w.load(ctx); err != nil {
		return false, time.Time{}, err
	}
	if a, ok := w.aside[name]; ok && a.Next.After(w.Job.Now()) {
		return false, a.Next, nil
	}
	return true, time.Time{}, nil
}

// Drop forgets the partitions set aside that superseded reports true
// for: their data is no longer missing, as one completed since holds it.
func (w *Walk) Drop(ctx context.Context, superseded func(name string) bool) error {
	if err := w.load(ctx); err != nil {
		return err
	}
	for _, name := range sortedKeys(w.aside) {
		if superseded(name) {
			if err := w.mended(ctx, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// load reads the partitions set aside, once.
func (w *Walk) load(ctx context.Context) error {
	if w.aside != nil {
		return nil
	}
	asides, err := SetAside(ctx, w.Job.runner.Log, w.Job.source, asideMost)
	if err != nil {
		return err
	}
	w.aside = make(map[string]*Aside, len(asides))
	for _, a := range asides {
		w.aside[a.Partition] = &a
	}
	w.count(nil)
	return nil
}

// setAside records a partition's failure: set aside anew, tried again
// later, or given up.
func (w *Walk) setAside(ctx context.Context, name string, failure error) error {
	if err := w.load(ctx); err != nil {
		return err
	}
	now := w.Job.Now()
	a, known := w.aside[name]
	if !known {
		a = &Aside{Partition: name, Since: now}
		w.failed = append(w.failed, fmt.Errorf("%s: %w", name, failure))
	}
	a.Error, a.Last, a.Tries, a.Next = failure.Error(), now, a.Tries+1, now.Add(asideRetryEvery)
	if !known {
		a.Next = now // the next run
	}
	log := w.Job.runner.Log
	if known && now.Sub(a.Since) >= asideGiveUp {
		w.Job.Logger().Error(w.unit()+" given up", w.unit(), name, "since", a.Since, "tries", a.Tries, "err", failure)
		delete(w.aside, name)
		w.count(a)
		return log.DeleteCheckpoint(ctx, w.Job.source, asidePrefix+name)
	}
	w.Job.Logger().Warn(w.unit()+" failed; set aside", w.unit(), name, "tries", a.Tries, "next", a.Next, "err", failure)
	w.aside[name] = a
	w.count(nil)
	raw, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return log.SetCheckpoint(ctx, tenderbase.Checkpoint{Source: w.Job.source, Partition: asidePrefix + name, Value: string(raw), At: now})
}

// mended forgets a partition set aside that has now completed.
func (w *Walk) mended(ctx context.Context, name string) error {
	if err := w.load(ctx); err != nil {
		return err
	}
	if _, ok := w.aside[name]; !ok {
		return nil
	}
	w.Job.Logger().Info(w.unit()+" set aside is mended", w.unit(), name)
	delete(w.aside, name)
	w.count(nil)
	return w.Job.runner.Log.DeleteCheckpoint(ctx, w.Job.source, asidePrefix+name)
}

// count tells the job how many partitions are set aside, and the last one
// set aside; givenUp, when not nil, is one just given up.
func (w *Walk) count(givenUp *Aside) {
	var last *Aside
	for _, a := range w.aside {
		if last == nil || a.Last.After(last.Last) || (a.Last.Equal(last.Last) && a.Partition > last.Partition) {
			last = a
		}
	}
	j := w.Job
	j.mu.Lock()
	j.state.SetAside = int64(len(w.aside))
	j.run.SetAside = len(w.aside)
	j.state.LastSetAside, j.run.LastSetAside, j.run.LastSetAsideError = "", "", ""
	if last != nil {
		j.state.LastSetAside = last.Partition + ": " + last.Error
		j.run.LastSetAside, j.run.LastSetAsideError = last.Partition, last.Error
	}
	if givenUp != nil {
		j.state.GivenUp++
		j.state.LastGivenUp = fmt.Sprintf("%s (set aside %s, %d tries): %s", givenUp.Partition, givenUp.Since.Format(time.RFC3339), givenUp.Tries, givenUp.Error)
	}
	j.mu.Unlock()
	j.report()
}

func sortedKeys(m map[string]*Aside) []string { return slices.Sorted(maps.Keys(m)) }
