package httpserver_test

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// TestProfileQuestions asks "who does my customer usually award to" and
// "whom does supplier X compete against and who wins" in one call each,
// through the debug endpoint and through MCP, on both stores, of real EIS
// files: the customer 6163041287 signed contract44_13_2 (598,400 RUB)
// with 6168104632 and contract44_2012_export (412,500.50 RUB) with
// 6165098421; the supplier 3662098451 met 3664123590 in lot 1 of
// fcsProtocolOK2_0131200001017003945, which 3664123590 won, and
// 3665011872 in lot 2, which it won itself.
func TestProfileQuestions(t *testing.T) {
	var paths []string
	for _, f := range []string{"contract/contract44_13_2.xml", "contract/contract44_2012_export.xml",
		"protocol/fcsProtocolOK2_0131200001017003945_16208817.xml"} {
		paths = append(paths, filepath.Join("..", "source", "eis", "testdata", f))
	}
	questions := []struct {
		args  string
		check func(got map[string]any) bool
		words []string
	}{
		{`{"inn": "6163041287", "role": "customer"}`,
			func(got map[string]any) bool {
				s, _ := got["suppliers"].([]any)
				return len(s) == 2 && s[0].(map[string]any)["key"] == "6168104632" && s[1].(map[string]any)["key"] == "6165098421"
			},
			[]string{"Suppliers by contracts, the 2 largest of 2:", "1. 6168104632", "2. 6165098421", "598400 RUB", `contracts.search {"customer_inn": "6163041287"}`}},
		{`{"inn": "3662098451", "role": "supplier"}`,
			func(got map[string]any) bool {
				w, _ := got["winners"].([]any)
				r, _ := got["rivals"].([]any)
				return len(r) == 2 && len(w) == 1 && w[0].(map[string]any)["inn"] == "3664123590" && w[0].(map[string]any)["won_over"] == 1.0
			},
			[]string{"took part in 2 procedures (lots), won 1, lost 1 to another, win rate 50%", "Rivals met most, 2 of 2:",
				"Who won where it did not, 1 of 1:", "1. 3664123590", "met in 1, won 1 of them, 1 where it did not"}},
	}
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			if sum, err := importer.Import(t.Context(), store, paths, importer.Options{Decoders: []importer.Decoder{eis.Format{}}}); err != nil || sum.Rejected != 0 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			for _, q := range questions {
				var debug map[string]any
				decode(t, post(t, ts, "/mcp/analytics/profile", q.args), &debug)
				if !q.check(debug) {
					t.Errorf("debug endpoint %s: %v", q.args, debug)
				}
				var rpc struct {
					Result struct {
						Content           []struct{ Text string }
						StructuredContent map[string]any `json:"structuredContent"`
						IsError           bool           `json:"isError"`
					}
				}
				decode(t, post(t, ts, "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analytics.profile","arguments":`+q.args+`}}`), &rpc)
				if rpc.Result.IsError || len(rpc.Result.Content) != 1 || !q.check(rpc.Result.StructuredContent) {
					t.Fatalf("MCP %s: %+v", q.args, rpc.Result)
				}
				for _, w := range q.words {
					if !strings.Contains(rpc.Result.Content[0].Text, w) {
						t.Errorf("MCP text of %s lacks %q:\n%s", q.args, w, rpc.Result.Content[0].Text)
					}
				}
			}
		})
	}
}
