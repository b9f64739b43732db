package mcp_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/mcp"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// maxToolListChars bounds what tools/list puts into a model's context
// before its first call: the JSON of every tool, its description, input
// schema and annotations, summed. It was 136,000 characters with the
// output schemas, 55,000 without them; 20,000 held the 20 tools before
// the tools of purchase plans, which came to 22,454 with them; ru.flags
// added 610, data.freshness 439, contracts.search's bounds and sort by
// the end of a term 154, analytics.aggregate 1,099, docs.analyze 709,
// ru.search's organizer_inn 65, ru.flags's customer (inn, a period,
// an example) 442 and analytics.profile 962 (docs/decisions.md).
const maxToolListChars = 26_940

// TestToolListSize measures the tools/list of the real tools, tool by
// tool, and fails when they come to more than maxToolListChars.
func TestToolListSize(t *testing.T) {
	h, err := mcp.New(mcp.Config{}, tools.New(nil, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
	var list struct {
		Result struct{ Tools []json.RawMessage }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil || len(list.Result.Tools) == 0 {
		t.Fatalf("tools/list answered %.200s: %v", w.Body, err)
	}
	total := 0
	for _, raw := range list.Result.Tools {
		var tool struct{ Name string }
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatal(err)
		}
		n := len([]rune(string(raw)))
		t.Logf("%-22s %5d", tool.Name, n)
		total += n
	}
	t.Logf("%d tools, %d characters", len(list.Result.Tools), total)
	if total > maxToolListChars {
		t.Errorf("tools/list holds %d characters of tools, more than %d", total, maxToolListChars)
	}
}
