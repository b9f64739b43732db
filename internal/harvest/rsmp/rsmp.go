// Package rsmp fetches the SME register (единый реестр субъектов малого и
// среднего предпринимательства) from the open data of the Federal Tax
// Service, which needs no key. The data set 7707329152-rsmp has a passport
// (https://www.nalog.gov.ru/opendata/7707329152-rsmp/, and the same in
// machine-readable form, meta.csv beside it) that lists the releases of
// the register: a zip archive of XML files each month, data-10072026-
// structure-12052026.zip for the state of 10 July 2026, on file.nalog.ru.
//
// Each release is the whole register as of its date, so a run downloads
// one archive only: the newest release listed (up to the scope's end),
// when it is newer than the last one loaded. The checkpoint "loaded" holds
// the file name of that last one; a release older or the same is never
// asked for again, and a newer one listed while an older one was never
// loaded supersedes it. The archive is downloaded whole into the spool
// (some 2 GB), checked to be a whole ZIP archive, and read in place by the
// importer, member by member, as `tenderbase import` reads it
// (internal/source/rsmp); only then is the checkpoint recorded. A run
// killed in the middle downloads the archive again, and the store takes
// the subjects it had stored as unchanged. The data is current to the
// release's date.
//
// The scope's days and regions do not narrow a release: it is one file of
// every region. Until bounds the release taken (a release after it is not).
package rsmp

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// DefaultPassport is the address of the data set's passport page.
const DefaultPassport = "https://www.nalog.gov.ru/opendata/7707329152-rsmp/"

// DefaultFileHosts are the hosts, beside the passport's, that releases may
// be downloaded from: the tax service's file store.
var DefaultFileHosts = []string{"file.nalog.ru"}

// DefaultMaxRelease bounds the download of one release: 2.1 GB in 2026,
// some 10 MB more each month; this holds it eight times over.
const DefaultMaxRelease = 16 << 30

// DefaultMaxUnpacked bounds what one release unpacks to. A release of 2026
// is 2.1 GB packed, and the published samples unpack 10 to 13 times their
// size: some 27 GB, which this holds twice over.
const DefaultMaxUnpacked = 64 << 30

// DefaultFetch is how the source fetches unless told otherwise: one
// request at a time, a minute for the passport, three attempts.
var DefaultFetch = fetch.Config{
	Rate: 1, Burst: 1, Concurrency: 1, Timeout: time.Minute, Attempts: 3,
	MinBackoff: 30 * time.Second, MaxBackoff: 10 * time.Minute, BreakAfter: 3, BreakFor: time.Hour,
}

// DefaultDownloadTimeout is how long one attempt at downloading a release
// may take: some 2 GB, at 2 Mbit/s. A download cut short is fetched again
// from its start.
const DefaultDownloadTimeout = 3 * time.Hour

// Config configures the source. Its zero value fetches the tax service.
type Config struct {
	Passport    string       // DefaultPassport when empty
	FileHosts   []string     // DefaultFileHosts when nil
	MaxRelease  int64        // DefaultMaxRelease when 0
	MaxUnpacked int64        // DefaultMaxUnpacked when 0
	Fetch       fetch.Config // DefaultFetch when zero
	// DownloadTimeout bounds an attempt at a release, in place of
	// Fetch.Timeout; DefaultDownloadTimeout when 0.
	DownloadTimeout time.Duration
	Transport       http.RoundTripper
}

// Source is the SME register as a sync source.
type Source struct {
	cfg    Config
	client *fetch.Client // the passport
	files  *fetch.Client // the releases
}

// New returns the source; logger nil discards.
func New(cfg Config, logger *slog.Logger) *Source {
	if cfg.Passport == "" {
		cfg.Passport = DefaultPassport
	}
	if cfg.FileHosts == nil {
		cfg.FileHosts = DefaultFileHosts
	}
	if cfg.MaxRelease == 0 {
		cfg.MaxRelease = DefaultMaxRelease
	}
	if cfg.MaxUnpacked == 0 {
		cfg.MaxUnpacked = DefaultMaxUnpacked
	}
	if cfg.Fetch == (fetch.Config{}) {
		cfg.Fetch = DefaultFetch
	}
	if cfg.DownloadTimeout == 0 {
		cfg.DownloadTimeout = DefaultDownloadTimeout
	}
	files := cfg.Fetch
	files.Timeout = cfg.DownloadTimeout
	return &Source{cfg: cfg,
		client: fetch.New("rsmp", cfg.Fetch, cfg.Transport, logger),
		files:  fetch.New("rsmp", files, cfg.Transport, logger)}
}

// Name returns "rsmp".
func (s *Source) Name() string { return "rsmp" }

// About says what the source fetches, and when its data is stale. The register is released once a month, on the 10th: a release may be a month and a fortnight old before the next is late.
func (s *Source) About() harvest.About {
	return harvest.About{Fetches: "FNS SME register (RSMP), a release a month", StaleAfter: 45 * 24 * time.Hour,
		Kinds: []tenderbase.Kind{tenderbase.KindOrg}}
}

// Stats returns what the source's clients did.
func (s *Source) Stats() fetch.Stats {
	p, f := s.client.Stats(), s.files.Stats()
	return fetch.Stats{Requests: p.Requests + f.Requests, Retries: p.Retries + f.Retries,
		Failures: p.Failures + f.Failures, Bytes: p.Bytes + f.Bytes}
}

