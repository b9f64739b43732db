package mcp_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSDKClient runs the official SDK's client against the handler: the
// handshake, the list of tools, a call, a search and a tool's failure.
func TestSDKClient(t *testing.T) {
	ts := httptest.NewServer(newTestHandler(t, nil))
	defer ts.Close()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	if got := session.InitializeResult().ServerInfo.Name; got != "tenderbase" {
		t.Errorf("server name %q", got)
	}

	list, err := session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if diff := cmp.Diff([]string{"ru.search", "ru.detail", "contragent.contacts", "broken.tool", "store.down"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}

	res, err := session.CallTool(t.Context(), &sdk.CallToolParams{Name: "ru.detail", Arguments: map[string]any{"id": "0373100000125000001"}})
	if err != nil {
		t.Fatal(err)
	}
	structured, _ := res.StructuredContent.(map[string]any)
	if res.IsError || structured["id"] != "0373100000125000001" || len(res.Content) != 2 {
		t.Fatalf("call: %+v", res)
	}
	if note, _ := res.Content[1].(*sdk.TextContent); note == nil || note.Text != "Fields hidden by the free plan (null above): contact." {
		t.Errorf("note on hidden fields: %+v", res.Content[1])
	}

	res, err = session.CallTool(t.Context(), &sdk.CallToolParams{Name: "ru.search", Arguments: map[string]any{"query": "бумаги"}})
	if err != nil {
		t.Fatal(err)
	}
	structured, _ = res.StructuredContent.(map[string]any)
	if res.IsError || structured["total"] != 1.0 || len(res.Content) != 1 {
		t.Fatalf("search: %+v", res)
	}
	if text, _ := res.Content[0].(*sdk.TextContent); text == nil || !strings.HasPrefix(text.Text, "Found 1 tender") {
		t.Errorf("a search's text block: %+v", res.Content[0])
	}

	res, err = session.CallTool(t.Context(), &sdk.CallToolParams{Name: "ru.detail", Arguments: map[string]any{"id": "404"}})
	if err != nil {
		t.Fatal(err)
	}
	if text, ok := res.Content[0].(*sdk.TextContent); !res.IsError || !ok || text.Text != `no tender with id "404"` {
		t.Errorf("failed call: %+v", res)
	}

	if _, err := session.CallTool(t.Context(), &sdk.CallToolParams{Name: "ru.nope"}); err == nil {
		t.Error("an unknown tool is no error")
	}
	if err := session.Ping(t.Context(), nil); err != nil {
		t.Errorf("ping: %v", err)
	}
}
