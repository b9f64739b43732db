// Package eisdocs fetches 44-FZ and 223-FZ documents from the EIS document
// service for individuals (getDocsIP), which replaced the FTP in 2025: a
// SOAP request per region, type of document and day (or hour, for today)
// names the ZIP archives to download, with the same token in an HTTP
// header. docs/sync.md says where each detail of the service comes from.
package eisdocs

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// DefaultEndpoint is the service's address in its published WSDL. Older
// clients use int44.zakupki.gov.ru, which answers too.
const DefaultEndpoint = "https://int.zakupki.gov.ru/eis-integration/services/getDocsIP"

// Config configures the source.
type Config struct {
	Endpoint string
	// Token is the individual's token from the EIS personal account. It is
	// sent to the service and never logged.
	Token string
	// Types are the kinds of documents to fetch; DefaultTypes when empty.
	Types []Type
	// Purchases, when given, are fetched by registry number instead of the
	// walk by region and day: one purchase's documents, now.
	Purchases []string
	Fetch     fetch.Config
	Transport http.RoundTripper // nil for the default
	// Limits are the importer's bounds, which the check of a downloaded
	// archive keeps to: a member the import will not read is not unpacked
	// to check it either.
	Limits importer.Limits
	// BlockedWait is how long to wait when the EIS answers that it blocked
	// the downloads of an archive for now; DefaultBlockedWait when 0.
	BlockedWait time.Duration

	// wait waits d or until ctx is done; a timer unless a test sets it.
	wait func(ctx context.Context, d time.Duration) error
}

// DefaultBlockedWait is how long a download the EIS blocked is waited for:
// ten minutes and ten seconds, as a public client waits
// (neonix20b/ox-tender-abstract, block_wait_time 610: "10 min + 10 s").
const DefaultBlockedWait = 10*time.Minute + 10*time.Second

// blockedTries is how many times a blocked download is waited for before
// its partition fails, set aside for later runs.
const blockedTries = 3

// archiveTimeout is the default time one attempt of a request may take.
const archiveTimeout = 10 * time.Minute

// Source is the EIS document service as a sync source.
type Source struct {
	cfg    Config
	client *fetch.Client
	logger *slog.Logger
}

// New returns the source; logger nil discards.
func New(cfg Config, logger *slog.Logger) *Source {
	if cfg.Endpoint == "" {
		cfg.Endpoint = DefaultEndpoint
	}
	if len(cfg.Types) == 0 {
		cfg.Types = DefaultTypes
	}
	if cfg.BlockedWait <= 0 {
		cfg.BlockedWait = DefaultBlockedWait
	}
	if cfg.wait == nil {
		cfg.wait = sleep
	}
	if cfg.Fetch.MaxBytes <= 0 {
		cfg.Fetch.MaxBytes = fetch.DefaultMaxBytes
	}
	if cfg.Fetch.Timeout == 0 {
		// An attempt lasts to an archive's last byte, and a day's archive
		// of a large region may pass the 100 MB a public client takes.
		cfg.Fetch.Timeout = archiveTimeout
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Source{cfg: cfg, client: fetch.New("eis", cfg.Fetch, cfg.Transport, logger), logger: logger}
}

// Name returns "eis".
func (s *Source) Name() string { return "eis" }

// About says what the source fetches, and when its data is stale. Notices are published every day; a day is fetched whole once it ended, today by the hour.
func (s *Source) About() harvest.About {
	return harvest.About{Fetches: "EIS 44-FZ and 223-FZ notices, protocols, contracts, complaints, RNP", StaleAfter: 2 * 24 * time.Hour,
		Kinds: []tenderbase.Kind{tenderbase.KindTender, tenderbase.KindProtocol, tenderbase.KindContract, tenderbase.KindComplaint, tenderbase.KindUnfairSupplier}}
}

// Stats returns what the source's client did.
func (s *Source) Stats() fetch.Stats { return s.client.Stats() }

// ErrToken is returned, wrapped, when the service refuses the token: no
// request will succeed until it is mended.
var ErrToken = errors.New("the EIS refused the token")

// tokenRefused is the errorInfo code of a token the service does not know
// ("Токены для сервисов отдачи отсутствуют в ЕИС").
const tokenRefused = 5

// Sync tries again the partitions set aside whose time has come, then
// walks the scope's days, oldest first, and in each every region and type,
// fetching the partitions not completed yet. A partition that fails is set
// aside and the walk goes on; a refused token, or a service that fails
// every request, stops it.
func (s *Source) Sync(ctx context.Context, job *harvest.Job) error {
	if s.cfg.Token == "" {
		return fmt.Errorf("%w: no token given (set TENDERBASE_EIS_TOKEN or --eis-token-file)", ErrToken)
	}
	if len(s.cfg.Purchases) > 0 {
		return s.purchases(ctx, job)
	}
	parts := s.partitions(job)
	job.Plan(len(parts))
	walk := harvest.Walk{Job: job, SetAside: true, Stops: func(err error) bool {
		return errors.Is(err, ErrToken) || errors.Is(err, fetch.ErrBroken)
	}}
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.name()
	}
	err := walk.Redo(ctx, names, func(ctx context.Context, name string) (bool, error) {
		p, ok := s.parsePartition(name, job.Scope)
		if !ok {
			return false, nil
		}
		return true, s.partition(ctx, job, p)
	})
	if err != nil {
		return err
	}
	for i, p := range parts {
		var through time.Time
		if i+1 == len(parts) || !parts[i+1].end().Equal(p.end()) {
			// The last partition of a day or hour: once it and every
			// one before it completed, the data is current up to its end.
			through = p.end()
		}
		if err := walk.Step(ctx, p.name(), s.partition(ctx, job, p), through); err != nil {
			return err
		}
	}
	return walk.Err(len(parts))
}

