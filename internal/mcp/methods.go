package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/jsonstring"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// initializeResult is the answer to initialize.
type initializeResult struct {
	ProtocolVersion string       `json:"protocolVersion"`
	Capabilities    capabilities `json:"capabilities"`
	ServerInfo      ServerInfo   `json:"serverInfo"`
	Instructions    string       `json:"instructions,omitempty"`
}

type capabilities struct {
	Tools struct {
		ListChanged bool `json:"listChanged"`
	} `json:"tools"`
	Prompts struct {
		ListChanged bool `json:"listChanged"`
	} `json:"prompts"`
}

// initializeResults marshals the answer to initialize for each version the
// handler speaks.
func initializeResults(cfg Config) (map[string][]byte, error) {
	info := cfg.Info
	if info.Name == "" {
		info.Name = "tenderbase"
	}
	instructions := cfg.Instructions
	if instructions == "" {
		instructions = tools.Instructions()
	}
	results := make(map[string][]byte)
	for _, v := range []string{latestVersion, oldestVersion} {
		b, err := marshal(initializeResult{ProtocolVersion: v, ServerInfo: info, Instructions: instructions})
		if err != nil {
			return nil, fmt.Errorf("marshal initialize result: %w", err)
		}
		results[v] = b
	}
	return results, nil
}

// initialize answers with the client's protocol version if the handler
// speaks it, and with the latest it speaks otherwise.
func (h *Handler) initialize(w http.ResponseWriter, x *exchange) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(x.req.Params, &p); err != nil || p.ProtocolVersion == "" {
		x.writeError(w, invalidParams("initialize: params.protocolVersion must be a string naming a protocol version"))
		return
	}
	v := p.ProtocolVersion
	if !supportedVersion(v) {
		v = latestVersion
	}
	x.writeResult(w, h.initialized[v])
}

// toolEntry is one tool in the answer to tools/list. It carries no
// outputSchema, which the protocol leaves optional: the tools' output
// schemas came to 77,000 characters, which a model would read before its
// first call, and the structured content it gets repeats what the text
// block says. /openapi.json gives the schemas of the debug endpoints'
// answers.
type toolEntry struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations annotations     `json:"annotations"`
}

