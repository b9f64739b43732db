package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/mcp"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// callTool answers POST /mcp/{group}/{operation}, the debug endpoint of a
// tool: the arguments object is the body, the tool's output the answer, and
// the fields hidden from the caller's plan are named in X-Restricted-Fields.
func (s *Server) callTool(w http.ResponseWriter, r *http.Request) error {
	tool, ok := s.cfg.Tools.ByEndpoint(r.PathValue("group"), r.PathValue("operation"))
	if !ok {
		return tenderbase.Errorf(tenderbase.ENOTFOUND, "no tool at %s; the tools are at %s",
			tenderbase.Quote(r.URL.Path), strings.Join(s.toolEndpoints(), ", "))
	}
	reqinfo.From(r.Context()).Tool = tool.Name
	if err := checkBodyType(tool, r.Header.Get("Content-Type")); err != nil {
		return err
	}
	args, err := readArguments(r)
	if err != nil {
		return err
	}
	// The debug endpoint answers a search's whole records, never its
	// summaries.
	out, err := tool.Call(tools.WithForm(r.Context(), tools.WholeForm), args)
	var argErr *tools.ArgumentError
	switch {
	case errors.As(err, &argErr):
		return tenderbase.Errorf(tenderbase.EINVALID, "%s", argErr.Message)
	case err != nil:
		return fmt.Errorf("%s: %w", tool.Name, err)
	}
	if len(out.Restricted) > 0 {
		w.Header().Set("X-Restricted-Fields", strings.Join(out.Restricted, ","))
	}
	writeRawJSON(w, http.StatusOK, out.Value)
	return nil
}

// checkBodyType refuses a body whose Content-Type is not JSON, as /mcp
// does, except that a tool that only reads also takes JSON under the types
// plain HTTP clients send by default (defaultBodyType): curl -d sends a
// form, fetch a string as text/plain. A tool that changes what the server
// keeps takes JSON alone: a web page may send those types to any site
// without asking (a CORS simple request), JSON it may not.
func checkBodyType(tool *tools.Tool, ct string) error {
	problem := mcp.ContentTypeProblem(ct)
	switch {
	case problem == "":
		return nil
	case tool.Effect == tools.Reads && defaultBodyType(ct):
		return nil
	case defaultBodyType(ct):
		problem += "; " + tool.Name + " changes what the server keeps, and reads JSON alone"
	}
	return &mediaTypeError{problem}
}

// defaultBodyType reports whether ct is one that HTTP clients send a body
// under when they are not told its type: a form, plain text or bytes.
func defaultBodyType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/x-www-form-urlencoded" || mt == "text/plain" || mt == "application/octet-stream")
}

// readArguments reads the arguments object of a debug call; an empty body
// means no arguments. A body cut short (the client hung up, or sent less
// than its Content-Length) is the client's doing: 400, as on /mcp, never a
// 500 and an error in the log.
func readArguments(r *http.Request) (json.RawMessage, error) {
	body, err := io.ReadAll(r.Body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, err
	case err != nil:
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "request body could not be read")
	}
	body = bytes.TrimSpace(body)
	switch {
	case len(body) == 0:
		return json.RawMessage("{}"), nil
	case !json.Valid(body):
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "the body is not valid JSON; send the tool's arguments as a JSON object")
	case body[0] != '{':
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "the body must be a JSON object of the tool's arguments")
	}
	return body, nil
}

// toolEndpoints lists the debug endpoints of the tools.
func (s *Server) toolEndpoints() []string {
	var paths []string
	for _, t := range s.cfg.Tools.List() {
		paths = append(paths, "/mcp/"+t.Group+"/"+t.Operation)
	}
	return paths
}

// writeRawJSON writes body, which is JSON already, as a response. The body
// may be shared, so the newline is written apart rather than appended.
func writeRawJSON(w http.ResponseWriter, status int, body json.RawMessage) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(body)
	_, _ = w.Write([]byte("\n"))
}
