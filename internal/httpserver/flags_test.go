package httpserver_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/storetest"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// singleApplication is the published protocol of a 44-FZ auction that got
// one application (../shared/data, PROVENANCE.md).
var singleApplication = filepath.Join("..", "..", "..", "shared", "data", "eis44", "aksyuk__zakupki_gov_ru",
	"fcsProtocolEFSingleApp_0111100000217000018_15537445.xml")

// TestFlagsThroughMCP asks "did tender 0111100000217000018 get one bid"
// through MCP and the debug endpoint, on both stores holding its published
// protocol: one call answers it, with the protocol the answer rests on.
func TestFlagsThroughMCP(t *testing.T) {
	if _, err := os.Stat(singleApplication); err != nil {
		t.Skipf("%s is absent (%v): the shared data folder is not beside this checkout", singleApplication, err)
	}
	open := bothStores()
	type flag struct {
		Rule    string
		State   string
		Because []string
	}
	want := flag{"single_bid", "fired", []string{
		"1 application in protocol 0111100000217000018-1 (fcsProtocolEFSingleApp) of 2017-10-13",
		"the placing method is not stored: a competitive procedure is assumed",
	}}
	for name, open := range open {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			sum, err := importer.Import(t.Context(), store, []string{singleApplication}, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
			if err != nil || sum.Records != 1 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)

			var rpc struct {
				Result struct {
					StructuredContent struct {
						Fired int
						Flags []flag
					} `json:"structuredContent"`
					IsError bool `json:"isError"`
				}
			}
			decode(t, post(t, ts, "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.flags","arguments":{"tend_num":"0111100000217000018"}}}`), &rpc)
			got := rpc.Result.StructuredContent
			if rpc.Result.IsError || got.Fired != 1 || len(got.Flags) != 8 {
				t.Fatalf("MCP: %+v", rpc.Result)
			}
			if diff := cmp.Diff(want, got.Flags[0]); diff != "" {
				t.Errorf("MCP single_bid (-want +got):\n%s", diff)
			}
			var debug struct{ Flags []flag }
			decode(t, post(t, ts, "/mcp/ru/flags", `{"tend_num":"0111100000217000018"}`), &debug)
			if len(debug.Flags) == 0 || !cmp.Equal(want, debug.Flags[0]) {
				t.Errorf("debug endpoint: %+v", debug.Flags)
			}
		})
	}
}

// TestCustomerFlagsThroughMCP asks "which of this customer's purchases got
// one bid" through MCP, on both stores holding the customer's notices,
// protocols and contracts (storetest.CustomerFlagRecords): one call
// answers it, with the count, the share and the newest purchases.
func TestCustomerFlagsThroughMCP(t *testing.T) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			if _, err := store.Put(t.Context(), storetest.CustomerFlagRecords()); err != nil {
				t.Fatal(err)
			}
			srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			type flag struct {
				Rule, State string
				Because     []string
				Open        []string
			}
			var rpc struct {
				Result struct {
					StructuredContent struct {
						Flags   []flag
						Figures struct {
							Bidded    int
							SingleBid struct {
								Count     int
								Purchases []string
							} `json:"single_bid"`
						}
					} `json:"structuredContent"`
					IsError bool `json:"isError"`
				}
			}
			decode(t, post(t, ts, "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ru.flags","arguments":{"inn":"7801000001"}}}`), &rpc)
			got := rpc.Result.StructuredContent
			if rpc.Result.IsError || len(got.Flags) != 4 {
				t.Fatalf("MCP: %+v", rpc.Result)
			}
			// 3 of the 5 competitive procedures with a participant had
			// one: 60%, above the Scoreboard's 20%.
			newest := []string{"0372200000126000006", "0372200000126000002", "0372200000126000001"}
			want := flag{Rule: "single_bid_share", State: "fired", Because: []string{
				"3 of 5 competitive procedures whose protocols name a participant had one participant: 60.0%, the flag fires above 20%",
				"for instance " + strings.Join(newest, ", "),
			}, Open: []string{"ru.flags " + newest[0], "ru.flags " + newest[1], "ru.flags " + newest[2]}}
			if diff := cmp.Diff(want, got.Flags[0]); diff != "" {
				t.Errorf("single_bid_share (-want +got):\n%s", diff)
			}
			if got.Figures.Bidded != 5 || got.Figures.SingleBid.Count != 3 || !cmp.Equal(got.Figures.SingleBid.Purchases, newest) {
				t.Errorf("figures: %+v", got.Figures)
			}
		})
	}
}
