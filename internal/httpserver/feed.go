package httpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// feedParams are the query parameters of GET /api2.3/feed.
var feedParams = []string{"resource", "cursor", "limit", "api_code"}

// feed answers GET /api2.3/feed?resource=ru&cursor=...&limit=N: the output
// of the feed.changes tool as plain JSON, for integrations that poll. The
// key comes as on the export: in api_code or an Authorization header, or
// none, with the limits of a caller without one.
func (s *Server) feed(w http.ResponseWriter, r *http.Request) error {
	const name = "feed.changes"
	reqinfo.From(r.Context()).Tool = name
	values, err := queryParams(r, "the feed", feedParams)
	if err != nil {
		return err
	}
	r, _, _, err = s.keyedRequest(w, r, values.Get("api_code"))
	if err != nil {
		return err
	}
	return s.answerByQuery(w, r, name, values, "resource", "cursor", "limit")
}

// freshness answers GET /freshness?source=eis: the output of the
// data.freshness tool as plain JSON, for a monitor or an integration that
// checks how current the data is before it trusts an empty answer. Any
// valid key may call it, as the tools (requireKey): what the sync failed
// on is the operator's business, not the world's.
func (s *Server) freshness(w http.ResponseWriter, r *http.Request) error {
	const name = "data.freshness"
	reqinfo.From(r.Context()).Tool = name
	values, err := queryParams(r, "/freshness", []string{"source"})
	if err != nil {
		return err
	}
	return s.answerByQuery(w, r, name, values, "source")
}

// queryParams returns the query parameters of r, refusing any not in
// known and any given twice.
func queryParams(r *http.Request, what string, known []string) (url.Values, error) {
	values := r.URL.Query()
	for p, vs := range values {
		if !slices.Contains(known, p) {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "unknown parameter %s; %s takes %s", tenderbase.Quote(p), what, strings.Join(known, ", "))
		}
		if len(vs) > 1 {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "parameter %s is given %d times", tenderbase.Quote(p), len(vs))
		}
	}
	return values, nil
}

// answerByQuery calls the tool name with the query parameters args of
// values as its arguments, and answers its output as plain JSON.
func (s *Server) answerByQuery(w http.ResponseWriter, r *http.Request, name string, values url.Values, args ...string) error {
	given := map[string]string{}
	for _, p := range args {
		if values.Has(p) {
			given[p] = values.Get(p)
		}
	}
	raw, err := json.Marshal(given)
	if err != nil {
		return err
	}
	tool, ok := s.cfg.Tools.Lookup(name)
	if !ok {
		return fmt.Errorf("no tool %s", name)
	}
	out, err := tool.Call(r.Context(), raw)
	var argErr *tools.ArgumentError
	switch {
	case errors.As(err, &argErr):
		return tenderbase.Errorf(tenderbase.EINVALID, "%s", strings.ReplaceAll(argErr.Message, "argument ", "parameter "))
	case err != nil:
		return fmt.Errorf("%s: %w", name, err)
	}
	writeRawJSON(w, http.StatusOK, out.Value)
	return nil
}
