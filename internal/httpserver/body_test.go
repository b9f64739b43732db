package httpserver_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// TestBodyCutShort sends a debug endpoint and /mcp a body that breaks off,
// as when a client hangs up mid-request: the answer is a 400 (which the
// client may never read), never a 500, and nothing is logged as an error.
func TestBodyCutShort(t *testing.T) {
	store := demoStore(t)
	var logs bytes.Buffer
	srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}},
		store, slog.New(slog.NewJSONHandler(&logs, nil)))
	for _, path := range []string{"/mcp/ru/search", "/mcp"} {
		body := io.MultiReader(strings.NewReader(`{"query":"шко`), iotest.ErrReader(io.ErrUnexpectedEOF))
		req := httptest.NewRequest(http.MethodPost, path, body)
		req.Header.Set("Authorization", "Bearer free")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400; body %s", path, rec.Code, rec.Body)
		}
	}
	if strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Errorf("a body cut short is logged as an error:\n%s", logs.String())
	}
}
