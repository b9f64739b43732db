package mcp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPromptsByPlan checks, for each plan, that prompts/list lists the
// prompts the plan includes and no other, and that prompts/get of one it
// does not include is a forbidden error, not invalid params.
func TestPromptsByPlan(t *testing.T) {
	h := newTestHandler(t, nil)
	for _, c := range []struct {
		key       string
		listed    []string
		codeOfGet int // 0: the prompt is given
	}{
		{"free", []string{}, -32043},
		{"paid", []string{}, -32043},
		{"guru", []string{"analyze_tender"}, 0},
		{"corporate", []string{"analyze_tender"}, 0},
	} {
		var list struct {
			Result struct{ Prompts []struct{ Name string } }
		}
		call(t, h, c.key, `{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`, &list)
		names := []string{}
		for _, p := range list.Result.Prompts {
			names = append(names, p.Name)
		}
		if diff := cmp.Diff(c.listed, names); diff != "" {
			t.Errorf("%s: prompts/list (-want +got):\n%s", c.key, diff)
		}
		var got struct {
			Error struct {
				Code    int
				Message string
			}
		}
		call(t, h, c.key, `{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"analyze_tender","arguments":{"tend_num":"0373100000125000001"}}}`, &got)
		if got.Error.Code != c.codeOfGet || (c.codeOfGet != 0 && !strings.Contains(got.Error.Message, "guru and corporate")) {
			t.Errorf("%s: prompts/get answered %+v, want code %d naming the plans", c.key, got.Error, c.codeOfGet)
		}
	}
}

// call sends one JSON-RPC request as the key named and decodes the answer
// into v.
func call(t *testing.T, h http.Handler, key, body string, v any) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, readRequest(t, "POST /mcp\nTest-Key: "+key+"\n\n"+body))
	if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
		t.Fatalf("%s: %v", w.Body, err)
	}
}
