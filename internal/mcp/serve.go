package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"github.com/tenderbase/tenderbase/internal/strictjson"
)

// Protocol versions the handler speaks.
const (
	latestVersion = "2025-06-18"
	// oldestVersion is assumed when a request has no MCP-Protocol-Version
	// header, as the 2025-06-18 transport asks.
	oldestVersion = "2025-03-26"
)

func supportedVersion(v string) bool { return v == latestVersion || v == oldestVersion }

// serve answers the JSON-RPC message in x.in.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, x *exchange) {
	if e := x.parse(); e != nil {
		x.writeError(w, e)
		return
	}
	if e := checkVersionHeader(r, x.req.Method); e != nil {
		x.writeError(w, e)
		return
	}
	if len(x.req.ID) == 0 || x.req.Method == "" {
		// A notification, or the client's response to a request of ours
		// (we send none): accepted, with nothing to say.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if e := h.allow(r.Context()); e != nil {
		x.writeError(w, e)
		return
	}
	h.dispatch(w, r, x)
}

// dispatch answers a request by its method.
func (h *Handler) dispatch(w http.ResponseWriter, r *http.Request, x *exchange) {
	switch x.req.Method {
	case "tools/call":
		h.callTool(w, r, x)
	case "tools/list":
		x.writeResult(w, h.toolList)
	case "prompts/list":
		h.listPrompts(w, r, x)
	case "prompts/get":
		h.getPrompt(w, r, x)
	case "ping":
		x.writeResult(w, emptyObject)
	case "initialize":
		h.initialize(w, x)
	default:
		x.writeError(w, &rpcError{status: http.StatusOK, code: codeMethodNotFound,
			message: fmt.Sprintf("method not found: %s", tenderbase.Quote(x.req.Method))})
	}
}

var emptyObject = []byte("{}")

// parse decodes x.in as one JSON-RPC message and checks its envelope. A
// message without an id is a notification; without a method but with a
// result or an error, a response. An object anywhere in the message that
// names a member twice makes it an invalid request, the tool's arguments
// included: which of the two was meant cannot be known.
func (x *exchange) parse() *rpcError {
	body := bytes.TrimLeft(x.in, " \t\r\n")
	if len(body) > 0 && body[0] == '[' && json.Valid(body) {
		return invalidRequest("batches are not supported: send one JSON-RPC message per POST (protocol 2025-06-18 removed batching)")
	}
	err := json.Unmarshal(body, &x.req)
	if !utf8.Valid(x.req.ID) {
		// encoding/json reads other bytes that are not UTF-8 as U+FFFD, and
		// the tools refuse them by argument; a raw id would be repeated as
		// it came, making the answer no JSON text.
		x.req.ID = nil
		return &rpcError{status: http.StatusBadRequest, code: codeParseError, message: "parse error: the id is not valid UTF-8; JSON text is UTF-8"}
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntaxErr) || len(body) == 0:
		return &rpcError{status: http.StatusBadRequest, code: codeParseError, message: "parse error: the body is not valid JSON"}
	case body[0] != '{':
		return invalidRequest("the body must be one JSON-RPC request object")
	case errors.As(err, &typeErr):
		return invalidRequest(fmt.Sprintf("%s must be a %s", typeErr.Field, fieldType[typeErr.Field]))
	case err != nil:
		return invalidRequest(err.Error())
	}
	if err := strictjson.Check(body); err != nil {
		return invalidRequest(err.Error())
	}
	return x.req.check()
}

// fieldType says what the typed envelope fields must be, for error
// messages; the others are kept raw and checked later.
var fieldType = map[string]string{"jsonrpc": `string "2.0"`, "method": "string"}

// check checks the envelope's fields.
func (req *request) check() *rpcError {
	switch {
	case req.JSONRPC != "2.0":
		return invalidRequest(`jsonrpc must be "2.0"`)
	case len(req.ID) > 0 && !validID(req.ID):
		return invalidRequest(fmt.Sprintf("id must be a string or an integer, at most %d bytes of JSON", maxIDBytes))
	case req.Method == "" && (len(req.ID) == 0 || len(req.Result) == 0 && len(req.Error) == 0):
		return invalidRequest("method is missing")
	}
	return nil
}

func invalidRequest(message string) *rpcError {
	return &rpcError{status: http.StatusBadRequest, code: codeInvalidRequest, message: message}
}

// checkVersionHeader refuses an MCP-Protocol-Version header naming a version
// the handler does not speak. Initialize is exempt: its body negotiates the
// version, and a newer client may send its own version there.
func checkVersionHeader(r *http.Request, method string) *rpcError {
	v := r.Header.Get("MCP-Protocol-Version")
	if v == "" || method == "initialize" || supportedVersion(v) {
		return nil
	}
	return invalidRequest(fmt.Sprintf("unsupported MCP-Protocol-Version %s: this server speaks %s and %s",
		tenderbase.Quote(v), latestVersion, oldestVersion))
}

// allow asks the rate limiter whether the caller's key may make this
// request. A request without a key was let in by whoever put none there. A
// limiter that cannot decide lets the request through: its outage must not
// become an outage of the service. The limiter reports the outage itself,
// once; here it is only a debug line.
func (h *Handler) allow(ctx context.Context) *rpcError {
	if h.limiter == nil {
		return nil
	}
	key, ok := tenderbase.KeyFromContext(ctx)
	if !ok {
		return nil
	}
	wait, err := h.limiter.Allow(ctx, key)
	if err != nil {
		h.logger.DebugContext(ctx, "rate limiter failed; request let through", "key", key.ID, "err", err)
		return nil
	}
	if wait <= 0 {
		return nil
	}
	secs := retrySeconds(wait)
	reqinfo.From(ctx).RateLimited = true
	return &rpcError{
		status: http.StatusTooManyRequests, code: codeRateLimited, retryAfter: secs,
		message: fmt.Sprintf("rate limit exceeded for this key: retry in %d s", secs),
		data:    fmt.Appendf(nil, `{"retry_after":%d}`, secs),
	}
}

// retrySeconds rounds a wait up to whole seconds, the unit of
// Retry-After, and to at least one, since 0 would invite an immediate
// retry.
func retrySeconds(wait time.Duration) int {
	return max(1, int(math.Ceil(wait.Seconds())))
}

// isObject reports whether raw JSON is an object.
func isObject(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '{'
}
