package httpserver_test

import (
	"context"
	"errors"
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
// driver would, with an error that does not say why.
type stalledStore struct {
	tenderbase.Store // the other methods are not used; calling one panics
}

var errInterrupted = errors.New("sqlite: interrupted (9)")

func (stalledStore) Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error) {
	<-ctx.Done()
	return tenderbase.Page{}, errInterrupted
}

func (stalledStore) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	<-ctx.Done()
	return nil, errInterrupted
}

// TestRequestTimeout checks that a request whose store call outlasts the
// request deadline is answered on time, on every interface, with the
// timeout error in that interface's form rather than an internal error.
func TestRequestTimeout(t *testing.T) {
	const limit = 300 * time.Millisecond
	store := stalledStore{}
	srv := httpserver.New(httpserver.Config{RequestTimeout: limit, Tools: tools.New(store, nil), Keys: fakeKeys{}}, store, nil)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	// Without a deadline the store would wait for the client to give up.
	client := &http.Client{Timeout: 5 * time.Second}
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
			start := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer resp.Body.Close()
			took := time.Since(start)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.want.status || !strings.HasPrefix(string(body), tt.want.bodyPrefix) || !strings.Contains(string(body), tt.want.contains) {
				t.Errorf("%d %s\nwant %d, starting %s and holding %s", resp.StatusCode, body, tt.want.status, tt.want.bodyPrefix, tt.want.contains)
			}
			if name, value, ok := strings.Cut(tt.want.header, ": "); ok && resp.Header.Get(name) != value {
				t.Errorf("%s: %q, want %q", name, resp.Header.Get(name), value)
			}
			if took > limit+time.Second {
				t.Errorf("answered after %v; the limit is %v", took, limit)
			}
		})
	}
}
