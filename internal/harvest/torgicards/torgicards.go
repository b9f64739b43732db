// Package torgicards fetches the lot cards of torgi.gov.ru (ГИС Торги) from
// its public search, which needs no key: GET /new/api/public/lotcards/search
// with sort=firstVersionPublicationDate,desc gives Spring Data pages
// ({"content": [...], "totalPages", "last", ...}) of ten cards, newest
// first. Each page is saved to the spool and handed to the importer as it
// is (internal/source/torgi reads search pages).
//
// A run walks the search from page 0 and stops at the first card already
// seen: one whose noticeFirstVersionPublicationDate is before the cursor's,
// or the cursor's card itself. The cursor is the newest card (its date and
// id, "2026-04-22T10:15:00.123Z 23000042610000000031_3") met at the start
// of the last complete walk, kept as the value of the checkpoint "cursor".
// When the scope names regions, each is a search of its own, filtered with
// dynSubjRF, with a cursor of its own, "cursor/77". A walk with no cursor
// (the first) stops at the first card published before the scope's Since.
// A walk also ends at the last page (last, or no card) and at page 999, the
// last the search gives (page 1000 answers 200 with an empty body, and
// totalElements stops at 10 000): the cards further back down to the
// cursor cannot be reached, which is logged.
//
// The cursor is written only when a walk ends without error, with the card
// met first. A walk that failed or was killed leaves the cursor where it
// was: the next one starts from the newest card again and goes down to the
// old cursor, and the cards it imports again the store takes as unchanged.
// Through is the start of the last walk completed (of every region's).
//
// A page counts as received when it parses as a search page with a content
// array: an answer cut short, an HTML page, an empty body are asked for
// again (fetch.Request.Check), as are 503s and timeouts (internal/fetch).
// Cards of the same moment (the lots of one notice) may come in any order;
// only the cursor's own card, or an older one, stops the walk, so none of
// them is lost. A card inserted at the top while a walk runs pushes the
// others down a page, which is then read again; a card removed from the
// search while a walk runs could let the next one slip past unread.
//
// torgi.gov.ru ignores a dynSubjRF it does not know and then answers every
// region: a card of another region on a region's page fails that region
// rather than filing the country under one region.
//
// What the walk does not do: it refreshes only the cards newer than the
// cursor. A card met again (at the cursor's moment, or after a failed walk)
// gets its current state; a public client (agufranov/yakubovich) re-fetches
// such a card only when (lotStatus, priceMin/priceFin, biddEndTime,
// isAnnulled) changed, which the store does in effect by keeping a version
// only when a field changed. The later states of older lots (SUCCEED,
// FAILED, CANCELED) come with the walk of the open data (torgiopen) or not
// at all. The search page lacks what only the detail (/lotcards/{id}) has:
// priceStep and lotAttachments; the cards are not fetched one by one.
// Nor is pubFrom sent: the walk stops by the cards' own dates, and the date
// (which one, in which zone) pubFrom filters on is not documented.
package torgicards

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// DefaultBaseURL is the address of torgi.gov.ru's public API.
const DefaultBaseURL = "https://torgi.gov.ru/new/api/public"

// MaxPages is how many pages the search gives: 0 to 999.
const MaxPages = 1000

// DefaultFetch is how politely the source fetches unless told otherwise:
// one request a second, one at a time. Clients that torgi.gov.ru did not
// turn away with 503 kept to two a second, and the open-data source
// (torgiopen) asks the same host for two.
var DefaultFetch = fetch.Config{
	Rate: 1, Burst: 1, Concurrency: 1, Timeout: time.Minute, Attempts: 5,
	MinBackoff: 2 * time.Second, MaxBackoff: time.Minute, BreakAfter: 5, BreakFor: 5 * time.Minute,
}

// Config configures the source. Its zero value fetches torgi.gov.ru.
type Config struct {
	BaseURL   string       // DefaultBaseURL when empty
	Fetch     fetch.Config // DefaultFetch when zero
	Transport http.RoundTripper
	// MaxPages is how many pages the search gives; MaxPages when 0.
	MaxPages int
}

// Source is the lot-card search of torgi.gov.ru as a sync source.
type Source struct {
	cfg    Config
	client *fetch.Client
}