// partition fetches one partition, unless it was completed, and completes it.
func (s *Source) partition(ctx context.Context, job *harvest.Job, p partition) error {
	if done, err := job.SkipDone(ctx, p.name()); err != nil || done {
		return err
	}
	if err := s.fetch(ctx, job, p.docRequest); err != nil {
		return err
	}
	return job.Complete(ctx, p.name(), "")
}

// purchases fetches the documents of each purchase asked for, in every
// subsystem that holds a purchase's documents, each time anew.
func (s *Source) purchases(ctx context.Context, job *harvest.Job) error {
	var failed []error
	for _, number := range s.cfg.Purchases {
		for _, sub := range []string{"PRIZ", "RGK"} {
			q := docRequest{subsystem: sub, number: number, hour: -1}
			if strings.HasPrefix(number, "3") && len(number) == 11 {
				q.subsystem = map[string]string{"PRIZ": "RI223", "RGK": "RD223"}[sub]
			}
			if err := s.fetch(ctx, job, q); err != nil {
				if errors.Is(err, ErrToken) || ctx.Err() != nil {
					return err
				}
				failed = append(failed, fmt.Errorf("%s %s: %w", number, q.subsystem, err))
			}
		}
	}
	return errors.Join(failed...)
}

// fetch asks the service for the archives of q and imports each.
func (s *Source) fetch(ctx context.Context, job *harvest.Job, q docRequest) error {
	a, err := s.ask(ctx, q, job.Now())
	if err != nil {
		return err
	}
	for _, url := range a.archives {
		if err := s.archive(ctx, job, url); err != nil {
			return err
		}
	}
	return nil
}

// ask sends one request and reads its answer.
func (s *Source) ask(ctx context.Context, q docRequest, now time.Time) (answer, error) {
	var a answer
	_, err := s.client.Fetch(ctx, fetch.Request{
		Method: http.MethodPost,
		URL:    s.cfg.Endpoint,
		Header: http.Header{"Content-Type": {"text/xml; charset=utf-8"}, "Soapaction": {`"http://zakupki.gov.ru/fz44/queue/ws/get-docs-ip"`}},
		Body:   envelope(q, s.cfg.Token, now),
		// An answer cut off or garbled is asked for again.
		Check: func(body io.ReaderAt, size int64) error {
			b := make([]byte, size)
			if _, err := body.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			var err error
			a, err = parseAnswer(b)
			return err
		},
	})
	if err != nil {
		return a, err
	}
	switch {
	case a.errCode == tokenRefused:
		return a, fmt.Errorf("%w (error %d: %s)", ErrToken, a.errCode, a.errText)
	case a.errCode != 0:
		return a, fmt.Errorf("the EIS answered error %d: %s", a.errCode, a.errText)
	}
	return a, nil
}

// archive downloads one archive, with the token in its header, and
// imports it. An archive being prepared answers 404 or 425 for a while; one
// whose downloads the EIS blocked for now is waited for, as long as the
// service asks.
func (s *Source) archive(ctx context.Context, job *harvest.Job, url string) error {
	for tries := 1; ; tries++ {
		path, name, err := s.download(ctx, job, url)
		var refused *fetch.StatusError
		switch {
		case errors.Is(err, errBlocked) && tries < blockedTries:
			job.Throttled()
			job.Logger().Warn("the EIS blocked the download for now; waiting", "wait", s.cfg.BlockedWait, "try", tries)
			if err := s.cfg.wait(ctx, s.cfg.BlockedWait); err != nil {
				return err
			}
			continue
		case errors.Is(err, errBlocked):
			job.Throttled()
			return fmt.Errorf("archive: %w, %d times in a row", err, tries)
		case errors.As(err, &refused) && (refused.Status == http.StatusUnauthorized || refused.Status == http.StatusForbidden):
			return fmt.Errorf("%w: %w", ErrToken, err)
		case err != nil:
			return fmt.Errorf("archive: %w", err)
		}
		_, err = job.Import(ctx, path, name)
		return err
	}
}

