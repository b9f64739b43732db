package fedresurs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase/internal/fetch"
)

// page is a page of messages downloaded to the spool.
type page struct {
	path  string
	total int // messages of the period, over every page
	count int // messages on this page
}

// refusal is the service's answer 400: {"code", "message"}. The codes
// (NovikovRoman/efrsb errors.go): 1000 a parameter missing, 1001 an
// unknown code, 1002 a wrong value, 1009 limit over 500, 1010 a period
// over 31 days; 2000-2002 the account not found, expired or blocked.
type refusal struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (r *refusal) Error() string {
	return fmt.Sprintf("fedresurs answered error %d: %s", r.Code, r.Message)
}

// readRefusal reads the error a 400 carries; the StatusError holds the
// start of the body only, so the code is looked for when the JSON is cut.
func readRefusal(e *fetch.StatusError) *refusal {
	var r refusal
	if json.Unmarshal([]byte(e.Body), &r) == nil && r.Code != 0 {
		return &r
	}
	if m := codeIn.FindStringSubmatch(e.Body); m != nil {
		r.Code, _ = strconv.Atoi(m[1])
	}
	r.Message = e.Body
	return &r
}

var codeIn = regexp.MustCompile(`"code"\s*:\s*(\d+)`)

// errTokenRefused stops a run whose fresh token was refused too.
var errTokenRefused = fmt.Errorf("%w: it refused a token it had just issued", ErrLogin)

// page downloads the page of p from offset. A token the service refuses
// (401: expired, or revoked) is replaced once; a second refusal is
// ErrLogin.
func (s *Source) page(ctx context.Context, dir string, p partition, offset int) (page, error) {
	for retried := false; ; retried = true {
		jwt, err := s.session.token(ctx)
		if err != nil {
			return page{}, err
		}
		pg, err := s.download(ctx, dir, p, offset, jwt)
		var refused *fetch.StatusError
		switch {
		case !errors.As(err, &refused):
			return pg, err
		case refused.Status == http.StatusUnauthorized && !retried:
			s.logger.Info("token refused; logging in again")
			s.session.drop(jwt)
		case refused.Status == http.StatusUnauthorized:
			return page{}, errTokenRefused
		case refused.Status == http.StatusBadRequest:
			return page{}, readRefusal(refused)
		default:
			return page{}, err
		}
	}
}

// download sends one request for a page and writes its body to dir. A body
// that is not a whole page ({"total", "pageData": [...]}) is fetched again.
func (s *Source) download(ctx context.Context, dir string, p partition, offset int, jwt string) (page, error) {
	var pg page
	path, _, err := s.client.Download(ctx, fetch.Request{
		URL:    s.pageURL(p, offset),
		Header: http.Header{"Authorization": {"Bearer " + jwt}, "Accept": {"application/json"}},
		Check: func(r io.ReaderAt, size int64) error {
			var err error
			pg.total, pg.count, err = readPage(io.NewSectionReader(r, 0, size))
			return err
		},
	}, dir)
	pg.path = path
	return pg, err
}

// pageURL is the address of the page of p from offset: the period in
// Moscow time without a zone, the feed's types, the content of each
// message (the importer reads nothing else), the oldest first so that
// messages published while a day is paged through come last.
func (s *Source) pageURL(p partition, offset int) string {
	q := url.Values{
		"datePublishBegin": {p.begin.In(moscow).Format(timeLayout)},
		"datePublishEnd":   {p.end.In(moscow).Format(timeLayout)},
		"offset":           {strconv.Itoa(offset)},
		"limit":            {strconv.Itoa(s.cfg.PageSize)},
		"includeContent":   {"true"},
		"sort":             {"asc"},
	}
	if len(p.feed.Types) > 0 {
		q.Set("type", strings.Join(p.feed.Types, ","))
	}
	return s.cfg.BaseURL + "/v1/" + p.feed.Name + "?" + q.Encode()
}

// readPage reads the counts of a page, failing unless it is whole JSON.
func readPage(r io.Reader) (total, count int, err error) {
	var p struct {
		Total    *int              `json:"total"`
		PageData []json.RawMessage `json:"pageData"`
	}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&p); err != nil {
		return 0, 0, fmt.Errorf("the page is not whole JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return 0, 0, errors.New("the page has more after its JSON")
	}
	if p.Total == nil {
		return 0, 0, errors.New("the page has no total")
	}
	return *p.Total, len(p.PageData), nil
}
