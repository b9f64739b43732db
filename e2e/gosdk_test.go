package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds an Authorization header to every request, as an MCP client
// configured with a static header does.
type bearer struct {
	key  string
	base http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.base.RoundTrip(r)
}

// connectGo connects the official Go SDK client with the given key.
func connectGo(t *testing.T, key string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "tenderbase-e2e", Version: "1.0.0"}, nil)
	transport := &mcp.StreamableClientTransport{
		Endpoint:   srv.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{key: key, base: http.DefaultTransport}},
	}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("Go SDK client: connect: %v", err)
	}
	t.Cleanup(func() { session.Close() })
	return session
}

func TestGoSDKClientListsAndCallsEveryTool(t *testing.T) {
	session := connectGo(t, key(t, "guru"))
	ctx := context.Background()
	if got := session.InitializeResult().ProtocolVersion; got != "2025-06-18" {
		t.Errorf("negotiated protocol version %q, want 2025-06-18", got)
	}
	listed, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range listed.Tools {
		names = append(names, tool.Name)
		if tool.Title == "" || tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("tool %s lacks a title, description or input schema", tool.Name)
		}
	}
	if !slices.Equal(sorted(names), sorted(toolNames)) {
		t.Fatalf("tools/list = %v, want the %d tools %v", names, len(toolNames), toolNames)
	}
	for _, call := range demoCalls(t) {
		t.Run(call.Name, func(t *testing.T) {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: call.Name, Arguments: call.Arguments})
			if err != nil {
				t.Fatalf("tools/call %s: %v", call.Name, err)
			}
			if res.IsError {
				t.Fatalf("tools/call %s(%v) failed: %v", call.Name, call.Arguments, textOf(res))
			}
			assertFound(t, call.Name, res.StructuredContent)
		})
	}
}

func TestGoSDKClientFreeKeyGetsToolErrorForContacts(t *testing.T) {
	session := connectGo(t, key(t, "free"))
	for _, call := range demoCalls(t) {
		if call.Name != "contragent.contacts" {
			continue
		}
		res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: call.Name, Arguments: call.Arguments})
		if err != nil {
			t.Fatalf("tools/call: %v", err)
		}
		if !res.IsError || textOf(res) == "" {
			t.Errorf("contragent.contacts on the free plan: isError %v, text %q; want a tool error saying which plans have it", res.IsError, textOf(res))
		}
	}
}

func textOf(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// assertFound checks that a tool's structured result holds something: a
// search total above zero or a non-empty record.
func assertFound(t *testing.T, tool string, structured any) {
	t.Helper()
	body, err := json.Marshal(structured)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil || len(obj) == 0 {
		t.Fatalf("%s: structuredContent is not an object with fields: %s", tool, body)
	}
	if total, ok := obj["total"].(float64); ok && total < 1 {
		t.Errorf("%s: found nothing: %s", tool, body)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
