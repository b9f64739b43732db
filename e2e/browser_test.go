package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser tests load a page from one origin and connect from it to a
// server on another, as a web app does. Both page origins are names that
// Chromium maps to 127.0.0.1 itself, since the server always allows pages
// served from localhost and 127.0.0.1.
const (
	appHost  = "app.test"  // the origin the server is told to allow
	evilHost = "evil.test" // any other origin
)

// preflightHeaders are the request headers the TypeScript SDK's browser
// client sends, in the form a browser asks for them in a preflight.
const preflightHeaders = "authorization,content-type,mcp-protocol-version"

// TestBrowserPreflightNeedsNoKey asks as a browser does, with no key,
// whether a page may call /mcp: the allowed origin is told yes and which
// headers it may send, another origin gets no CORS answer, and /mcp itself
// refuses that origin even with a key.
func TestBrowserPreflightNeedsNoKey(t *testing.T) {
	allowed := "http://" + appHost + ":8080"
	s := startServerWith(t, "--allowed-origins", allowed)
	for _, tc := range []struct {
		origin, wantACAO string
	}{
		{allowed, allowed},
		{"http://" + evilHost + ":8080", ""},
	} {
		req, _ := http.NewRequest(http.MethodOptions, s.URL+"/mcp", nil)
		req.Header.Set("Origin", tc.origin)
		req.Header.Set("Access-Control-Request-Method", http.MethodPost)
		req.Header.Set("Access-Control-Request-Headers", preflightHeaders)
		resp := do(t, req)
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("preflight from %s: status %d, want 204", tc.origin, resp.StatusCode)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != tc.wantACAO {
			t.Errorf("preflight from %s: Access-Control-Allow-Origin %q, want %q", tc.origin, got, tc.wantACAO)
		}
		if tc.wantACAO == "" {
			continue
		}
		allowHeaders := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers"))
		for _, h := range strings.Split(preflightHeaders, ",") {
			if !strings.Contains(allowHeaders, h) {
				t.Errorf("preflight from %s: Access-Control-Allow-Headers %q lacks %s", tc.origin, allowHeaders, h)
			}
		}
		if methods := resp.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(methods, http.MethodPost) {
			t.Errorf("preflight from %s: Access-Control-Allow-Methods %q lacks POST", tc.origin, methods)
		}
	}

	// A client that is no browser can send any Origin; /mcp refuses one it
	// does not allow, key or not (the defence against DNS rebinding).
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Origin", "http://"+evilHost+":8080")
	req.Header.Set("Authorization", "Bearer "+s.Keys["standard"])
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp := do(t, req); resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST /mcp from another origin with a key: status %d, want 403", resp.StatusCode)
	}
}

// TestBrowserClientConnectsOnlyFromAllowedOrigin runs the TypeScript SDK's
// client in headless Chromium, from a page on the origin the server allows
// and from the same page on another origin.
func TestBrowserClientConnectsOnlyFromAllowedOrigin(t *testing.T) {
	chromium := needBrowser(t)
	needNodeClients(t)
	page := servePage(t, bundleClient(t))
	_, port, _ := strings.Cut(page.Listener.Addr().String(), ":")
	appOrigin := "http://" + appHost + ":" + port
	s := startServerWith(t, "--allowed-origins", appOrigin)
	ctx := startBrowser(t, chromium)
	calls := demoCalls(t)
	call := calls[slices.IndexFunc(calls, func(c toolCall) bool { return c.Name == "ru.search" })]

	t.Run("allowed origin", func(t *testing.T) {
		got, blocked := visit(t, ctx, appOrigin, s, call)
		if got.Error != nil {
			t.Fatalf("the client failed: %s: %s", got.Error.Name, got.Error.Message)
		}
		if !slices.Equal(sorted(got.Tools), sorted(toolNames)) {
			t.Errorf("tools/list = %v, want %v", got.Tools, toolNames)
		}
		if got.Call == nil || got.Call.IsError || len(got.Call.Content) == 0 || got.Call.Content[0].Text == "" {
			t.Errorf("%s returned no content: %+v", call.Name, got.Call)
		}
		if len(blocked) > 0 {
			t.Errorf("the browser blocked requests from the allowed origin: %v", blocked)
		}
	})
	t.Run("other origin", func(t *testing.T) {
		got, blocked := visit(t, ctx, "http://"+evilHost+":"+port, s, call)
		if got.Error == nil || !strings.Contains(got.Error.Message, "Failed to fetch") {
			t.Errorf("the client reported %+v, want the browser's TypeError: Failed to fetch", got.Error)
		}
		if got.Tools != nil || got.Call != nil {
			t.Errorf("the client got tools %v and call %+v from a refused origin", got.Tools, got.Call)
		}
		// The preflight got no Access-Control-Allow-Origin, so the browser
		// never sent the POST.
		want := "POST " + s.URL + "/mcp: PreflightMissingAllowOriginHeader"
		if !slices.ContainsFunc(blocked, func(b string) bool { return strings.HasPrefix(b, want) }) {
			t.Errorf("the browser blocked %v, want %s", blocked, want)
		}
	})
}

// pageResult is what e2e/browser/client.mjs writes to document.body.dataset.result.
type pageResult struct {
	Origin string   `json:"origin"`
	Tools  []string `json:"tools"`
	Call   *struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"call"`
	Error *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"error"`
}