// annotations say what a call does: most tools only read the data the
// server holds; the subscriptions' create and delete change an account's.
// A tool that reads says no more than that: the protocol gives
// destructiveHint and idempotentHint a meaning only when readOnlyHint is
// false.
type annotations struct {
	ReadOnlyHint    bool  `json:"readOnlyHint"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   bool  `json:"openWorldHint"`
}

// annotationsOf returns the annotations of a tool with effect e.
func annotationsOf(e tools.Effect) annotations {
	if e == tools.Reads {
		return annotations{ReadOnlyHint: true}
	}
	destructive, idempotent := e == tools.Deletes, e != tools.Creates
	return annotations{DestructiveHint: &destructive, IdempotentHint: &idempotent}
}

// toolListResult marshals the answer to tools/list. The list is short and
// fixed, so it comes in one page whatever cursor a client sends.
func toolListResult(list []*tools.Tool) ([]byte, error) {
	entries := make([]toolEntry, len(list))
	for i, t := range list {
		entries[i] = toolEntry{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema,
			Annotations: annotationsOf(t.Effect),
		}
		if len(entries[i].InputSchema) == 0 {
			entries[i].InputSchema = json.RawMessage(`{"type":"object"}`)
		}
	}
	b, err := marshal(struct {
		Tools []toolEntry `json:"tools"`
	}{entries})
	if err != nil {
		return nil, fmt.Errorf("marshal tool list: %w", err)
	}
	return b, nil
}

// marshal returns the JSON of v without escaping <, > and &, which the
// instructions use and nobody embeds in HTML.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func invalidParams(message string) *rpcError {
	return &rpcError{status: http.StatusOK, code: codeInvalidParams, message: message}
}

// callParams are the params of tools/call.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// callTool answers tools/call: the tool's output as structured content and
// as text, or the tool's failure as a result marked isError. A search
// answers its summary and the text of its page (tools.Output), not its
// whole records, which would fill a model's context twice over.
func (h *Handler) callTool(w http.ResponseWriter, r *http.Request, x *exchange) {
	tool, args, e := h.lookupCall(x)
	if e != nil {
		x.writeError(w, e)
		return
	}
	reqinfo.From(r.Context()).Tool = tool.Name
	// MCP answers a search's summaries, never its whole records.
	out, err := tool.Call(tools.WithForm(r.Context(), tools.BriefForm), args)
	if err != nil {
		h.writeCallError(w, r, x, tool, err)
		return
	}
	if len(out.Restricted) > 0 {
		w.Header().Set("X-Restricted-Fields", strings.Join(out.Restricted, ","))
	}
	x.openResult()
	x.out = append(x.out, `{"content":[{"type":"text","text":`...)
	if out.Text != "" {
		x.out = jsonstring.Append(x.out, out.Text)
	} else {
		x.out = jsonstring.AppendBytes(x.out, out.Value)
	}
	x.out = append(x.out, '}')
	if len(out.Restricted) > 0 && out.Text == "" {
		// A model never sees the header, so a second block tells it why
		// those fields are null. A text names them itself.
		x.out = append(x.out, `,{"type":"text","text":`...)
		x.out = jsonstring.Append(x.out, fmt.Sprintf("Fields hidden by the %s plan (null above): %s.",
			tenderbase.PlanFromContext(r.Context()), strings.Join(out.Restricted, ", ")))
		x.out = append(x.out, '}')
	}
	x.out = append(x.out, ']')
	if structured := out.Structured(); isObject(structured) {
		x.out = append(x.out, `,"structuredContent":`...)
		x.out = append(x.out, structured...)
	}
	x.out = append(x.out, `,"isError":false}`...)
	x.closeResult()
	send(w, http.StatusOK, x.out)
}

// lookupCall reads the params of tools/call: the tool and its arguments,
// an empty object when none are given.
func (h *Handler) lookupCall(x *exchange) (*tools.Tool, json.RawMessage, *rpcError) {
	if err := json.Unmarshal(x.req.Params, &x.call); err != nil || x.call.Name == "" {
		return nil, nil, invalidParams("tools/call: params must be an object with the tool's name and an object of arguments")
	}
	tool, ok := h.tools.Lookup(x.call.Name)
	if !ok {
		return nil, nil, invalidParams(fmt.Sprintf("unknown tool %s: tools/list names the tools", tenderbase.Quote(x.call.Name)))
	}
	args := x.call.Arguments
	if len(args) == 0 || string(args) == "null" {
		return tool, emptyObject, nil
	}
	if !isObject(args) {
		return nil, nil, invalidParams(fmt.Sprintf("tools/call %s: arguments must be a JSON object", tool.Name))
	}
	return tool, args, nil
}

// writeCallError answers a failed tool call. Arguments that do not fit are
// invalid params; a call past the request's deadline is a timeout error,
// and one the store's outage stopped an unavailable error; an error the
// caller can act on is the tool's result; any other error is ours,
// logged here and reported without details.
func (h *Handler) writeCallError(w http.ResponseWriter, r *http.Request, x *exchange, tool *tools.Tool, err error) {
	info := reqinfo.From(r.Context())
	var argErr *tools.ArgumentError
	if errors.As(err, &argErr) {
		info.Failure = tenderbase.EINVALID
		x.writeError(w, invalidParams(argErr.Message))
		return
	}
	err = tenderbase.ContextError(r.Context(), err)
	info.Failure = tenderbase.ErrorCode(err)
	switch tenderbase.ErrorCode(err) {
	case tenderbase.ETIMEOUT:
		x.writeError(w, &rpcError{status: http.StatusServiceUnavailable, code: codeTimeout, message: tenderbase.ErrorMessage(err)})
		return
	case tenderbase.EUNAVAILABLE:
		x.writeError(w, h.unavailable(r, err))
		return
	case tenderbase.EINTERNAL:
		h.logFailure(r, tool, err)
		x.writeError(w, &rpcError{status: http.StatusOK, code: codeInternal, message: "internal error"})
		return
	}
	x.openResult()
	x.out = append(x.out, `{"content":[{"type":"text","text":`...)
	x.out = jsonstring.Append(x.out, tenderbase.ErrorMessage(err))
	x.out = append(x.out, `}],"isError":true}`...)
	x.closeResult()
	send(w, http.StatusOK, x.out)
}

// logFailure logs a tool's internal error. A call whose client went away
// failed for no fault of ours, and nobody reads its answer: that is worth a
// line at info level, not an error.
func (h *Handler) logFailure(r *http.Request, tool *tools.Tool, err error) {
	if errors.Is(err, context.Canceled) {
		h.logger.InfoContext(r.Context(), "tool call cancelled: the client went away", "tool", tool.Name)
		return
	}
	h.logger.ErrorContext(r.Context(), "tool failed", "tool", tool.Name, "err", err)
}
