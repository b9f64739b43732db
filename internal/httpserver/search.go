package httpserver

import (
	"net/http"

	"github.com/tenderbase/tenderbase/internal/query"
)

// searchSyntax answers GET /search/syntax with a description of the query
// language.
func (s *Server) searchSyntax(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, query.Describe())
	return nil
}
