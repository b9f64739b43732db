package httpserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/freshness"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// TestFreshnessEndpoint reads GET /freshness as a monitor does: with any
// valid key, answering what data.freshness answers, as its document says,
// without the EIS token that the sync's last error holds; and refusing a
// caller without a key and parameters it does not take.
func TestFreshnessEndpoint(t *testing.T) {
	const token = "0b5e55ed-eis-token-77"
	store := demoStore(t)
	now := time.Now()
	err := store.PutSyncState(t.Context(), tenderbase.SyncState{Source: "eis", Through: now.Add(-2 * time.Hour), LastSuccess: now.Add(-time.Hour),
		LastError: `Get "https://int.zakupki.gov.ru/dl?token=` + token + `": EOF`, LastErrorAt: now})
	if err != nil {
		t.Fatal(err)
	}
	set := tools.New(store, nil)
	set.SetFreshness(freshness.Config{Secrets: []string{token}, Sources: []freshness.Source{
		{Name: "eis", About: harvest.About{Fetches: "EIS notices", StaleAfter: 48 * time.Hour, Kinds: []tenderbase.Kind{tenderbase.KindTender}}, Syncing: freshness.SyncOn},
		{Name: "ted", About: harvest.About{Fetches: "TED notices", StaleAfter: 96 * time.Hour}, Syncing: "off: no first day"},
	}})
	ts := httptest.NewServer(httpserver.New(httpserver.Config{Tools: set, Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil).Handler())
	t.Cleanup(ts.Close)
	doc := openAPIDocument(t, ts)
	get := func(query, key string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, ts.URL+"/freshness"+query, nil)
		if err != nil {
			t.Fatal(err)
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		rs := schemaAt(t, doc, "paths", "/freshness", "get", "responses", strconv.Itoa(resp.StatusCode), "content", "application/json", "schema")
		validate(t, rs, query, body)
		return resp.StatusCode, string(body)
	}
	status, body := get("", "free")
	if status != http.StatusOK || strings.Contains(body, token) {
		t.Fatalf("GET /freshness: %d %s", status, body)
	}
	var rep freshness.Report
	decode(t, []byte(body), &rep)
	if len(rep.Sources) != 2 || rep.Sources[0].State != freshness.StateCurrent || rep.Sources[0].LastError != `Get "https://int.zakupki.gov.ru/dl?…": EOF` ||
		rep.Sources[1].State != freshness.StateNeverRun || !strings.Contains(rep.Next, "Never synced: ted") {
		t.Errorf("GET /freshness: %s", body)
	}
	if status, tool := postTool(t, ts, "/mcp/data/freshness", "paid", `{}`); status != http.StatusOK || !sameReport(t, tool, []byte(body)) {
		t.Errorf("the debug endpoint answers otherwise: %d %s", status, tool)
	}
	if status, body := get("?source=eis", "paid"); status != http.StatusOK || strings.Contains(body, `"ted"`) || !strings.Contains(body, `"kind":"tender"`) {
		t.Errorf("?source=eis: %d %s", status, body)
	}
	for _, c := range []struct {
		query, key string
		status     int
		says       string
	}{
		{"", "", http.StatusUnauthorized, "Bearer"},
		{"", "nobody", http.StatusUnauthorized, ""},
		{"?source=zakupki", "free", http.StatusBadRequest, "the sources are eis, ted"},
		{"?sources=eis", "free", http.StatusBadRequest, "/freshness takes source"},
		{"?source=eis&source=ted", "free", http.StatusBadRequest, "given 2 times"},
	} {
		if status, body := get(c.query, c.key); status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s with key %q: %d %s; want %d saying %q", c.query, c.key, status, body, c.status, c.says)
		}
	}
}

// sameReport reports whether two reports say the same but for the moment
// each was made at.
func sameReport(t *testing.T, a, b []byte) bool {
	t.Helper()
	var ra, rb freshness.Report
	decode(t, a, &ra)
	decode(t, b, &rb)
	ra.CheckedAt, rb.CheckedAt = time.Time{}, time.Time{}
	for _, r := range []*freshness.Report{&ra, &rb} {
		for i := range r.Sources {
			r.Sources[i].Lag = ""
		}
		for i := range r.Newest {
			r.Newest[i].Age = ""
		}
	}
	return cmp.Equal(ra, rb)
}