// visit opens the page from origin in a new tab, has it connect to s and
// make call, and returns what the page saw and the requests the browser
// blocked for CORS, as "URL: reason".
func visit(t *testing.T, browser context.Context, origin string, s *server, call toolCall) (pageResult, []string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	var ev pageEvents
	if err := chromedp.Listen(ctx, ev.record); err != nil {
		t.Fatal(err)
	}
	callJSON, _ := json.Marshal(call)
	fragment := url.Values{"url": {s.URL + "/mcp"}, "key": {s.Keys["standard"]}, "call": {string(callJSON)}}
	if err := chromedp.Do(ctx, chromedp.Navigate(origin+"/#"+fragment.Encode())); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Poll[string]("document.body.dataset.result", chromedp.WithPollingTimeout(15*time.Second)))
	if err != nil {
		t.Fatalf("the page wrote no result: %v\nconsole:\n%s", err, ev.console())
	}
	var got pageResult
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("the page's result is not JSON: %v\n%s", err, raw)
	}
	if got.Origin != origin {
		t.Fatalf("the page ran on %s, want %s", got.Origin, origin)
	}
	blocked := ev.blocked()
	t.Logf("page on %s: %s\nblocked by CORS: %v", origin, raw, blocked)
	if console := ev.console(); console != "" {
		t.Logf("console:\n%s", console)
	}
	return got, blocked
}

// pageEvents keeps the events of a tab that the test reads: what the page
// wrote to the console, and the requests that failed. The browser delivers
// them on its own goroutine.
type pageEvents struct {
	mu      sync.Mutex
	lines   []string
	failed  map[network.RequestID]*network.EventLoadingFailed
	request map[network.RequestID]string // URL
}

func (e *pageEvents) record(ev any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range ev.Args {
			args = append(args, string(a.Value)+a.Description)
		}
		e.lines = append(e.lines, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		if d.Exception != nil {
			e.lines = append(e.lines, "exception: "+d.Exception.Description)
		} else {
			e.lines = append(e.lines, "exception: "+d.Text)
		}
	case *network.EventRequestWillBeSent:
		if e.request == nil {
			e.request = make(map[network.RequestID]string)
		}
		e.request[ev.RequestID] = ev.Request.Method + " " + ev.Request.URL
	case *network.EventLoadingFailed:
		if e.failed == nil {
			e.failed = make(map[network.RequestID]*network.EventLoadingFailed)
		}
		e.failed[ev.RequestID] = ev
	}
}

func (e *pageEvents) console() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return strings.Join(e.lines, "\n")
}

// blocked returns the requests that failed for CORS, as "METHOD URL: reason".
func (e *pageEvents) blocked() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for id, f := range e.failed {
		if f.CorsErrorStatus != nil {
			out = append(out, fmt.Sprintf("%s: %s %s", e.request[id], f.CorsErrorStatus.CorsError, f.ErrorText))
		}
	}
	return out
}

// needBrowser returns the path of Chromium, and skips the test without it
// unless TENDERBASE_REQUIRE_BROWSER=1 (CI) makes that a failure.
func needBrowser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	const msg = "Chromium is not installed (apt-get install chromium; .ci/run does)"
	if os.Getenv("TENDERBASE_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + ", and TENDERBASE_REQUIRE_BROWSER=1")
	}
	t.Skip(msg)
	return ""
}

// bundleClient bundles e2e/browser/client.mjs and the TypeScript SDK it
// imports into one script for the browser, and returns its path.
func bundleClient(t *testing.T) string {
	t.Helper()
	esbuild := filepath.Join(clientsDir, "node_modules", ".bin", "esbuild")
	if _, err := os.Stat(esbuild); err != nil {
		t.Skip("esbuild is not installed; run `npm ci --prefix e2e/clients` (.ci/run does)")
	}
	modules, err := filepath.Abs(filepath.Join(clientsDir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "client.js")
	cmd := exec.Command(esbuild, filepath.Join("browser", "client.mjs"),
		"--bundle", "--format=iife", "--platform=browser", "--target=es2022",
		"--outfile="+out, "--log-level=warning")
	// The entry module lives outside clients/, so it finds the SDK there
	// through NODE_PATH.
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild: %v\n%s", err, b)
	}
	return out
}

// servePage serves the page, e2e/browser/index.html, and the bundle of its
// client on a loopback port, for any host name.
func servePage(t *testing.T, bundle string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join("browser", "index.html"))
	})
	mux.HandleFunc("GET /client.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, bundle)
	})
	page := httptest.NewServer(mux)
	t.Cleanup(page.Close)
	return page
}

// startBrowser starts headless Chromium, which resolves the page's host
// names to 127.0.0.1 and no other name at all, so that it reaches nothing
// beyond this machine. It stops when the test ends.
func startBrowser(t *testing.T, chromium string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("host-resolver-rules", fmt.Sprintf(
			"MAP %s 127.0.0.1, MAP %s 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", appHost, evilHost)),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc(); cancel() })
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return browser
}

// startServerWith runs `serve --demo` as startServer does, with more flags,
// and stops it when the test ends.
func startServerWith(t *testing.T, flags ...string) *server {
	t.Helper()
	s, stop, err := startServer(context.Background(), binPath, flags...) // stopped by stop, gracefully
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return s
}

// do sends req and returns its response with the body read and closed.
func do(t *testing.T, req *http.Request) *http.Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
