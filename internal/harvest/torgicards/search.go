package torgicards

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// pageSize is the most cards the search gives a page: it clamps a larger
// size to 10 (pageable.pageSize says so).
const pageSize = 10

// page is a page of the search, as far as the walk reads it.
type page struct {
	cards      []cardRef
	totalPages int
	last       bool
}

// cardRef is what the walk reads of a card; the importer reads the rest.
type cardRef struct {
	ID             string `json:"id"`
	FirstPublished string `json:"noticeFirstVersionPublicationDate"`
	CreateDate     string `json:"createDate"`
	SubjectRFCode  string `json:"subjectRFCode"`
}

// published returns when the card's notice was first published: the
// moment the search sorts by. The importer dates a card without it by its
// createDate, and so does the walk.
func (c cardRef) published() time.Time {
	for _, s := range []string{c.FirstPublished, c.CreateDate} {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

func (c cardRef) mark() mark { return mark{at: c.published(), id: c.ID} }

// end reports whether page number n is the search's last.
func (p page) end(n int) bool { return p.last || len(p.cards) == 0 || n+1 >= p.totalPages }

// page downloads page n of sr, checks it, and imports it.
func (s *Source) page(ctx context.Context, job *harvest.Job, sr search, n int) (page, error) {
	var p page
	file, _, err := s.client.Download(ctx, fetch.Request{
		URL: s.searchURL(sr, n),
		Check: func(body io.ReaderAt, size int64) error {
			var err error
			p, err = readPage(io.NewSectionReader(body, 0, size))
			return err
		},
	}, job.Spool())
	if err != nil {
		return page{}, fmt.Errorf("page %d: %w", n, err)
	}
	if err := sr.check(p); err != nil {
		os.Remove(file)
		return page{}, fmt.Errorf("page %d: %w", n, err)
	}
	if len(p.cards) == 0 {
		os.Remove(file)
		return p, nil
	}
	name := fmt.Sprintf("lotcards-search-%s-%d.json", strings.ReplaceAll(sr.partition(), "/", "-"), n)
	if _, err := job.Import(ctx, file, name); err != nil {
		return page{}, err
	}
	return p, nil
}

// searchURL returns the address of page n of sr, its parameters in the
// order torgi.gov.ru's own form sends them.
func (s *Source) searchURL(sr search, n int) string {
	u := fmt.Sprintf("%s/lotcards/search?sort=firstVersionPublicationDate,desc&page=%d&size=%d", s.cfg.BaseURL, n, pageSize)
	if sr.region != 0 {
		u += fmt.Sprintf("&dynSubjRF=%02d", sr.region)
	}
	return u
}

// readPage reads a search page. One cut short, or any other answer (an
// HTML page, an empty body), is an error, for the page to be asked again.
func readPage(r io.Reader) (page, error) {
	var doc struct {
		Content    *[]cardRef `json:"content"`
		TotalPages int        `json:"totalPages"`
		Last       bool       `json:"last"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return page{}, fmt.Errorf("not a whole search page: %w", err)
	}
	if doc.Content == nil {
		return page{}, errors.New("a JSON document without a content array")
	}
	return page{cards: *doc.Content, totalPages: doc.TotalPages, last: doc.Last}, nil
}

// check fails a region's page holding a card of another region: the
// search ignored dynSubjRF, as it does for a value it does not know.
func (sr search) check(p page) error {
	if sr.region == 0 {
		return nil
	}
	for _, c := range p.cards {
		if code, err := strconv.Atoi(c.SubjectRFCode); err == nil && code != sr.region {
			return fmt.Errorf("torgi.gov.ru ignored dynSubjRF=%02d: card %s is of region %s", sr.region, c.ID, c.SubjectRFCode)
		}
	}
	return nil
}

// mark is a card's place in the search: its date and id.
type mark struct {
	at time.Time
	id string
}

// String returns the mark as a checkpoint keeps it:
// "2026-04-22T10:15:00.123Z 23000042610000000031_3"; "" for no card.
func (m mark) String() string {
	if m.id == "" {
		return ""
	}
	return m.at.UTC().Format(time.RFC3339Nano) + " " + m.id
}

// parseMark reads what String wrote.
func parseMark(s string) (mark, error) {
	at, id, ok := strings.Cut(s, " ")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil || id == "" {
		return mark{}, fmt.Errorf("cursor %q: want a date and a card's id", s)
	}
	return mark{at: t, id: id}, nil
}

// bound is where a walk stops: at a cursor, or, without one, at Since.
type bound struct {
	cursor *mark
	since  time.Time
}

// reached reports whether cards, of one page, hold a card already seen:
// the cursor's card, or one published before it (or before since). A card
// of the cursor's moment with another id is not: the search gives the
// cards of one moment in no known order.
func (b bound) reached(cards []cardRef) bool {
	for _, c := range cards {
		at := c.published()
		switch {
		case at.IsZero():
			// Undated, it says nothing of where the walk is.
		case b.cursor != nil && (c.ID == b.cursor.id || at.Before(b.cursor.at)):
			return true
		case b.cursor == nil && at.Before(b.since):
			return true
		}
	}
	return false
}

// String says where the bound is, for the log.
func (b bound) String() string {
	if b.cursor != nil {
		return b.cursor.String()
	}
	return "published since " + b.since.UTC().Format(time.RFC3339)
}
