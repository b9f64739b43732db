package ted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// fields are the fields a search asks of each notice: its number, the day
// it was published (checked against the day asked for) and its links.
var fields = []string{"publication-number", "publication-date", "links"}

// searchRequest is the body of POST /v3/notices/search, as the API's
// documentation names its members.
type searchRequest struct {
	Query              string   `json:"query"`
	Fields             []string `json:"fields"`
	Limit              int      `json:"limit"`
	Scope              string   `json:"scope"`
	CheckQuerySyntax   bool     `json:"checkQuerySyntax"`
	PaginationMode     string   `json:"paginationMode"`
	IterationNextToken string   `json:"iterationNextToken,omitempty"`
}

// searchAnswer is the answer of a search.
type searchAnswer struct {
	Notices            *[]notice `json:"notices"`
	TotalNoticeCount   *int      `json:"totalNoticeCount"`
	IterationNextToken string    `json:"iterationNextToken"`
	TimedOut           bool      `json:"timedOut"`
}

// notice is a notice as a search answers it: fields keep the shape of
// TED's data, and links name the XML of the notice as published, under
// the language code "MUL" (every language: one XML).
type notice struct {
	PublicationNumber string `json:"publication-number"`
	PublicationDate   string `json:"publication-date"`
	Links             struct {
		XML map[string]string `json:"xml"`
	} `json:"links"`
}

// partition is the notice's partition in the sync log.
func (n notice) partition() string { return "notice/" + n.PublicationNumber }

// file is the name the notice's XML is imported under.
func (n notice) file() string { return n.PublicationNumber + ".xml" }

// day imports the notices of a day not completed, and completes it once
// it has settled.
func (r *run) day(ctx context.Context, d day) error {
	if done, err := r.job.SkipDone(ctx, d.name()); err != nil || done {
		return err
	}
	notices, err := r.list(ctx, d)
	if err != nil {
		return err
	}
	r.plan(len(notices))
	r.job.Logger().Info("day searched", "day", d.name(), "notices", len(notices))
	if err := harvest.EachDocument(ctx, notices, "notices", func(n notice) error { return r.notice(ctx, d, n) }); err != nil {
		return err
	}
	if !d.settled(r.now) {
		// Notices may still come into the day: the next run asks again.
		r.job.Skip()
		return nil
	}
	return r.job.Complete(ctx, d.name(), fmt.Sprintf("%d notices", len(notices)))
}

// list returns the notices published on a day, page after page. It
// stops at the first page that is empty or has no token, or once the
// total the first page announced has come; a walk of more pages than
// the total needs is an error, so that a token that never ends is not
// followed for ever.
func (r *run) list(ctx context.Context, d day) ([]notice, error) {
	var all []notice
	seen := map[string]bool{}
	token, total := "", -1
	for page := 1; ; page++ {
		a, err := r.page(ctx, d, token)
		if err != nil {
			return nil, fmt.Errorf("search of page %d: %w", page, err)
		}
		if total < 0 {
			total = *a.TotalNoticeCount
		}
		for _, n := range *a.Notices {
			if n.PublicationNumber == "" || seen[n.PublicationNumber] {
				return nil, fmt.Errorf("search of page %d: a notice without a publication-number, or one already listed (%q)", page, n.PublicationNumber)
			}
			if !strings.HasPrefix(n.PublicationDate, d.name()) {
				return nil, fmt.Errorf("search of page %d: notice %s was published on %q, not %s", page, n.PublicationNumber, n.PublicationDate, d.name())
			}
			seen[n.PublicationNumber] = true
			all = append(all, n)
		}
		switch {
		case len(*a.Notices) == 0 || a.IterationNextToken == "" || len(all) >= total:
			return all, nil
		case a.IterationNextToken == token || page > total/r.cfg.PageSize+1:
			return nil, fmt.Errorf("search of page %d: the pages go on past the %d notices announced", page, total)
		}
		token = a.IterationNextToken
	}
}

// page asks for one page of a day's search. An answer cut off, garbled or
// timed out is asked for again.
func (r *run) page(ctx context.Context, d day, token string) (searchAnswer, error) {
	body, err := json.Marshal(searchRequest{
		Query: d.query(), Fields: fields, Limit: r.cfg.PageSize, Scope: "ALL",
		PaginationMode: "ITERATION", IterationNextToken: token,
	})
	if err != nil {
		return searchAnswer{}, err
	}
	var a searchAnswer
	_, err = r.client.Fetch(ctx, fetch.Request{
		Method: http.MethodPost, URL: r.search.String(), Body: body,
		Header: http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}},
		Check: func(b io.ReaderAt, size int64) error {
			var err error
			a, err = readAnswer(io.NewSectionReader(b, 0, size))
			return err
		},
	})
	return a, err
}

// readAnswer reads a search's answer, which must have its notices and
// their total.
func readAnswer(r io.Reader) (searchAnswer, error) {
	var a searchAnswer
	if err := json.NewDecoder(r).Decode(&a); err != nil {
		return a, fmt.Errorf("not a whole JSON answer of the search: %w", err)
	}
	switch {
	case a.TimedOut:
		return a, errors.New("the search timed out (timedOut: true)")
	case a.Notices == nil || a.TotalNoticeCount == nil:
		return a, errors.New("an answer of the search without notices or totalNoticeCount")
	}
	return a, nil
}

// notice downloads and imports one notice, unless it was completed, and
// completes it. A notice the importer rejects is completed too: fetching
// it again would not mend it.
func (r *run) notice(ctx context.Context, d day, n notice) error {
	if done, err := r.job.SkipDone(ctx, n.partition()); err != nil || done {
		return err
	}
	href := n.Links.XML["MUL"]
	if href == "" {
		return fmt.Errorf("%w %s: the search gave no link to its XML", harvest.ErrDocument, n.PublicationNumber)
	}
	href, err := r.noticeURL(href)
	if err != nil {
		return fmt.Errorf("%w %s: %w", harvest.ErrDocument, n.PublicationNumber, err)
	}
	file, _, err := r.client.Download(ctx, fetch.Request{URL: href, Check: isXML, RefuseTypes: []string{"text/html"}}, r.job.Spool())
	if err != nil {
		return fmt.Errorf("%w %s: %w", harvest.ErrDocument, n.PublicationNumber, err)
	}
	if _, err := r.job.Import(ctx, file, n.file()); err != nil {
		return err
	}
	return r.job.Complete(ctx, n.partition(), d.name())
}

// isXML checks that a download starts as an XML document does.
var isXML = harvest.StartsWith('<', "an XML document")
