package httpserver_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/benchcorpus"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// BenchmarkRequest times what every search request costs besides its
// search: a page of 20 tenders of a word in most of them, over loopback
// HTTP with a key, through the debug endpoint (20 whole records) and MCP
// (20 summaries and their text), on a SQLite store of 5,000 tenders of the
// scale bench's corpus, whose totals are cached after the first request.
func BenchmarkRequest(b *testing.B) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, b.TempDir()+"/bench.db", nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var recs []tenderbase.Record
	for t := range benchcorpus.Tenders(1, 5000) {
		recs = append(recs, t)
	}
	if _, err := st.Put(ctx, recs); err != nil {
		b.Fatal(err)
	}
	_, secret, err := st.CreateKey(ctx, tenderbase.Key{Name: "bench", Plan: tenderbase.PlanCorporate})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(httpserver.New(httpserver.Config{Keys: st, Tools: tools.New(st, nil)}, st, nil).Handler())
	defer ts.Close()
	for _, c := range []struct{ name, path, body string }{
		{"debug", "/mcp/ru/search", `{"query": "поставка"}`},
		{"mcp", "/mcp", `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ru.search", "arguments": {"query": "поставка"}}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			var n int64
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, ts.URL+c.path, bytes.NewReader([]byte(c.body)))
				req.Header.Set("Authorization", "Bearer "+secret)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("MCP-Protocol-Version", "2025-06-18")
				resp, err := ts.Client().Do(req)
				if err != nil {
					b.Fatal(err)
				}
				got, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("%s: %s", c.path, resp.Status)
				}
				n += got
			}
			b.ReportMetric(float64(n)/float64(b.N), "bytes/op")
		})
	}
}
