// Package ted fetches the notices TED (Tenders Electronic Daily, the
// Supplement to the Official Journal of the EU) publishes, from its Search
// API v3, which needs no key (docs.ted.europa.eu/api, "TED Search API").
// For each day of the scope, oldest first, the walk asks
// POST /v3/notices/search for the notices published that day (an expert
// query on publication-date), in iteration mode, a page of at most 250 at
// a time, and downloads each notice's XML as published (links.xml.MUL):
// eForms for notices since November 2022, TED XML (R2.0.9, R2.0.8) before.
// Each XML is handed to the importer as an import of a file is, which
// detects its format by its content (internal/source/eforms,
// internal/source/ted).
//
// A day is a day in UTC, as the publication-date of the query is a date.
// Every notice is a partition, "notice/<publication-number>", completed
// once it was imported: a run that stopped in the middle of a day goes on
// from the first notice it had not completed. A day is a partition too,
// "2026-04-22", completed once it has settled (settle after its end) and
// every notice it lists was imported; it is not asked for again, and the
// data is current to its end. A day that has not settled is asked for on
// each run, for its new notices only. The OJ S appears from Monday to
// Friday: the other days answer no notice, and are completed empty.
//
// Config.Start is the first day the source fetches: a source that never
// completed a day begins there, and no day before it is asked for.
//
// TED's notices are not split by Russian region; the scope's regions are
// ignored.
package ted

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// DefaultSearch is the address of the notice search of TED's API v3.
const DefaultSearch = "https://api.ted.europa.eu/v3/notices/search"

// MaxPage is the most notices a search answers at once, as TED documents
// ("Maximum number of notices per page: 250").
const MaxPage = 250

// DefaultFetch is how politely the source fetches unless told otherwise:
// two requests a second, one at a time (TED publishes no rate; a 429 is
// waited out as its Retry-After asks), and answers of at most 16 MiB: a
// page of 250 notices with three fields is a few hundred KiB.
var DefaultFetch = fetch.Config{
	Rate: 2, Burst: 1, Concurrency: 1, Timeout: time.Minute, Attempts: 5,
	MinBackoff: 2 * time.Second, MaxBackoff: time.Minute, BreakAfter: 5, BreakFor: 5 * time.Minute,
	MaxBytes: 16 << 20,
}

// Config configures the source. Its zero value fetches TED from yesterday.
type Config struct {
	Search string // DefaultSearch when empty
	// Start, when not zero, is the first day fetched: the first run begins
	// there, and no run asks for a day before it.
	Start     time.Time
	PageSize  int          // notices a search page asks for; MaxPage when 0
	Fetch     fetch.Config // DefaultFetch when zero
	Transport http.RoundTripper
}

// Source is TED's Search API as a sync source.
type Source struct {
	cfg    Config
	client *fetch.Client
}

// New returns the source; logger nil discards.
func New(cfg Config, logger *slog.Logger) *Source {
	if cfg.Search == "" {
		cfg.Search = DefaultSearch
	}
	if cfg.PageSize <= 0 || cfg.PageSize > MaxPage {
		cfg.PageSize = MaxPage
	}
	if cfg.Fetch == (fetch.Config{}) {
		cfg.Fetch = DefaultFetch
	}
	return &Source{cfg: cfg, client: fetch.New("ted", cfg.Fetch, cfg.Transport, logger)}
}

// Name returns "ted".
func (s *Source) Name() string { return "ted" }

// About says what the source fetches, and when its data is stale. The OJ S appears from Monday to Friday and a day is completed once it settled: a weekend and a settling day are no staleness.
func (s *Source) About() harvest.About {
	return harvest.About{Fetches: "TED notices of the EU and beyond (eForms, TED XML)", StaleAfter: 4 * 24 * time.Hour,
		Kinds: []tenderbase.Kind{tenderbase.KindWorldTender}}
}

// Stats returns what the source's client did.
func (s *Source) Stats() fetch.Stats { return s.client.Stats() }

// Sync walks the days of the scope, oldest first, and imports the notices
// of those not completed. A day that fails is left for the next run and
// the walk goes on; a publisher that fails every request stops it.
func (s *Source) Sync(ctx context.Context, job *harvest.Job) error {
	search, err := harvest.ParseAddress("TED search", s.cfg.Search)
	if err != nil {
		return err
	}
	if len(job.Regions) > 0 {
		job.Logger().Info("TED is fetched whole: its notices are not split by Russian region")
	}
	days := walk(s.since(job), job.Until)
	r := &run{Source: s, job: job, search: search, now: job.Now()}
	r.plan(len(days))
	w := harvest.Walk{Job: job, Unit: "day", Stops: func(err error) bool { return errors.Is(err, fetch.ErrBroken) }}
	for _, d := range days {
		err := r.day(ctx, d)
		var through time.Time
		if d.settled(r.now) {
			through = d.end()
		}
		if err := w.Step(ctx, d.name(), err, through); err != nil {
			return err
		}
	}
	return w.Err(len(days))
}

// since returns the first day of the walk: the scope's, but never before
// Start, and Start itself while the source never completed a day.
func (s *Source) since(job *harvest.Job) time.Time {
	start := s.cfg.Start
	switch {
	case start.IsZero():
		return job.Since
	case job.CurrentTo().IsZero() || job.Since.Before(start):
		return start
	}
	return job.Since
}

// run is one run of the walk.
type run struct {
	*Source
	job     *harvest.Job
	search  *url.URL
	now     time.Time
	planned int
}

// plan adds n partitions to the run's progress.
func (r *run) plan(n int) {
	r.planned += n
	r.job.Plan(r.planned)
}

// noticeURL returns the address of a notice's XML, which must be on the
// search's host or the site it serves (api.ted.europa.eu serves
// ted.europa.eu): the answers are the publisher's data, and a sync asks no
// other host for anything.
func (r *run) noticeURL(href string) (string, error) {
	u, err := r.search.Parse(href)
	if err != nil {
		return "", fmt.Errorf("link %q does not parse", href)
	}
	site := r.search.Hostname()
	if _, parent, ok := strings.Cut(site, "."); ok && strings.Contains(parent, ".") {
		site = parent
	}
	if (u.Scheme != "https" && u.Scheme != "http") || (u.Host != r.search.Host && u.Hostname() != site) {
		return "", fmt.Errorf("link %q is not on %s", href, site)
	}
	return u.String(), nil
}
