package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/tenderbase/tenderbase/internal/fetch"
)

// request is the body of a chat completion request, in the shape of
// OpenAI's API (POST /v1/chat/completions), which Ollama, vLLM and
// llama.cpp's server take too.
type request struct {
	Model          string          `json:"model"`
	Messages       []message       `json:"messages"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type string `json:"type"`
}

// completion is the part of a chat completion object read: the model
// that answered, the first choice and the usage.
type completion struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// content returns the text of the first choice, or why there is none.
func (r *completion) content() (string, error) {
	if len(r.Choices) == 0 {
		return "", errors.New("the answer has no choices")
	}
	ch := r.Choices[0]
	switch {
	case ch.Message.Refusal != nil && *ch.Message.Refusal != "":
		return "", fmt.Errorf("the model refused: %s", *ch.Message.Refusal)
	case ch.Message.Content == nil || strings.TrimSpace(*ch.Message.Content) == "":
		return "", fmt.Errorf("the answer is empty (finish reason %q)", ch.FinishReason)
	}
	return *ch.Message.Content, nil
}

// complete sends one chat completion request, with its retries, and reads
// the answer. An endpoint that refuses response_format (400 naming it) is
// asked again without it, and from then on always so.
func (c *Client) complete(ctx context.Context, messages []message) (*completion, error) {
	req := request{Model: c.cfg.Model, Messages: messages, MaxTokens: c.cfg.MaxTokens}
	if !c.plainText.Load() {
		req.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	body, err := c.post(ctx, req)
	var status *fetch.StatusError
	if req.ResponseFormat != nil && errors.As(err, &status) && status.Status == http.StatusBadRequest &&
		strings.Contains(status.Body, "response_format") {
		c.logger.Warn("the model's endpoint refuses response_format; asking for JSON in words alone")
		c.plainText.Store(true)
		req.ResponseFormat = nil
		body, err = c.post(ctx, req)
	}
	if err != nil {
		return nil, c.describe(ctx, err)
	}
	var resp completion
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("the model's endpoint answered what is not a chat completion: %w", err)
	}
	return &resp, nil
}

func (c *Client) post(ctx context.Context, req request) ([]byte, error) {
	data, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode the request: %w", err)
	}
	h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}}
	if c.cfg.Key != "" {
		h.Set("Authorization", "Bearer "+c.cfg.Key)
	}
	return c.fetch.Fetch(ctx, fetch.Request{Method: http.MethodPost, URL: c.cfg.URL + "/chat/completions", Header: h, Body: data})
}

// errorMessage returns the message of an OpenAI error body,
// {"error":{"message":...,"type":...,"code":...}}, from the start of it
// that a refusal keeps; "" when it has none.
func errorMessage(body string) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e) == nil {
		return e.Error.Message
	}
	// Cut short: the message is read up to its closing quote, or to the
	// end of what was kept.
	_, rest, ok := strings.Cut(body, `"message":`)
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, ` "`)
	if end := strings.Index(rest, `"`); end >= 0 {
		rest = rest[:end]
	}
	return rest
}
