package httpserver

import "net/http"

// routes returns every route of the service.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /health", s.handle(s.health))
	mux.Handle("GET /search/syntax", s.handle(s.searchSyntax))

	// Clients probe /.well-known/ (OAuth discovery among others); a plain
	// JSON 404 tells them there is nothing there.
	mux.Handle("/.well-known/", s.handle(notFound))
	mux.Handle("/", s.handle(notFound))
	return mux
}
