package httpserver

import (
	"net/http"

	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// searchSyntax answers GET /search/syntax with a description of the query
// language, of how a search that finds nothing corrects its words, and of
// the filters and orders of the search tools.
func (s *Server) searchSyntax(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, struct {
		query.Description
		Corrections string            `json:"corrections"`
		Filters     []tools.FilterDoc `json:"filters"`
		Sorts       []tools.SortDoc   `json:"sorts"`
	}{query.Describe(), tools.CorrectionHelp, s.cfg.Tools.FilterDocs(), s.cfg.Tools.SortDocs()})
	return nil
}