// loaded is the partition that holds the file name of the last release
// loaded.
const loaded = "loaded"

// Sync loads the newest release of the register, unless it was loaded.
func (s *Source) Sync(ctx context.Context, job *harvest.Job) error {
	passport, err := harvest.ParseAddress("SME register passport", s.cfg.Passport)
	if err != nil {
		return err
	}
	if len(job.Regions) > 0 {
		job.Logger().Info("the SME register is fetched whole: a release is one archive of every region")
	}
	releases, err := s.releases(ctx, passport)
	if err != nil {
		return err
	}
	last, err := s.lastLoaded(ctx, job)
	if err != nil {
		return err
	}
	next, ok := newest(releases, job.Until)
	job.Plan(1)
	switch {
	case !ok:
		job.Logger().Info("the passport lists no release up to the scope's end", "until", job.Until.Format(time.DateOnly))
		job.Skip()
		return nil
	case !last.IsZero() && !next.date.After(last):
		job.Logger().Info("no release newer than the one loaded", "loaded", last.Format(time.DateOnly), "newest", next.file)
		job.Skip()
		return job.Through(ctx, last)
	}
	if skipped := superseded(releases, next, last); skipped > 0 {
		job.Logger().Info("older releases not loaded: each is the whole register, and the newest supersedes them", "releases", skipped)
	}
	if err := s.load(ctx, job, passport, next); err != nil {
		return fmt.Errorf("%s: %w", next.file, err)
	}
	return nil
}

// releases returns the releases the passport lists, oldest first: from
// meta.csv, or from the page when meta.csv is not there.
func (s *Source) releases(ctx context.Context, passport *url.URL) ([]archive, error) {
	meta := passport.JoinPath("meta.csv")
	var found []archive
	_, err := s.client.Fetch(ctx, fetch.Request{URL: meta.String(), Check: func(body io.ReaderAt, size int64) error {
		var err error
		found, err = readMeta(meta, readAll(body, size))
		return err
	}})
	var refused *fetch.StatusError
	if errors.As(err, &refused) && refused.Status == http.StatusNotFound {
		_, err = s.client.Fetch(ctx, fetch.Request{URL: passport.String(), Check: func(body io.ReaderAt, size int64) error {
			var err error
			found, err = readPage(passport, readAll(body, size))
			return err
		}})
	}
	if err != nil {
		return nil, fmt.Errorf("the passport: %w", err)
	}
	return found, nil
}

func readAll(body io.ReaderAt, size int64) []byte {
	b, _ := io.ReadAll(io.NewSectionReader(body, 0, size))
	return b
}

// lastLoaded returns the date of the last release loaded, or zero.
func (s *Source) lastLoaded(ctx context.Context, job *harvest.Job) (time.Time, error) {
	done, file, err := job.Done(ctx, loaded)
	if err != nil || !done {
		return time.Time{}, err
	}
	a, ok := parseArchive(&url.URL{}, file)
	if !ok {
		return time.Time{}, fmt.Errorf("the checkpoint %q names no release", file)
	}
	return a.date, nil
}

// newest returns the newest release dated before until.
func newest(releases []archive, until time.Time) (archive, bool) {
	for _, a := range slices.Backward(releases) {
		if a.date.Before(until) {
			return a, true
		}
	}
	return archive{}, false
}

// superseded counts the releases between last and next, which are not
// loaded.
func superseded(releases []archive, next archive, last time.Time) int {
	n := 0
	for _, a := range releases {
		if a.date.Before(next.date) && a.date.After(last) {
			n++
		}
	}
	return n
}

// load downloads a release, imports it and records it loaded.
func (s *Source) load(ctx context.Context, job *harvest.Job, passport *url.URL, a archive) error {
	if !s.allowed(passport, a.url) {
		return fmt.Errorf("%s is not on %s or a file host of the tax service", a.url.Redacted(), passport.Host)
	}
	job.Logger().Info("downloading a release of the register", "file", a.file)
	file, _, err := s.files.Download(ctx, fetch.Request{URL: a.url.String(), Check: isZip, MaxBytes: s.cfg.MaxRelease, RefuseTypes: []string{"text/html"}}, job.Spool())
	if err != nil {
		return err
	}
	if _, err := job.ImportArchive(ctx, file, a.file, s.cfg.MaxUnpacked); err != nil {
		return err
	}
	if err := job.Complete(ctx, loaded, a.file); err != nil {
		return err
	}
	return job.Through(ctx, a.date)
}

// allowed reports whether a release may be downloaded from u: the
// passport's host or a file host, over http(s).
func (s *Source) allowed(passport, u *url.URL) bool {
	return (u.Scheme == "https" || u.Scheme == "http") &&
		(u.Host == passport.Host || slices.Contains(s.cfg.FileHosts, u.Hostname()))
}

// isZip checks that a download is a whole ZIP archive with members: its
// central directory, at the end, is read, and nothing is unpacked. A body
// cut short or garbled is asked for again.
func isZip(body io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(body, size)
	if err != nil {
		return fmt.Errorf("not a whole ZIP archive: %w", err)
	}
	if len(zr.File) == 0 {
		return errors.New("an empty ZIP archive")
	}
	return nil
}
