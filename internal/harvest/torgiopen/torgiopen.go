// Package torgiopen fetches the notices of torgi.gov.ru (ГИС Торги) from its
// open data, which needs no key. The data set 7710568760-notice publishes,
// for each day, a list of the documents published that day (listObjects,
// each with its documentType, regNum and href) and each document as a JSON
// file of its own. The walk asks for the list of each day of the scope,
// oldest first, downloads the notices it names, in the order they were
// published, and hands each to the importer (internal/source/torgi). The
// other documents of the lists are not downloaded: the entries for
// noticeCancel, noticeStop, noticeResumption and noticeAnnulment are read
// from the list itself, which is handed to the importer for them (lot
// events), and clarifications are counted and logged (docs/torgi.md).
//
// A day is a day in UTC: the list named data-20260422T0000-20260423T0000
// holds the documents published from 2026-04-22T00:00Z to 23:59Z, as the
// published sample of that day shows. A scope takes every day that
// overlaps it, so that a Moscow day takes the end of the UTC day before.
//
// Every notice document is a partition, "notice/<regNum>/<uuid>", completed
// once it was imported. The uuid of an href is new for each version of a
// document, so a version met again is known, and a run that stopped in the
// middle of a day goes on from the first notice it had not completed: none
// is lost, none imported twice, but for the one a killed run had imported
// and not yet recorded, which the store takes again as unchanged. A day is
// a partition too, "2026-04-22", completed once the day has ended and every
// notice of its list was imported; its list is not asked for again. A day
// that has not ended is asked for on each run, for its new notices only.
//
// A list answers 404 until it is published. A 404 for a day that ended
// less than a day ago (publishLag) ends the walk without error: the data
// is current to the day before. Later, a 404 is a failure of that day, left for the
// next run, as is a list that does not parse after every attempt; the walk
// goes on with the next day.
//
// The lists carry no region of the lots, only the subjectEstateCode of a
// notice; the source fetches every region and ignores the scope's.
package torgiopen

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// DefaultDataSet is the address of the notice data set, the folder of its
// daily lists (https://torgi.gov.ru/new/opendata/list.json names it).
const DefaultDataSet = "https://torgi.gov.ru/new/opendata/7710568760-notice"

// DefaultStructure is the version of the list structure that the names of
// the daily lists end with (structure-20240401.json, "Версия 3.1").
const DefaultStructure = "20240401"

// DefaultFetch is how politely the source fetches unless told otherwise:
// two requests a second, one at a time, as clients that torgi.gov.ru did
// not turn away with 503 kept to.
var DefaultFetch = fetch.Config{
	Rate: 2, Burst: 1, Concurrency: 1, Timeout: time.Minute, Attempts: 5,
	MinBackoff: 2 * time.Second, MaxBackoff: time.Minute, BreakAfter: 5, BreakFor: 5 * time.Minute,
}

// Config configures the source. Its zero value fetches torgi.gov.ru.
type Config struct {
	DataSet   string       // DefaultDataSet when empty
	Structure string       // DefaultStructure when empty
	Fetch     fetch.Config // DefaultFetch when zero
	Transport http.RoundTripper
}

// Source is the open data of torgi.gov.ru as a sync source.
type Source struct {
	cfg    Config
	client *fetch.Client
}

// New returns the source; logger nil discards.
func New(cfg Config, logger *slog.Logger) *Source {
	if cfg.DataSet == "" {
		cfg.DataSet = DefaultDataSet
	}
	if cfg.Structure == "" {
		cfg.Structure = DefaultStructure
	}
	if cfg.Fetch == (fetch.Config{}) {
		cfg.Fetch = DefaultFetch
	}
	return &Source{cfg: cfg, client: fetch.New("torgi", cfg.Fetch, cfg.Transport, logger)}
}

// Name returns "torgi".
func (s *Source) Name() string { return "torgi" }

// About says what the source fetches, and when its data is stale. The open data lists the notices of each day.
func (s *Source) About() harvest.About {
	return harvest.About{Fetches: "torgi.gov.ru notices from the open data, with cancellations", StaleAfter: 2 * 24 * time.Hour,
		Kinds: []tenderbase.Kind{tenderbase.KindLot}}
}

// Stats returns what the source's client did.
func (s *Source) Stats() fetch.Stats { return s.client.Stats() }

// Sync walks the scope's days, oldest first, and imports the notices of
// those not completed, after the days set aside whose time has come. A day
// that fails is set aside and the walk goes on; a day not published yet ends it, and a publisher that fails
// every request stops it.
func (s *Source) Sync(ctx context.Context, job *harvest.Job) error {
	dataSet, err := harvest.ParseAddress("torgi.gov.ru data set", s.cfg.DataSet)
	if err != nil {
		return err
	}
	if len(job.Regions) > 0 {
		job.Logger().Info("torgi.gov.ru is fetched for every region: its daily lists are not split by region")
	}
	days := walk(job.Scope)
	r := &run{Source: s, job: job, dataSet: dataSet, now: job.Now()}
	r.plan(len(days))
	walk := harvest.Walk{Job: job, Unit: "day", SetAside: true, Stops: func(err error) bool { return errors.Is(err, fetch.ErrBroken) }}
	names := make([]string, len(days))
	for i, d := range days {
		names[i] = d.name()
	}
	err = walk.Redo(ctx, names, func(ctx context.Context, name string) (bool, error) {
		d, err := time.Parse(time.DateOnly, name)
		if err != nil || !(day{d}).ended(r.now) {
			return false, nil
		}
		return true, r.day(ctx, day{d})
	})
	if err != nil {
		return err
	}
	for _, d := range days {
		err := r.day(ctx, d)
		if errors.Is(err, errNotPublished) {
			job.Logger().Info("the list of a day is not published yet", "day", d.name())
			break
		}
		var through time.Time
		if d.ended(r.now) {
			// Once it and every day before it completed, the data is
			// current to the end of this one.
			through = d.end()
		}
		if err := walk.Step(ctx, d.name(), err, through); err != nil {
			return err
		}
	}
	return walk.Err(len(days))
}

// run is one run of the walk.
type run struct {
	*Source
	job     *harvest.Job
	dataSet *url.URL
	now     time.Time
	planned int // partitions, as the lists tell them
}

// plan adds n partitions to the run's progress.
func (r *run) plan(n int) {
	r.planned += n
	r.job.Plan(r.planned)
}
