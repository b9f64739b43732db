package httpserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/metrics"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// TestMetricsCountCalls makes a mix of calls (MCP tools, debug endpoints,
// exports, a refused key, a rate-limited key, a wrong path) on both stores
// and scrapes GET /metrics: every call is counted once under its route,
// tool and status, the refusal for the rate limit is counted, and the
// store's operations and the open connection are seen.
func TestMetricsCountCalls(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) tenderbase.Store{
		"sqlite":   openSQLite,
		"postgres": openPostgres,
	} {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			recs, err := demo.Records()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Put(t.Context(), recs); err != nil {
				t.Fatal(err)
			}
			m := metrics.New(metrics.Build{Version: "v9.9.9", Commit: "abc", GoVersion: "go"})
			srv := httpserver.New(httpserver.Config{
				Tools: tools.New(m.Store(store), nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}, Metrics: m,
			}, m.Store(store), nil)
			ts := httptest.NewUnstartedServer(srv.Handler())
			ts.Config.ConnState = m.ConnState
			ts.Start()
			t.Cleanup(ts.Close)

			call := func(method, path, key, body string) {
				t.Helper()
				req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				if key != "" {
					req.Header.Set("Authorization", "Bearer "+key)
				}
				resp, err := ts.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			call("POST", "/mcp", "paid", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"поставка"}}}`)
			call("POST", "/mcp", "paid", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"оборудование"}}}`)
			// Failed calls: on /mcp an HTTP 200 all the same.
			call("POST", "/mcp", "paid", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ru.detail","arguments":{"id":"0000000000000000000"}}}`)
			call("POST", "/mcp", "paid", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"ru.search","arguments":{"query":"(поставка"}}}`)
			call("POST", "/mcp/ru/detail", "paid", `{"id":"0000000000000000000"}`)
			call("POST", "/mcp/ru/search", "paid", `{"query":"поставка"}`)
			call("POST", "/mcp/ru/search", "limited", `{"query":"поставка"}`)
			call("POST", "/mcp/ru/search", "nobody", `{}`)
			call("GET", "/api2.3/export?mode=fasEIS&dtype=json", "", "")
			call("GET", "/api2.3/export?mode=fas", "paid", "")
			call("GET", "/api2.3/export?mode=nothing", "", "")
			call("GET", "/no/such/path", "", "")

			// A request is counted when its handler returns, which can be a
			// moment after its client has read the answer: scrape until the
			// scrape is the one request in flight. A scrape gathers its
			// metrics concurrently, not as one snapshot, so the counters are
			// read from the scrape after that one.
			for deadline := time.Now().Add(hang); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if v, _ := scrape(t, ts).value("tenderbase_http_requests_in_flight", nil); v == 1 {
					break
				}
			}
			got := scrape(t, ts)
			for _, c := range []struct {
				metric string
				labels map[string]string
				want   float64
			}{
				{"tenderbase_http_requests_total", map[string]string{"route": "/mcp", "tool": "ru.search", "status": "200"}, 3},
				{"tenderbase_http_requests_total", map[string]string{"route": "/mcp", "tool": "ru.detail", "status": "200"}, 1},
				{"tenderbase_tool_calls_total", map[string]string{"tool": "ru.search", "outcome": "ok"}, 3},
				{"tenderbase_tool_calls_total", map[string]string{"tool": "ru.search", "outcome": "invalid"}, 1},
				{"tenderbase_tool_calls_total", map[string]string{"tool": "ru.detail", "outcome": "not_found"}, 2},
				{"tenderbase_tool_calls_total", map[string]string{"tool": "fasEIS", "outcome": "ok"}, 1},
				{"tenderbase_http_requests_total", map[string]string{"route": "POST /mcp/{group}/{operation}", "tool": "ru.search", "status": "200"}, 1},
				{"tenderbase_http_requests_total", map[string]string{"route": "POST /mcp/{group}/{operation}", "tool": "", "status": "429"}, 1},
				{"tenderbase_http_requests_total", map[string]string{"route": "POST /mcp/{group}/{operation}", "tool": "", "status": "401"}, 1},
				{"tenderbase_http_requests_total", map[string]string{"route": "GET /api2.3/export", "tool": "fasEIS", "status": "200"}, 1},
				{"tenderbase_http_requests_total", map[string]string{"route": "GET /api2.3/export", "tool": "fas", "status": "200"}, 1},
				{"tenderbase_http_requests_total", map[string]string{"route": "GET /api2.3/export", "tool": "", "status": "400"}, 1},
				{"tenderbase_http_requests_total", map[string]string{"route": "unmatched", "tool": "", "status": "404"}, 1},
				{"tenderbase_rate_limited_total", map[string]string{"route": "POST /mcp/{group}/{operation}", "caller": "key"}, 1},
				{"tenderbase_http_request_duration_seconds", map[string]string{"route": "/mcp", "tool": "ru.search"}, 3},
				{"tenderbase_build_info", map[string]string{"version": "v9.9.9", "commit": "abc"}, 1},
			} {
				if v, ok := got.value(c.metric, c.labels); !ok || v != c.want {
					t.Errorf("%s%v = %v (found %v), want %v", c.metric, c.labels, v, ok, c.want)
				}
			}
			// The scrape has a connection of its own; the calls before it may
			// not have let go of theirs yet.
			if v, ok := got.value("tenderbase_http_open_connections", nil); !ok || v < 1 {
				t.Errorf("open connections %v (found %v), want at least the scrape's", v, ok)
			}
			if v, ok := got.value("tenderbase_store_operation_duration_seconds", map[string]string{"operation": "search"}); !ok || v < 4 {
				t.Errorf("store searches timed: %v (found %v), want at least the 4 searches served", v, ok)
			}
		})
	}
}

// scraped is what GET /metrics answered, by metric name.
type scraped map[string]*dto.MetricFamily

// scrape reads GET /metrics of ts in the Prometheus text format.
func scrape(t *testing.T, ts *httptest.Server) scraped {
	t.Helper()
	resp, err := ts.Client().Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /metrics: %d", resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("GET /metrics is not the Prometheus text format: %v", err)
	}
	return families
}

// value returns the value of the series of metric whose labels include
// labels: a counter's or gauge's value, a histogram's count.
func (s scraped) value(metric string, labels map[string]string) (float64, bool) {
	family, ok := s[metric]
	if !ok {
		return 0, false
	}
	for _, m := range family.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	have := map[string]string{}
	for _, l := range m.GetLabel() {
		have[l.GetName()] = l.GetValue()
	}
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return true
}
