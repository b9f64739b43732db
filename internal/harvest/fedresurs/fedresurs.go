// Package fedresurs fetches the bankruptcy trade messages of the EFRSB
// (fedresurs) from its REST service, which the operator opens under a
// contract: POST /v1/auth with the login and password gives a JWT, sent
// as "Authorization: Bearer"; GET /v1/messages (the arbitration managers'
// messages) and /v1/trade-messages (the trading platforms') give pages
// {"total", "pageData": [{"guid", "number", "datePublish", "type",
// "content"}]} of the messages published in a period of at most 31 days.
//
// A partition is one list's messages of one Moscow day of publication,
// "messages/2026-11-20": asked from that midnight to the next (should the
// service take both ends, a message of exactly midnight comes twice, and
// changes nothing the second time), of the types the importer reads
// (DefaultFeeds), with their content, oldest first, 500 a page (the
// service's most), until the offset reaches the total. Each page is saved
// to the spool and imported as it is: the importer (internal/source/efrsb)
// reads the service's page format. A day is completed once every page of
// it was imported; one stopped in the middle is fetched whole again, and
// what it stored again changes nothing. Today is fetched from midnight to
// now on every run and never completed; Through is the end of the last day
// completed. A day that ended is taken to get no more messages, the
// service dating a message when it publishes it; nothing published says
// otherwise.
//
// The token is read for its expiry (exp, without checking the signature)
// and replaced before it; a token refused (401) is replaced once and the
// request sent again. A login refused, or a fresh token refused, stops the
// run with ErrLogin. Any other refusal (400 with the service's code) stops
// it too: every request has the same shape, so the next would be refused
// alike. The login, the password and the token are never logged.
//
// The content of a trade-messages item is taken to be the platform's
// BiddingInvitation as the importer reads it; no sample of one was found.
// One that is not is rejected and counted in the status, as any message
// the importer cannot read.
//
// The operator publishes no rate limit that could be found; the source
// asks at most 8 requests a second, one at a time: that figure is this
// project's choice, not a published one. docs/sync.md says where each
// detail of the service comes from.
package fedresurs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// Addresses of the service: production, and the operator's demo.
const (
	DefaultBaseURL = "https://bank-publications-prod.fedresurs.ru"
	DemoBaseURL    = "https://bank-publications-demo.fedresurs.ru"
)

// MaxPageSize is the most messages the service gives a page (error 1009).
const MaxPageSize = 500

// rate is the requests a second asked unless Config.Fetch says otherwise:
// the project's choice; no published limit was found.
const rate = 8

// Config configures the source.
type Config struct {
	BaseURL string // DefaultBaseURL when empty
	// Login and Password are the account the operator gives under the
	// contract. They are sent to the service and never logged.
	Login, Password string
	// Feeds are the lists and types fetched; DefaultFeeds when empty.
	Feeds []Feed
	// PageSize is the messages a request asks for: MaxPageSize when 0 or
	// above it.
	PageSize int
	// Fetch is how politely the client fetches; a zero Rate is 8 a second
	// and a zero Concurrency one request at a time.
	Fetch     fetch.Config
	Transport http.RoundTripper // nil for the default
}

// Source is the fedresurs REST service as a sync source.
type Source struct {
	cfg     Config
	client  *fetch.Client
	session *session
	logger  *slog.Logger
}

