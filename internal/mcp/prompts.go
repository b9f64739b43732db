package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// promptEntry is one prompt in the answer to prompts/list.
type promptEntry struct {
	Name        string                 `json:"name"`
	Title       string                 `json:"title,omitempty"`
	Description string                 `json:"description"`
	Arguments   []tools.PromptArgument `json:"arguments"`
}

// listPrompts answers prompts/list: the prompts the caller's plan
// includes, so that a client never offers its user one the server would
// refuse. The list is short, one page whatever cursor a client sends.
func (h *Handler) listPrompts(w http.ResponseWriter, r *http.Request, x *exchange) {
	entries := []promptEntry{}
	for _, p := range h.tools.Prompts() {
		if p.Allowed(r.Context()) {
			entries = append(entries, promptEntry{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: p.Arguments})
		}
	}
	b, err := marshal(struct {
		Prompts []promptEntry `json:"prompts"`
	}{entries})
	if err != nil {
		h.logger.ErrorContext(r.Context(), "marshal prompt list", "err", err)
		x.writeError(w, &rpcError{status: http.StatusOK, code: codeInternal, message: "internal error"})
		return
	}
	x.writeResult(w, b)
}

// getPrompt answers prompts/get: the prompt's messages, each a text from
// the user. prompts/get has no result that marks an error, as tools/call
// has, so a prompt the caller's plan does not include is a forbidden error
// (codeForbidden), and bad arguments or a tender not found an invalid
// params error, each saying which.
func (h *Handler) getPrompt(w http.ResponseWriter, r *http.Request, x *exchange) {
	var p struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := json.Unmarshal(x.req.Params, &p); err != nil || p.Name == "" {
		x.writeError(w, invalidParams("prompts/get: params must be an object with the prompt's name and an object of string arguments"))
		return
	}
	prompt, ok := h.tools.Prompt(p.Name)
	if !ok {
		x.writeError(w, invalidParams(fmt.Sprintf("unknown prompt %s: prompts/list names the prompts", tenderbase.Quote(p.Name))))
		return
	}
	reqinfo.From(r.Context()).Tool = "prompt " + prompt.Name
	res, err := prompt.Get(r.Context(), p.Arguments)
	var argErr *tools.ArgumentError
	switch {
	case errors.As(err, &argErr):
		x.writeError(w, invalidParams(fmt.Sprintf("prompts/get %s: %s", prompt.Name, argErr.Message)))
		return
	case err != nil:
		err = tenderbase.ContextError(r.Context(), err)
		switch tenderbase.ErrorCode(err) {
		case tenderbase.EFORBIDDEN:
			x.writeError(w, &rpcError{status: http.StatusOK, code: codeForbidden,
				message: fmt.Sprintf("prompts/get %s: %s", prompt.Name, tenderbase.ErrorMessage(err))})
		case tenderbase.EINVALID, tenderbase.ENOTFOUND:
			x.writeError(w, invalidParams(fmt.Sprintf("prompts/get %s: %s", prompt.Name, tenderbase.ErrorMessage(err))))
		case tenderbase.ETIMEOUT:
			x.writeError(w, &rpcError{status: http.StatusServiceUnavailable, code: codeTimeout, message: tenderbase.ErrorMessage(err)})
		case tenderbase.EUNAVAILABLE:
			x.writeError(w, h.unavailable(r, err))
		default:
			h.logger.ErrorContext(r.Context(), "prompt failed", "prompt", prompt.Name, "err", err)
			x.writeError(w, &rpcError{status: http.StatusOK, code: codeInternal, message: "internal error"})
		}
		return
	}
	type content struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type message struct {
		Role    string  `json:"role"`
		Content content `json:"content"`
	}
	out := struct {
		Description string    `json:"description"`
		Messages    []message `json:"messages"`
	}{Description: res.Description}
	for _, m := range res.Messages {
		out.Messages = append(out.Messages, message{Role: m.Role, Content: content{Type: "text", Text: m.Text}})
	}
	b, err := marshal(out)
	if err != nil {
		x.writeError(w, &rpcError{status: http.StatusOK, code: codeInternal, message: "internal error"})
		return
	}
	x.writeResult(w, b)
}
