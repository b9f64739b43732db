package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mcp-remote is the stdio bridge that desktop clients speaking only stdio use
// to reach an HTTP MCP server; the key goes in through an environment
// variable, as the README shows.
func TestMCPRemoteBridge(t *testing.T) {
	needNodeClients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	bridge := filepath.Join("node_modules", "mcp-remote", "dist", "proxy.js")
	cmd := exec.CommandContext(ctx, "node", bridge, srv.URL+"/mcp", "--header", "Authorization:${AUTH_HEADER}")
	cmd.Dir = clientsDir
	cmd.Env = append(cmd.Environ(), "AUTH_HEADER=Bearer "+key(t, "standard"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start mcp-remote: %v", err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()

	call := demoCalls(t)[1] // ru.detail
	args, _ := json.Marshal(call.Arguments)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, call.Name, args),
	} {
		if _, err := fmt.Fprintln(stdin, msg); err != nil {
			t.Fatal(err)
		}
	}
	replies := readReplies(t, stdout, 2)
	if !strings.Contains(replies[1], `"protocolVersion":"2025-06-18"`) {
		t.Errorf("initialize through mcp-remote: %s", replies[1])
	}
	var res struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(replies[2]), &res); err != nil || res.Result.IsError ||
		res.Result.StructuredContent["purchase_number"] != call.Arguments["id"] {
		t.Errorf("ru.detail through mcp-remote: %s", replies[2])
	}
}

// readReplies reads JSON-RPC messages from the bridge's stdout until it has
// the responses with ids 1..n, and returns them by id.
func readReplies(t *testing.T, r interface{ Read([]byte) (int, error) }, n int) map[int]string {
	t.Helper()
	replies := map[int]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for len(replies) < n && sc.Scan() {
		var msg struct {
			ID *int `json:"id"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.ID != nil {
			replies[*msg.ID] = sc.Text()
		}
	}
	if len(replies) < n {
		t.Fatalf("mcp-remote answered %d of %d requests: %v", len(replies), n, sc.Err())
	}
	return replies
}
