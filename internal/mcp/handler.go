package mcp

import (
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/origin"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// Toolset is what the handler needs of the tools; *tools.Set is one. The set
// is read once, when the handler is built.
type Toolset interface {
	List() []*tools.Tool
	Lookup(name string) (*tools.Tool, bool)
	Prompts() []*tools.Prompt
	Prompt(name string) (*tools.Prompt, bool)
}

var _ Toolset = (*tools.Set)(nil)

// ServerInfo names the server in the answer to initialize.
type ServerInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// Config configures a Handler. Zero values take the defaults below.
type Config struct {
	// Info names the server; the name defaults to "tenderbase".
	Info ServerInfo
	// Instructions tell a model what the server holds and how to search it;
	// default tools.Instructions().
	Instructions string
	// AllowedOrigins lists the browser origins, beyond localhost, that may
	// call: full origins ("https://app.example.com"), host names, or "*" for
	// any. A request without an Origin header is not from a browser and is
	// always served.
	AllowedOrigins []string
	// Limiter bounds how fast a key may call; nil means no limits.
	Limiter tenderbase.RateLimiter
	// MaxBodyBytes bounds a request body; default 1 MiB.
	MaxBodyBytes int64
	// UnavailableRetry is the Retry-After of an answer while the store
	// cannot be reached or cannot write; default DefaultUnavailableRetry.
	UnavailableRetry time.Duration
}

// DefaultUnavailableRetry is the Retry-After of an answer while the store
// is unavailable, unless Config.UnavailableRetry says otherwise.
const DefaultUnavailableRetry = 5 * time.Second

// Handler answers MCP requests on POST /mcp.
type Handler struct {
	tools   Toolset
	limiter tenderbase.RateLimiter
	origins origin.Policy
	maxBody int64
	logger  *slog.Logger
	// retry is the Retry-After, in seconds, while the store is unavailable.
	retry int

	// The answers that never change are marshalled once, when the handler
	// is built: initialize's result for each protocol version and the list
	// of tools. The list of prompts depends on the caller's plan.
	initialized map[string][]byte
	toolList    []byte
}

// New returns a handler serving the tools of set. A nil logger discards logs.
func New(cfg Config, set Toolset, logger *slog.Logger) (*Handler, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.UnavailableRetry <= 0 {
		cfg.UnavailableRetry = DefaultUnavailableRetry
	}
	h := &Handler{
		tools:   set,
		limiter: cfg.Limiter,
		origins: origin.NewPolicy(cfg.AllowedOrigins),
		maxBody: cfg.MaxBodyBytes,
		logger:  logger,
		retry:   retrySeconds(cfg.UnavailableRetry),
	}
	var err error
	if h.initialized, err = initializeResults(cfg); err != nil {
		return nil, err
	}
	if h.toolList, err = toolListResult(set.List()); err != nil {
		return nil, err
	}
	return h, nil
}

// ServeHTTP checks the HTTP side of a request, reads its one JSON-RPC
// message and answers it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	x := getExchange()
	defer putExchange(x)
	if e := h.checkHTTP(r); e != nil {
		x.writeError(w, e)
		return
	}
	if err := x.readBody(w, r, h.maxBody); err != nil {
		x.writeError(w, h.bodyError(r, err))
		return
	}
	h.serve(w, r, x)
}

// WriteUnavailable answers a request that the store's outage stopped
// before the handler read it (its key could not be looked up): the
// JSON-RPC error of every call the outage stops, with the request's id when
// its body has a valid one.
func (h *Handler) WriteUnavailable(w http.ResponseWriter, r *http.Request, err error) {
	x := getExchange()
	defer putExchange(x)
	if x.readBody(w, r, h.maxBody) == nil {
		_ = x.parse() // only for the id, which writeError checks
	}
	x.writeError(w, h.unavailable(r, err))
}

// unavailable is the answer to a call that failed because the store
// cannot be reached or cannot write: 503 with Retry-After, as a rate limit
// is answered 429, and the error noted for the server's count of the
// outage. It is no internal error, and not logged here: the server logs
// the outage once.
func (h *Handler) unavailable(r *http.Request, err error) *rpcError {
	reqinfo.From(r.Context()).Unavailable = err
	return &rpcError{
		status: http.StatusServiceUnavailable, code: codeUnavailable, retryAfter: h.retry,
		message: fmt.Sprintf("%s: retry in %d s", tenderbase.ErrorMessage(err), h.retry),
		data:    fmt.Appendf(nil, `{"retry_after":%d}`, h.retry),
	}
}

// checkHTTP refuses what is wrong before the body is read: the method, the
// origin and the content type.
func (h *Handler) checkHTTP(r *http.Request) *rpcError {
	if r.Method != http.MethodPost {
		return &rpcError{status: http.StatusMethodNotAllowed, code: codeInvalidRequest, allowPost: true,
			message: fmt.Sprintf("method %s not allowed: this stateless server answers POST only and opens no stream", tenderbase.Quote(r.Method))}
	}
	if from := r.Header.Get("Origin"); from != "" && !h.origins.Allows(from) {
		return &rpcError{status: http.StatusForbidden, code: codeInvalidRequest,
			message: fmt.Sprintf("origin %s is not allowed", tenderbase.Quote(from))}
	}
	if problem := ContentTypeProblem(r.Header.Get("Content-Type")); problem != "" {
		return &rpcError{status: http.StatusUnsupportedMediaType, code: codeInvalidRequest, message: problem}
	}
	return nil
}

// bodyError answers a body that could not be read.
func (h *Handler) bodyError(r *http.Request, err error) *rpcError {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return &rpcError{status: http.StatusRequestEntityTooLarge, code: codeInvalidRequest,
			message: fmt.Sprintf("request body is larger than %d bytes", tooLarge.Limit)}
	}
	// Most likely the client went away; the answer may never arrive.
	h.logger.DebugContext(r.Context(), "read request body", "err", err)
	return &rpcError{status: http.StatusBadRequest, code: codeInvalidRequest, message: "request body could not be read"}
}

// ContentTypeProblem says why a request body of Content-Type ct is not read,
// or returns "" when it is read: JSON, or no Content-Type at all. The debug
// endpoints of the tools answer by the same rule. A form or plain text is
// refused rather than read as JSON, since whoever sent it may not have meant
// JSON; curl -d sends a form unless told otherwise, so the answer says how.
func ContentTypeProblem(ct string) string {
	if ct == "" || isJSON(ct) {
		return ""
	}
	return fmt.Sprintf("Content-Type %s is not JSON; send application/json (with curl: -H 'Content-Type: application/json')",
		tenderbase.Quote(ct))
}

// isJSON reports whether a Content-Type names JSON: application/json or a
// +json type, with any parameters.
func isJSON(ct string) bool {
	if strings.HasPrefix(ct, "application/json") && (len(ct) == len("application/json") || ct[len("application/json")] == ';') {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}