// New returns the source; logger nil discards.
func New(cfg Config, logger *slog.Logger) *Source {
	cfg.BaseURL = strings.TrimRight(cmp.Or(cfg.BaseURL, DefaultBaseURL), "/")
	if len(cfg.Feeds) == 0 {
		cfg.Feeds = DefaultFeeds
	}
	if cfg.PageSize <= 0 || cfg.PageSize > MaxPageSize {
		cfg.PageSize = MaxPageSize
	}
	if cfg.Fetch.Rate <= 0 {
		cfg.Fetch.Rate = rate
	}
	if cfg.Fetch.Concurrency <= 0 {
		cfg.Fetch.Concurrency = 1
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	client := fetch.New("fedresurs", cfg.Fetch, cfg.Transport, logger)
	logger = logger.With("source", "fedresurs")
	return &Source{cfg: cfg, client: client, logger: logger, session: &session{
		client: client, url: cfg.BaseURL + "/v1/auth", login: cfg.Login, password: cfg.Password,
		logger: logger, now: time.Now,
	}}
}

// Name returns "fedresurs".
func (s *Source) Name() string { return "fedresurs" }

// About says what the source fetches, and when its data is stale. Messages are published every day.
func (s *Source) About() harvest.About {
	return harvest.About{Fetches: "EFRSB bankruptcy auction messages", StaleAfter: 2 * 24 * time.Hour,
		Kinds: []tenderbase.Kind{tenderbase.KindLot}}
}

// Stats returns what the source's client did.
func (s *Source) Stats() fetch.Stats { return s.client.Stats() }

// Sync tries again the partitions set aside whose time has come, then
// walks the scope's days, oldest first, and in each every feed, fetching
// the partitions not completed yet. A partition that fails is set aside
// and the walk goes on; a failed login, a refused
// request, or a service that fails every request stops it.
func (s *Source) Sync(ctx context.Context, job *harvest.Job) error {
	if s.cfg.Login == "" || s.cfg.Password == "" {
		return fmt.Errorf("%w: no login or password given (set TENDERBASE_FEDRESURS_LOGIN and TENDERBASE_FEDRESURS_PASSWORD)", ErrLogin)
	}
	parts := partitions(s.cfg.Feeds, job.Since, job.Until)
	job.Plan(len(parts))
	walk := harvest.Walk{Job: job, Stops: stops, SetAside: true}
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.name()
	}
	err := walk.Redo(ctx, names, func(ctx context.Context, name string) (bool, error) {
		p, ok := parsePartition(s.cfg.Feeds, name, job.Until)
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
		if p.whole && (i+1 == len(parts) || !parts[i+1].begin.Equal(p.begin)) {
			// The last feed of a day that ended: once it and every one
			// before it completed, the data is current up to its end.
			through = p.end
		}
		if err := walk.Step(ctx, p.name(), s.partition(ctx, job, p), through); err != nil {
			return err
		}
	}
	return walk.Err(len(parts))
}

// stops reports whether err stops the walk: no request would succeed.
func stops(err error) bool {
	var r *refusal
	return errors.Is(err, ErrLogin) || errors.Is(err, errNoLogin) || errors.Is(err, fetch.ErrBroken) || errors.As(err, &r)
}

// partition fetches one partition, unless it was completed, and completes
// it if its day ended. Today's counts as done for the run's progress,
// without a checkpoint.
func (s *Source) partition(ctx context.Context, job *harvest.Job, p partition) error {
	if p.whole {
		if done, err := job.SkipDone(ctx, p.name()); err != nil || done {
			return err
		}
	}
	if err := s.fetch(ctx, job, p); err != nil {
		return err
	}
	if !p.whole {
		job.Skip()
		return nil
	}
	return job.Complete(ctx, p.name(), "")
}

// fetch downloads and imports the pages of p, from offset 0 until the
// offset reaches the total.
func (s *Source) fetch(ctx context.Context, job *harvest.Job, p partition) error {
	for offset := 0; ; {
		pg, err := s.page(ctx, job.Spool(), p, offset)
		if err != nil {
			return err
		}
		if pg.count == 0 {
			os.Remove(pg.path)
			if offset < pg.total {
				// Completing the day would lose the rest of it.
				return fmt.Errorf("the service gave no messages from %d of %d", offset, pg.total)
			}
			return nil
		}
		name := fmt.Sprintf("fedresurs-%s-%s-%d.json", p.feed.Name, p.begin.Format(time.DateOnly), offset)
		if _, err := job.Import(ctx, pg.path, name); err != nil {
			return err
		}
		offset += pg.count
		if offset >= pg.total {
			return nil
		}
	}
}
