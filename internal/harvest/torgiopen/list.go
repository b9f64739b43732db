package torgiopen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// errNotPublished is the answer for a day whose list is not published yet.
var errNotPublished = errors.New("not published yet")

// listObject is an entry of a daily list (structure-20240401.json).
type listObject struct {
	DocumentType string `json:"documentType"`
	RegNum       string `json:"regNum"`
	PublishDate  string `json:"publishDate"`
	Href         string `json:"href"`
}

// file returns the name the publisher gives the document:
// notice_<regNum>_<uuid>.json.
func (o listObject) file() string {
	u, err := url.Parse(o.Href)
	if err != nil {
		return ""
	}
	return path.Base(u.Path)
}

// partition is the document's partition in the sync log:
// "notice/<regNum>/<uuid>", the uuid being the version's.
func (o listObject) partition() string {
	version := strings.TrimSuffix(o.file(), ".json")
	version = strings.TrimPrefix(version, o.DocumentType+"_"+o.RegNum+"_")
	return o.DocumentType + "/" + o.RegNum + "/" + version
}

func (o listObject) published() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, o.PublishDate)
	return t
}

// day imports the notices of a day not completed, and completes it once
// it has ended.
func (r *run) day(ctx context.Context, d day) error {
	if done, err := r.job.SkipDone(ctx, d.name()); err != nil || done {
		return err
	}
	objects, body, err := r.list(ctx, d)
	if err != nil {
		return err
	}
	if err := r.events(ctx, d, objects, body); err != nil {
		return err
	}
	notices := r.notices(d, objects)
	if err := harvest.EachDocument(ctx, notices, "notices", func(o listObject) error { return r.notice(ctx, d, o) }); err != nil {
		return err
	}
	if !d.ended(r.now) {
		// Its list grows until the day ends: the next run asks again.
		r.job.Skip()
		return nil
	}
	return r.job.Complete(ctx, d.name(), fmt.Sprintf("%d notices", len(notices)))
}

// notices returns the notices of a day's list in the order they were
// published, and logs what else the list names.
func (r *run) notices(d day, objects []listObject) []listObject {
	var notices []listObject
	others := map[string]int{}
	for _, o := range objects {
		if o.DocumentType == "notice" {
			notices = append(notices, o)
		} else {
			others[o.DocumentType]++
		}
	}
	slices.SortStableFunc(notices, func(a, b listObject) int { return a.published().Compare(b.published()) })
	r.plan(len(notices))
	args := []any{"day", d.name(), "notices", len(notices)}
	for _, t := range slices.Sorted(maps.Keys(others)) {
		args = append(args, t, others[t])
	}
	r.job.Logger().Info("daily list read; its notices are downloaded, its cancellations, stops and resumptions read from the list", args...)
	return notices
}

// list fetches and reads the list of a day. A list cut off or garbled is
// asked for again.
func (r *run) list(ctx context.Context, d day) ([]listObject, []byte, error) {
	var objects []listObject
	body, err := r.client.Fetch(ctx, fetch.Request{
		URL: r.dataSet.JoinPath(d.listFile(r.cfg.Structure)).String(),
		Check: func(body io.ReaderAt, size int64) error {
			var err error
			objects, err = readList(io.NewSectionReader(body, 0, size))
			return err
		},
	})
	var refused *fetch.StatusError
	if errors.As(err, &refused) && refused.Status == http.StatusNotFound && !d.due(r.now) {
		return nil, nil, errNotPublished
	}
	if err != nil {
		return nil, nil, fmt.Errorf("daily list: %w", err)
	}
	return objects, body, nil
}

// readList reads a daily list: {"listObjects": [...]}.
func readList(r io.Reader) ([]listObject, error) {
	var list struct {
		ListObjects *[]listObject `json:"listObjects"`
	}
	if err := json.NewDecoder(r).Decode(&list); err != nil {
		return nil, fmt.Errorf("not a whole JSON list: %w", err)
	}
	if list.ListObjects == nil {
		return nil, errors.New("a JSON document without listObjects")
	}
	return *list.ListObjects, nil
}

// notice downloads and imports one notice, unless it was completed, and
// completes it. A notice the importer rejects is completed too: fetching
// it again would not mend it.
func (r *run) notice(ctx context.Context, d day, o listObject) error {
	if done, err := r.job.SkipDone(ctx, o.partition()); err != nil || done {
		return err
	}
	href, err := r.documentURL(o.Href)
	if err != nil {
		return fmt.Errorf("%w %s: %w", harvest.ErrDocument, o.RegNum, err)
	}
	file, _, err := r.client.Download(ctx, fetch.Request{URL: href, Check: isObject}, r.job.Spool())
	if err != nil {
		return fmt.Errorf("%w %s: %w", harvest.ErrDocument, o.file(), err)
	}
	if _, err := r.job.Import(ctx, file, o.file()); err != nil {
		return err
	}
	return r.job.Complete(ctx, o.partition(), d.name())
}

// isObject checks that a download starts as a JSON object does, as every
// document does.
var isObject = harvest.StartsWith('{', "a JSON document")

// documentURL returns the address an href names, which must be on the
// host of the data set: the lists are the publisher's data, and a sync
// asks no other host for anything.
func (r *run) documentURL(href string) (string, error) {
	u, err := r.dataSet.Parse(href)
	if err != nil {
		return "", fmt.Errorf("href %q does not parse", href)
	}
	if u.Host != r.dataSet.Host || (u.Scheme != "https" && u.Scheme != "http") {
		return "", fmt.Errorf("href %q is not on %s", href, r.dataSet.Host)
	}
	return u.String(), nil
}
