package httpserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/storetest"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// TestAnalystQuestion asks "open tenders for roof repair in Moscow over 5
// mln, deadline next week, 44-FZ only, biggest first" in one call, through
// the debug endpoint and through MCP, on both stores.
func TestAnalystQuestion(t *testing.T) {
	now := time.Now()
	askInOneCall(t, storetest.AnalystRecords(now), "ru", "search", storetest.AnalystArgs(now), "purchase_number", storetest.AnalystWant)
}

// TestRenewalQuestion asks "contracts of this customer in OKPD2 class 43
// ending in the next 3 months, soonest first" in one call, through the
// debug endpoint and through MCP, on both stores.
func TestRenewalQuestion(t *testing.T) {
	now := time.Now()
	askInOneCall(t, storetest.RenewalRecords(now), "contracts", "search", storetest.RenewalArgs(now), "reg_number", storetest.RenewalWant)
}

// askInOneCall stores recs in each store and calls the search tool of
// group and operation with args through the debug endpoint and through
// MCP: both must answer the records want, in order, by their field key.
func askInOneCall(t *testing.T, recs []tenderbase.Record, group, operation, args, key string, want []string) {
	t.Helper()
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			if _, err := store.Put(t.Context(), recs); err != nil {
				t.Fatal(err)
			}
			srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)

			var debug struct {
				Total int
				Items []map[string]any
			}
			decode(t, post(t, ts, "/mcp/"+group+"/"+operation, args), &debug)
			var got []string
			for _, it := range debug.Items {
				got = append(got, fmt.Sprint(it[key]))
			}
			if diff := cmp.Diff(want, got); diff != "" || debug.Total != len(want) {
				t.Errorf("debug endpoint: total %d (-want +got):\n%s", debug.Total, diff)
			}

			var rpc struct {
				Result struct {
					Content []struct {
						Text string
					}
					StructuredContent struct {
						Total int
					} `json:"structuredContent"`
					IsError bool `json:"isError"`
				}
			}
			decode(t, post(t, ts, "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+group+"."+operation+`","arguments":`+args+`}}`), &rpc)
			if rpc.Result.IsError || len(rpc.Result.Content) == 0 || rpc.Result.StructuredContent.Total != len(want) {
				t.Fatalf("MCP: %+v", rpc.Result)
			}
			text, at := rpc.Result.Content[0].Text, -1
			for _, n := range want {
				i := strings.Index(text, n)
				if i <= at {
					t.Errorf("MCP text does not name %v in order:\n%s", want, text)
					break
				}
				at = i
			}
		})
	}
}

// bothStores opens a fresh store of each kind.
func bothStores() map[string]func(t *testing.T) tenderbase.Store {
	return map[string]func(t *testing.T) tenderbase.Store{
		"sqlite": func(t *testing.T) tenderbase.Store {
			s, err := sqlite.Open(t.Context(), t.TempDir()+"/store.db", nil)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		"postgres": func(t *testing.T) tenderbase.Store {
			s, err := postgres.Open(t.Context(), pgtest.URL(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
}

// TestCompetitionQuestion asks "how much competition is there in road
// repair in region 50" in one call, through the debug endpoint and
// through MCP, on both stores: the figures of storetest.AggregateRecords,
// two road repairs with three participants and one.
func TestCompetitionQuestion(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			if _, err := store.Put(t.Context(), storetest.AggregateRecords()); err != nil {
				t.Fatal(err)
			}
			srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			args := `{"resource": "ru", "search": {"query": "ремонт дорог", "regions": [50]}, "by": "customer"}`
			type answer struct {
				Total struct {
					Count int
					Drop  struct {
						MeanPct float64 `json:"mean_pct"`
					}
					Bidding struct {
						Procedures   int
						Mean         float64 `json:"mean_participants"`
						SingleBidPct float64 `json:"single_bid_pct"`
						FailedPct    float64 `json:"failed_pct"`
					}
				}
				Groups []struct {
					Key    string
					Filter map[string]any
				}
				More int
			}
			// Two procedures, 3 + 1 participants: 2 a procedure, half of
			// them single-bid and half failed; contracts 15% and 1%
			// below the initial prices: 8% on average. One customer, whose
			// INN lists its tenders.
			check := func(how string, got answer) {
				tot := got.Total
				if tot.Count != 2 || tot.Bidding.Procedures != 2 || tot.Bidding.Mean != 2 || tot.Bidding.SingleBidPct != 50 ||
					tot.Bidding.FailedPct != 50 || tot.Drop.MeanPct != 8 {
					t.Errorf("%s: total %+v", how, tot)
				}
				if len(got.Groups) != 1 || got.Groups[0].Key != "5001000001" || got.Groups[0].Filter["customer_inn"] != "5001000001" || got.More != 0 {
					t.Errorf("%s: groups %+v, %d more", how, got.Groups, got.More)
				}
			}
			var debug answer
			decode(t, post(t, ts, "/mcp/analytics/aggregate", args), &debug)
			check("debug endpoint", debug)
			var rpc struct {
				Result struct {
					Content           []struct{ Text string }
					StructuredContent answer `json:"structuredContent"`
					IsError           bool   `json:"isError"`
				}
			}
			decode(t, post(t, ts, "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analytics.aggregate","arguments":`+args+`}}`), &rpc)
			if rpc.Result.IsError || len(rpc.Result.Content) != 1 {
				t.Fatalf("MCP: %+v", rpc.Result)
			}
			check("MCP", rpc.Result.StructuredContent)
			// A model reads the same figures in words, and the call that
			// lists the group.
			text := rpc.Result.Content[0].Text
			for _, want := range []string{"2 tenders match the search", "price drop 8% on average",
				"2 participants a procedure over 2, single bid 50%", "failed 50% of 2 ended", "By customer, the 1 largest of 1 groups:",
				"1. 5001000001", "2 tenders; ", `The first group's filter: {"customer_inn":"5001000001"}`} {
				if !strings.Contains(text, want) {
					t.Errorf("MCP text lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

func post(t *testing.T, ts *httptest.Server, path, body string) []byte {
	t.Helper()
	req, err := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer paid")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST %s: %d %s %v", path, resp.StatusCode, raw, err)
	}
	return raw
}

func decode(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
}
