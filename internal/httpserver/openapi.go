package httpserver

import (
	"fmt"
	"net/http"

	"github.com/tenderbase/tenderbase/internal/openapi"
)

// openAPI returns the handler of GET /openapi.json. The document is built
// once, here, from the tools the server serves. It panics if the document
// cannot be built, a programming error that every test run shows.
func (s *Server) openAPI() http.Handler {
	doc, err := openapi.Document(s.cfg.Tools.List())
	if err != nil {
		panic(fmt.Sprintf("httpserver: %v", err))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeRawJSON(w, http.StatusOK, doc)
	})
}
