package httpserver_test

import (
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestFeedPages reads the feed of fas over GET /api2.3/feed page by page,
// as an integration polls, and checks every page against the document,
// every change once and the errors a poller can make.
func TestFeedPages(t *testing.T) {
	ts := newDemoServer(t)
	doc := openAPIDocument(t, ts)
	op := []string{"paths", "/api2.3/feed", "get", "responses"}
	getFeed := func(query string) (int, []byte) {
		t.Helper()
		resp, err := ts.Client().Get(ts.URL + "/api2.3/feed?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		rs := schemaAt(t, doc, append(op, strconv.Itoa(resp.StatusCode), "content", "application/json", "schema")...)
		validate(t, rs, query, body)
		return resp.StatusCode, body
	}

	type change struct{ Type, Kind, Key string }
	type page struct {
		Changes    []change
		NextCursor string `json:"next_cursor"`
		More       bool
	}
	var whole page
	_, body := getFeed("resource=fas&limit=1000&api_code=paid")
	decode(t, body, &whole)
	if whole.More || len(whole.Changes) < 10 {
		t.Fatalf("the whole feed of fas in one page: %d changes, more %v", len(whole.Changes), whole.More)
	}
	var paged []change
	cursor := ""
	for {
		q := "resource=fas&limit=7&api_code=paid"
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		status, body := getFeed(q)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", q, status, body)
		}
		var p page
		decode(t, body, &p)
		if len(p.Changes) > 7 || p.NextCursor == "" {
			t.Fatalf("%s: %d changes, next cursor %q", q, len(p.Changes), p.NextCursor)
		}
		paged = append(paged, p.Changes...)
		cursor = p.NextCursor
		if !p.More {
			break
		}
	}
	if !slices.Equal(whole.Changes, paged) {
		t.Errorf("the feed in pages of 7 is not the feed in one page:\n%v\n%v", paged, whole.Changes)
	}
	// Polled again, the end gives nothing new.
	var end page
	_, body = getFeed("resource=fas&cursor=" + url.QueryEscape(cursor))
	if decode(t, body, &end); len(end.Changes) != 0 || end.More || end.NextCursor != cursor {
		t.Errorf("the end of the feed polled again: %s", body)
	}

	ru, _ := getFeed("resource=ru&limit=1")
	if ru != http.StatusOK {
		t.Errorf("the feed of ru without a key: %d", ru)
	}
	for query, want := range map[string]int{
		"resource=ships":                http.StatusBadRequest,
		"":                              http.StatusBadRequest,
		"resource=fas&limit=5000":       http.StatusBadRequest,
		"resource=fas&limit=x":          http.StatusBadRequest,
		"resource=fas&cursor=nonsense":  http.StatusBadRequest,
		"resource=fas&page=2":           http.StatusBadRequest,
		"resource=fas&resource=ru":      http.StatusBadRequest,
		"resource=fas&api_code=nobody":  http.StatusUnauthorized,
		"resource=fas&api_code=limited": http.StatusTooManyRequests,
		"resource=ru&cursor=" + tenderbase.FeedCursor("fas", 1): http.StatusBadRequest,
	} {
		if status, body := getFeed(query); status != want {
			t.Errorf("%q: %d %s, want %d", query, status, body, want)
		}
	}
}