// download downloads one archive and returns the path of the ZIP it is or
// holds (one wrapped in gzip is unwrapped), and its name.
func (s *Source) download(ctx context.Context, job *harvest.Job, url string) (path, name string, err error) {
	var unwrapped string // the ZIP a gzip body held, from the last attempt
	drop := func() {
		if unwrapped != "" {
			os.Remove(unwrapped)
			unwrapped = ""
		}
	}
	path, name, err = s.client.Download(ctx, fetch.Request{
		URL:      url,
		Header:   http.Header{"individualPerson_token": {s.cfg.Token}},
		NotReady: []int{http.StatusNotFound},
		Check: func(r io.ReaderAt, size int64) error {
			drop()
			var err error
			unwrapped, err = s.checkDownload(r, size, job.Spool())
			return err
		},
	}, job.Spool())
	if err != nil {
		drop()
		return "", "", err
	}
	if unwrapped != "" {
		os.Remove(path)
		path, name = unwrapped, strings.TrimSuffix(name, ".gz")
	}
	return path, name, nil
}

// blockedPhrase is what the EIS answers, with a 200, in place of an
// archive whose downloads it blocked for now: "downloading the archive by
// this link is blocked". A public client looks for it in the body
// (neonix20b/ox-tender-abstract, archive_processor.rb).
const blockedPhrase = "Скачивание архива по данной ссылке заблокировано"

// errBlocked is the error of a download the EIS blocked for now.
var errBlocked = errors.New("the EIS blocked the downloads of the archive for now (" + blockedPhrase + ")")

// gzipMagic starts a gzip stream (RFC 1952); a public client of the EIS
// unwraps such a body before reading the ZIP inside
// (neonix20b/ox-tender-abstract, archive_processor.rb).
var gzipMagic = []byte{0x1f, 0x8b}

// checkDownload checks a download: a ZIP, a ZIP wrapped in gzip (which it
// unwraps into a file in dir, whose path it returns), or the EIS's answer
// that the download is blocked. Anything else fails as a corrupt archive,
// to be fetched again.
func (s *Source) checkDownload(r io.ReaderAt, size int64, dir string) (string, error) {
	// The answer of a blocked download is a short text or page, read whole.
	head := make([]byte, min(size, 64<<10))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		return s.gunzip(io.NewSectionReader(r, 0, size), dir)
	case !bytes.HasPrefix(head, []byte("PK")) && size <= int64(len(head)) && bytes.Contains(head, []byte(blockedPhrase)):
		return "", fetch.Final(errBlocked)
	}
	return "", checkArchive(r, size, s.cfg.Limits)
}

// gunzip unwraps a gzip body into a file in dir, at most the download's
// bound, and checks the ZIP it holds.
func (s *Source) gunzip(body io.Reader, dir string) (path string, err error) {
	zr, err := gzip.NewReader(body)
	if err != nil {
		return "", fmt.Errorf("not a whole gzip stream: %w", err)
	}
	f, err := os.CreateTemp(dir, "gunzip-*.zip")
	if err != nil {
		return "", err
	}
	defer func() {
		f.Close()
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	limit := s.cfg.Fetch.MaxBytes
	n, err := io.Copy(f, io.LimitReader(zr, limit+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("not a whole gzip stream: %w", err)
	case n > limit:
		err := fmt.Errorf("the archive inside gzip has more than the %d bytes taken", limit)
		if setting := s.cfg.Fetch.MaxBytesSetting; setting != "" {
			err = fmt.Errorf("%w (%s)", err, setting)
		}
		return "", fetch.Final(err)
	}
	if err := checkArchive(f, n, s.cfg.Limits); err != nil {
		return "", fmt.Errorf("inside gzip: %w", err)
	}
	return f.Name(), nil
}

// sleep waits d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// checkArchive checks that a download is a whole ZIP archive: its
// directory reads and the checksum of every member within limits matches.
// A cut or corrupted download fails, to be fetched again; a member past the
// limits is left for the import to refuse, with the bound it passes.
func checkArchive(r io.ReaderAt, size int64, limits importer.Limits) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return fmt.Errorf("not a whole ZIP archive: %w", err)
	}
	for _, m := range limits.Unpackable(zr.File) {
		rc, err := m.Open()
		if err != nil {
			return fmt.Errorf("archive member %s: %w", m.Name, err)
		}
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("archive member %s: %w", m.Name, err)
		}
	}
	return nil
}
