package httpserver_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// stalledStore is a store whose searches and reads never end by
// themselves: each waits until its context is done and then fails as a
// driver would, with an error that does not say why. A call whose context
// has no deadline, or one further away than limit, would wait for the
// client to give up: it fails at once instead, with an error that says so.
type stalledStore struct {
	tenderbase.Store // the other methods are not used; calling one panics
	limit            time.Duration
}

var errInterrupted = errors.New("sqlite: interrupted (9)")

func (s stalledStore) Search(ctx context.Context, _ tenderbase.Search) (tenderbase.Page, error) {
	return tenderbase.Page{}, s.stall(ctx)
}

func (s stalledStore) Get(ctx context.Context, _ tenderbase.Kind, _ string) (tenderbase.Record, error) {
	return nil, s.stall(ctx)
}

// stall waits for the end of ctx, if it ends within the limit. The time
// left can only be less than the limit, however slow the machine, since
// the deadline was set before the store was called.
func (s stalledStore) stall(ctx context.Context) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		return errors.New("the store was called without a deadline")
	}
	if left := time.Until(deadline); left > s.limit {
		return fmt.Errorf("the store was called with %v left, over the limit %v", left, s.limit)
	}
	<-ctx.Done()
	return errInterrupted
}

// TestRequestTimeout checks that a request whose store call outlasts the
// request deadline is answered once the deadline passes, on every
// interface, with the timeout error in that interface's form rather than
// an internal error. The store checks that its context's deadline is at
// most the limit away; it is not timed.
func TestRequestTimeout(t *testing.T) {
	const limit = 300 * time.Millisecond
	store := stalledStore{limit: limit}
	srv := httpserver.New(httpserver.Config{RequestTimeout: limit, Tools: tools.New(store, nil), Keys: fakeKeys{}}, store, nil)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	// Only a hang is caught by the client's timeout: the store refuses a
	// context without the deadline at once.
	client := &http.Client{Timeout: time.Minute}
	const message = "the request took longer than 300ms, the limit of one request"
	tests := []struct {
		name, method, path, body string
		want                     answer
	}{
		{"mcp", "POST", "/mcp", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"поставка"}}}`,
			answer{503, "", `{"jsonrpc":"2.0","id":7,"error":{"code":-32003,"message":"` + message, ""}},
		{"debug endpoint", "POST", "/mcp/ru/detail", `{"id":"0162307330524391275"}`,
			answer{503, "", `{"error":{"code":"timeout","message":"` + message, ""}},
		{"export in json", "GET", "/api2.3/export?mode=fasEIS&dtype=json", "",
			answer{503, "Content-Type: application/json; charset=utf-8", `{"error":{"code":"timeout","message":"` + message, ""}},
		{"export in xml", "GET", "/api2.3/export?mode=fas&kwords=жалоба", "",
			answer{503, "Content-Type: application/xml; charset=utf-8", `<?xml`, `<error code="timeout">` + message}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer paid")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("no answer within a minute, a hang: %v", err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want.status || !strings.HasPrefix(string(body), tt.want.bodyPrefix) || !strings.Contains(string(body), tt.want.contains) {
				t.Errorf("%d %s\nwant %d, starting %s and holding %s", resp.StatusCode, body, tt.want.status, tt.want.bodyPrefix, tt.want.contains)
			}
			if name, value, ok := strings.Cut(tt.want.header, ": "); ok && resp.Header.Get(name) != value {
				t.Errorf("%s: %q, want %q", name, resp.Header.Get(name), value)
			}
		})
	}
}
