package httpserver

import (
	"net/http"

	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// searchSyntax answers GET /search/syntax with a description of the query
// language, of how the search tools expand a query and correct a word no
// record holds, and of their filters and orders.
func (s *Server) searchSyntax(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, struct {
		query.Description
		Expansion   string            `json:"expansion"`
		Corrections string            `json:"corrections"`
		Filters     []tools.FilterDoc `json:"filters"`
		Sorts       []tools.SortDoc   `json:"sorts"`
	}{query.Describe(), tools.ExpansionHelp, tools.CorrectionHelp, s.cfg.Tools.FilterDocs(), s.cfg.Tools.SortDocs()})
	return nil
}
