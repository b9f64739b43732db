package httpserver

import (
	"fmt"
	"net/http"

	"github.com/tenderbase/tenderbase"
)

// routes returns every route of the service.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /health", s.handle(s.health))
	mux.Handle("GET /search/syntax", s.handle(s.searchSyntax))

	// The MCP handler answers every method: POST, and 405 as a JSON-RPC
	// error to the rest. It limits the rate itself, to answer in JSON-RPC.
	mux.Handle("/mcp", s.requireKey(s.mcp))
	mux.Handle("POST /mcp/{group}/{operation}", s.requireKey(s.limitRate(s.handle(s.callTool))))

	// The export takes its optional key as api_code and writes errors in
	// the format the request asks for, so it limits the rate itself.
	mux.Handle("GET /api2.3/export", http.HandlerFunc(s.export))
	mux.Handle("GET /openapi.json", s.openAPI())

	// Clients probe /.well-known/ (OAuth discovery among others); a plain
	// JSON 404 tells them there is nothing there.
	mux.Handle("/.well-known/", s.handle(notFound))
	return s.answerUnmatched(mux)
}

// answerUnmatched serves mux, and answers a request no route matches as
// the mux would, 405 with Allow when the path is served for other methods
// and 404 otherwise, but with the service's JSON error body.
func (s *Server) answerUnmatched(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		probe := &muxAnswer{header: make(http.Header)}
		h.ServeHTTP(probe, r)
		if probe.status != http.StatusMethodNotAllowed {
			s.handle(notFound).ServeHTTP(w, r)
			return
		}
		allow := probe.header.Get("Allow")
		w.Header().Set("Allow", allow)
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{errorDetail{Code: tenderbase.EINVALID,
			Message: fmt.Sprintf("method %s not allowed on %s; allowed: %s", tenderbase.Quote(r.Method), tenderbase.Quote(r.URL.Path), allow)}})
	})
}

// muxAnswer keeps the status and headers of the mux's own answer to an
// unmatched request and drops its plain-text body.
type muxAnswer struct {
	header http.Header
	status int
}

func (a *muxAnswer) Header() http.Header         { return a.header }
func (a *muxAnswer) Write(p []byte) (int, error) { return len(p), nil }
func (a *muxAnswer) WriteHeader(status int)      { a.status = status }
