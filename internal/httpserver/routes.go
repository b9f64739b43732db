package httpserver

import (
	"fmt"
	"net/http"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// routes returns every route of the service.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /health", s.handle(s.health))
	mux.Handle("GET /ready", s.handle(s.ready))
	if s.cfg.Metrics != nil {
		mux.Handle("GET /metrics", s.cfg.Metrics.Handler())
	}

	// The routes below are reached by browser clients too, from the origins
	// --allowed-origins lists: each answers their preflight before any key
	// is asked for (browserRoute).
	s.browserRoute(mux, http.MethodGet, "/search/syntax", s.handle(s.searchSyntax))
	s.browserRoute(mux, http.MethodGet, "/openapi.json", s.openAPI())

	// The MCP handler answers every method: POST, and 405 as a JSON-RPC
	// error to the rest. It limits the rate itself, to answer in JSON-RPC.
	mux.Handle("/mcp", s.cors.Handler(s.requireMCPKey(s.mcp)))
	s.browserRoute(mux, http.MethodPost, "/mcp/{group}/{operation}", s.requireKey(s.limitRate(s.handle(s.callTool))))

	// The export takes its optional key as api_code and writes errors in
	// the format the request asks for, so it limits the rate itself.
	s.browserRoute(mux, http.MethodGet, "/api2.3/export", http.HandlerFunc(s.export))
	// The feed of changes takes its key as the export does.
	s.browserRoute(mux, http.MethodGet, "/api2.3/feed", s.handle(s.feed))
	// How current the data is: data.freshness for any key, as the tools.
	s.browserRoute(mux, http.MethodGet, "/freshness", s.requireKey(s.limitRate(s.handle(s.freshness))))

	// The jobs that analyse a tender's documentation, which a CRM makes,
	// polls and is told of by a webhook.
	if s.cfg.Analyses != nil {
		s.browserRoute(mux, http.MethodPost, "/analyses", s.requireKey(s.limitRate(s.handle(s.createAnalysisJob))))
		s.browserRoute(mux, http.MethodGet, "/analyses/{id}", s.requireKey(s.limitRate(s.handle(s.analysisJob))))
	}

	// The unsubscribe links of the mailings, for people and mail clients.
	if s.cfg.Subscriptions != nil {
		mux.HandleFunc("GET /unsubscribe", s.unsubscribe)
		mux.HandleFunc("POST /unsubscribe", s.unsubscribe)
	}

	// Clients probe /.well-known/ (OAuth discovery among others); a plain
	// JSON 404 tells them there is nothing there.
	mux.Handle("/.well-known/", s.handle(notFound))
	return s.answerUnmatched(mux)
}

// browserRoute serves h for method on path with the CORS answers of the
// allowed origins, and answers a browser's preflight (OPTIONS) for it. An
// OPTIONS that is no preflight is told which method the path takes.
func (s *Server) browserRoute(mux *http.ServeMux, method, path string, h http.Handler) {
	mux.Handle(method+" "+path, s.cors.Handler(h))
	mux.Handle(http.MethodOptions+" "+path, s.cors.Handler(methodNotAllowed(method+", "+http.MethodOptions)))
}

// answerUnmatched serves mux, and answers a request no route matches as
// the mux would, 405 with Allow when the path is served for other methods
// and 404 otherwise, but with the service's JSON error body.
func (s *Server) answerUnmatched(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		reqinfo.From(r.Context()).Route = pattern
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
		methodNotAllowed(probe.header.Get("Allow")).ServeHTTP(w, r)
	})
}

// methodNotAllowed answers 405 with Allow, in the service's JSON error body.
func methodNotAllowed(allow string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