// New returns the source; logger nil discards.
func New(cfg Config, logger *slog.Logger) *Source {
	cfg.BaseURL = strings.TrimRight(cmp.Or(cfg.BaseURL, DefaultBaseURL), "/")
	if cfg.Fetch == (fetch.Config{}) {
		cfg.Fetch = DefaultFetch
	}
	if cfg.MaxPages <= 0 {
		cfg.MaxPages = MaxPages
	}
	return &Source{cfg: cfg, client: fetch.New("torgi-cards", cfg.Fetch, cfg.Transport, logger)}
}

// Name returns "torgi-cards".
func (s *Source) Name() string { return "torgi-cards" }

// About says what the source fetches, and when its data is stale. Lots are published every day.
func (s *Source) About() harvest.About {
	return harvest.About{Fetches: "torgi.gov.ru lot cards from its public search", StaleAfter: 2 * 24 * time.Hour,
		Kinds: []tenderbase.Kind{tenderbase.KindLot}}
}

// Stats returns what the source's client did.
func (s *Source) Stats() fetch.Stats { return s.client.Stats() }

// Sync walks the search newest first down to the cards already seen, once
// for every region or once for each region the scope names. A region that
// fails is left for the next run and the walk goes on with the next; a
// publisher that fails every request stops it.
func (s *Source) Sync(ctx context.Context, job *harvest.Job) error {
	if _, err := harvest.ParseAddress("torgi.gov.ru API", s.cfg.BaseURL); err != nil {
		return err
	}
	searches := searchesOf(job.Scope)
	job.Plan(len(searches))
	start := job.Now()
	walk := harvest.Walk{Job: job, Unit: "walk", Stops: func(err error) bool { return errors.Is(err, fetch.ErrBroken) }}
	for i, sr := range searches {
		var through time.Time
		if i == len(searches)-1 {
			// Once every search completed, the cards are current to the
			// start of the walk.
			through = start
		}
		if err := walk.Step(ctx, sr.String(), s.walk(ctx, job, sr), through); err != nil {
			return err
		}
	}
	return walk.Err(len(searches))
}

// search is the search of one region, or of every one (region 0).
type search struct{ region int }

// searchesOf returns the searches a scope asks for.
func searchesOf(scope harvest.Scope) []search {
	if len(scope.Regions) == 0 {
		return []search{{}}
	}
	var ss []search
	for _, r := range scope.Regions {
		ss = append(ss, search{r})
	}
	return ss
}

// String names the search in the log and errors: "all regions", "region 77".
func (sr search) String() string {
	if sr.region == 0 {
		return "all regions"
	}
	return fmt.Sprintf("region %d", sr.region)
}

// partition is the checkpoint holding the search's cursor: "cursor", or
// "cursor/77" for a region's.
func (sr search) partition() string {
	if sr.region == 0 {
		return "cursor"
	}
	return fmt.Sprintf("cursor/%d", sr.region)
}

// walk reads the pages of a search down to its bound and, once it ended
// without error, moves the cursor to the card it met first.
func (s *Source) walk(ctx context.Context, job *harvest.Job, sr search) error {
	b, err := s.bound(ctx, job, sr)
	if err != nil {
		return err
	}
	var newest, oldest mark // the cards met first and last
	for n := 0; ; n++ {
		if n == s.cfg.MaxPages {
			job.Logger().Warn("the search gives no more pages: the cards between the last one reached and the bound are not",
				"search", sr.String(), "pages", n, "reached", oldest.String(), "bound", b.String())
			break
		}
		p, err := s.page(ctx, job, sr, n)
		if err != nil {
			return err
		}
		if len(p.cards) > 0 {
			if newest.id == "" {
				newest = p.cards[0].mark()
			}
			oldest = p.cards[len(p.cards)-1].mark()
		}
		if p.end(n) || b.reached(p.cards) {
			break
		}
	}
	if newest.id == "" || (b.cursor != nil && newest.at.Before(b.cursor.at)) {
		// Nothing newer than the cursor: it stays.
		job.Skip()
		return nil
	}
	return job.Complete(ctx, sr.partition(), newest.String())
}

// bound returns where a walk of sr stops: at its cursor, or at the scope's
// Since when it has none.
func (s *Source) bound(ctx context.Context, job *harvest.Job, sr search) (bound, error) {
	done, value, err := job.Done(ctx, sr.partition())
	if err != nil || !done {
		return bound{since: job.Since}, err
	}
	m, err := parseMark(value)
	if err != nil {
		job.Logger().Warn("a cursor that does not parse; walking as on a first run", "search", sr.String(), "err", err)
		return bound{since: job.Since}, nil
	}
	return bound{cursor: &m}, nil
}
