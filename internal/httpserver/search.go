package httpserver

import (
	"net/http"

	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// searchSyntax answers GET /search/syntax with a description of the query
// language, and of the filters and orders of the search tools.
func (s *Server) searchSyntax(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, struct {
		query.Description
		Filters []tools.FilterDoc `json:"filters"`
		Sorts   []tools.SortDoc   `json:"sorts"`
	}{query.Describe(), s.cfg.Tools.FilterDocs(), s.cfg.Tools.SortDocs()})
	return nil
}
