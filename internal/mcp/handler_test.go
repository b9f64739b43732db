package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/mcp"
	"github.com/tenderbase/tenderbase/internal/tools"
)

func TestBodyTooLarge(t *testing.T) {
	h, err := mcp.New(mcp.Config{MaxBodyBytes: 64}, newFakeTools(), nil)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 64) + `"}}`
	w := httptest.NewRecorder()

	h.ServeHTTP(w, httptest.NewRequest("POST", "/mcp", strings.NewReader(body)))

	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body is larger than 64 bytes"}}`
	if w.Code != 413 || strings.TrimSpace(w.Body.String()) != want {
		t.Errorf("got %d %s, want 413 %s", w.Code, w.Body, want)
	}
}

// TestLogs checks that an internal failure is logged once, with its cause,
// while the caller learns nothing of it, and that a limiter outage is not
// logged for each request: the limiter logs it, once; nor is a store's
// outage: the server logs it, once.
func TestLogs(t *testing.T) {
	tests := []struct {
		name, request, key, log string
	}{
		{"tool failure", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"broken.tool"}}`, "",
			`level=ERROR msg="tool failed" tool=broken.tool err="sqlite: database disk image is malformed"`},
		{"limiter down", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "limiter-down", ""},
		{"store unavailable", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"store.down"}}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			h := newTestHandler(t, &logs)
			text := "POST /mcp\n"
			if tt.key != "" {
				text += "Test-Key: " + tt.key + "\n"
			}

			got := exchange(t, h, text+"\n"+tt.request)

			if tt.log == "" && logs.Len() > 0 {
				t.Errorf("logged:\n%s\nwant nothing", logs.String())
			}
			if n := strings.Count(logs.String(), "\n"); tt.log != "" && (n != 1 || !strings.Contains(logs.String(), tt.log)) {
				t.Errorf("logged %d lines:\n%s\nwant one with %s", n, logs.String(), tt.log)
			}
			if strings.Contains(got, "malformed") || strings.Contains(got, "redis") || strings.Contains(got, "5432") {
				t.Errorf("the answer shows the cause:\n%s", got)
			}
		})
	}
}

// TestText checks that a tool's JSON becomes the same text block
// encoding/json would write.
func TestText(t *testing.T) {
	values := []string{
		`{}`,
		`{"a":"line\nbreak \"quoted\" back\\slash \u0001 \t tab"}`,
		`{"name":"ООО «Ромашка» & <Co>","emoji":"🙂"}`,
		"{\"raw\":\"\x7f\u2028\"}",
		"{\"bad\":\"\xff\"}",
	}
	for _, v := range values {
		var tb struct {
			Text string `json:"text"`
		}
		body := callFake(t, v)
		if err := json.Unmarshal(body, &tb); err != nil {
			t.Fatalf("%q: %v in %s", v, err, body)
		}
		if want := strings.ToValidUTF8(v, "\uFFFD"); tb.Text != want {
			t.Errorf("text %q, want %q", tb.Text, want)
		}
	}
}

// callFake calls a tool answering value and returns the first content
// block of the result.
func callFake(t *testing.T, value string) json.RawMessage {
	t.Helper()
	set := fakeTools{{Name: "echo.value", Call: func(context.Context, json.RawMessage) (tools.Output, error) {
		return tools.Output{Value: json.RawMessage(value)}, nil
	}}}
	h, err := mcp.New(mcp.Config{}, set, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/mcp",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo.value"}}`)))
	var resp struct {
		Result struct {
			Content []json.RawMessage `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil || len(resp.Result.Content) != 1 {
		t.Fatalf("answer %s: %v", w.Body, err)
	}
	return resp.Result.Content[0]
}

// TestWriteUnavailable checks the answer to a request whose key could not
// be looked up for the store's outage: the JSON-RPC error of the outage,
// with the request's id, and none when the body has no valid one.
func TestWriteUnavailable(t *testing.T) {
	h, err := mcp.New(mcp.Config{UnavailableRetry: 2 * time.Second}, newFakeTools(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for body, id := range map[string]string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ru.search"}}`: "7",
		`not JSON`: "null",
	} {
		w := httptest.NewRecorder()
		h.WriteUnavailable(w, httptest.NewRequest("POST", "/mcp", strings.NewReader(body)), storeDown)
		want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32053,"message":"the store cannot be reached or cannot write at the moment: retry in 2 s","data":{"retry_after":2}}}`
		if w.Code != 503 || w.Header().Get("Retry-After") != "2" || strings.TrimSpace(w.Body.String()) != want {
			t.Errorf("%s: got %d Retry-After %q %s, want 503 Retry-After 2 %s", body, w.Code, w.Header().Get("Retry-After"), w.Body, want)
		}
	}
}
