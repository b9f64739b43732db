package httpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
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
	values := r.URL.Query()
	for p, vs := range values {
		if !slices.Contains(feedParams, p) {
			return tenderbase.Errorf(tenderbase.EINVALID, "unknown parameter %s; the feed takes %s", tenderbase.Quote(p), strings.Join(feedParams, ", "))
		}
		if len(vs) > 1 {
			return tenderbase.Errorf(tenderbase.EINVALID, "parameter %s is given %d times", tenderbase.Quote(p), len(vs))
		}
	}
	r, _, _, err := s.keyedRequest(w, r, values.Get("api_code"))
	if err != nil {
		return err
	}
	args := map[string]string{}
	for _, p := range []string{"resource", "cursor", "limit"} {
		if values.Has(p) {
			args[p] = values.Get(p)
		}
	}
	raw, err := json.Marshal(args)
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
