// Package llm writes the prose of a documentation analysis, the summary
// and the judgement of risks, with a language model behind any
// OpenAI-compatible chat-completions endpoint: a local Ollama, vLLM or
// llama.cpp server, or a hosted one. It sends the model the extracted
// answers and part of the text (prompt.go), asks for statements each
// citing a quote, and counts the tokens and their price.
//
// Requests go through internal/fetch: a rate per minute, a timeout per
// request, retries of 429 (after its Retry-After) and 5xx with jittered
// exponential backoff, a bounded number of attempts, and a circuit breaker
// for an endpoint that keeps failing.
package llm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/fetch"
)

var _ docanalysis.ProseWriter = (*Client)(nil)

// The defaults of a Config's zero fields.
const (
	DefaultTimeout       = 2 * time.Minute
	DefaultRatePerMinute = 20
	DefaultRetries       = 3
	DefaultBudget        = 24000
	DefaultMaxTokens     = 2000
	// MinBudget is the smallest character budget: less leaves the model
	// too little text to quote.
	MinBudget = 2000
)

// Config says which model writes the prose and how it is asked.
type Config struct {
	// URL is the base of the API, before /chat/completions:
	// http://localhost:11434/v1 for Ollama, https://api.openai.com/v1.
	URL   string
	Model string
	// Key, when set, is sent as the bearer token.
	Key string
	// Timeout bounds one request, from sending to the last byte of the
	// answer.
	Timeout       time.Duration
	RatePerMinute int
	// Retries is how many times a request refused with 429 or 5xx, or
	// timed out, is sent again; zero is never (cmd's default is
	// DefaultRetries).
	Retries int
	// Backoff is the wait before the first retry, doubled for each next
	// one up to MaxBackoff, which also bounds a wait Retry-After asks for.
	// Zero is 1s and 30s.
	Backoff, MaxBackoff time.Duration
	// PriceIn and PriceOut are the prices of a million prompt and
	// completion tokens, in millionths of a US dollar (ParsePrice).
	PriceIn, PriceOut int64
	// Budget is how many characters of the documentation are sent.
	Budget int
	// MaxTokens bounds the tokens of one answer, and so its cost.
	MaxTokens int
}

// Client is a ProseWriter over one endpoint and model. It is safe for
// concurrent use.
type Client struct {
	cfg    Config
	fetch  *fetch.Client
	logger *slog.Logger
	// plainText is set once the endpoint refused response_format, which
	// is then left out of every request.
	plainText atomic.Bool
}

// New returns the client of cfg, or an EINVALID error saying what in cfg
// is wrong. A nil logger discards.
func New(cfg Config, logger *slog.Logger) (*Client, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	fc := fetch.Config{
		Rate: float64(cfg.RatePerMinute) / 60, Burst: 1, Concurrency: 4,
		Timeout: cfg.Timeout, Attempts: cfg.Retries + 1,
		MinBackoff: cfg.Backoff, MaxBackoff: cfg.MaxBackoff,
		MaxBytes: 8 << 20, UserAgent: "tenderbase",
	}
	return &Client{cfg: cfg, fetch: fetch.New("llm", fc, nil, logger), logger: logger.With("model", cfg.Model)}, nil
}

// Check says what in cfg is wrong, as an EINVALID error; nil when New
// would take it. It asks no network.
func (cfg Config) Check() error {
	u, err := url.Parse(cfg.URL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "the model's URL %q: want the http or https base of an OpenAI-compatible API, such as http://localhost:11434/v1",
			tenderbase.RedactURL(cfg.URL))
	case strings.TrimSpace(cfg.Model) == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "no model named: give the model the endpoint serves, such as qwen2.5:14b")
	case cfg.Budget != 0 && cfg.Budget < MinBudget:
		return tenderbase.Errorf(tenderbase.EINVALID, "a budget of %d characters: give at least %d", cfg.Budget, MinBudget)
	case cfg.RatePerMinute < 0, cfg.Retries < 0, cfg.MaxTokens < 0, cfg.PriceIn < 0, cfg.PriceOut < 0, cfg.Timeout < 0:
		return tenderbase.Errorf(tenderbase.EINVALID, "the model's rate, retries, tokens, prices and timeout cannot be negative")
	}
	return nil
}

func (cfg Config) withDefaults() Config {
	cfg.URL = strings.TrimSuffix(cfg.URL, "/")
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.RatePerMinute == 0 {
		cfg.RatePerMinute = DefaultRatePerMinute
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = time.Second
	}
	if cfg.MaxBackoff == 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.Budget == 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	return cfg
}

// Model returns the model the client asks for.
func (c *Client) Model() string { return c.cfg.Model }

// Endpoint returns the URL of the API, for a log line.
func (c *Client) Endpoint() string { return tenderbase.RedactURL(c.cfg.URL) }

// repairs is how many times an answer that is not the JSON asked for is
// sent back to the model to be given again.
const repairs = 1

// WriteProse asks the model for the summary and the risks of the
// documentation, as docanalysis.ProseWriter says. An answer that is not
// the JSON asked for is sent back once with what is wrong with it; the
// tokens of every answer count. The statements are those the answer gave
// with a text and a quote; AnalyzeWith checks that the quotes stand in the
// text.
func (c *Client) WriteProse(ctx context.Context, a docanalysis.Analysis, files []docanalysis.File) (docanalysis.Prose, error) {
	p := docanalysis.Prose{Model: c.cfg.Model}
	messages := []message{
		{Role: "system", Content: systemPrompt},
		{Role: "user", Content: userPrompt(a, files, c.cfg.Budget)},
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.complete(ctx, messages)
		if err != nil {
			return p, err
		}
		c.count(&p, resp)
		content, err := resp.content()
		if err == nil {
			var claims answer
			if claims, err = parseAnswer(content); err == nil {
				p.Summary, p.Risks, p.Dropped = claims.summary, claims.risks, claims.dropped
				return p, nil
			}
		}
		if attempt == repairs {
			return p, fmt.Errorf("the model's answer is not the JSON asked for: %w", err)
		}
		c.logger.Warn("the model's answer is not the JSON asked for; asking again", "err", err)
		messages = append(messages,
			message{Role: "assistant", Content: content},
			message{Role: "user", Content: fmt.Sprintf(repairPrompt, err)})
	}
}

// count adds the usage of resp to p, and its price.
func (c *Client) count(p *docanalysis.Prose, resp *completion) {
	if resp.Model != "" {
		p.Model = resp.Model
	}
	if resp.Usage == nil {
		c.logger.Warn("the model's answer reports no usage: its tokens are not counted")
		return
	}
	p.Usage.PromptTokens += resp.Usage.PromptTokens
	p.Usage.CompletionTokens += resp.Usage.CompletionTokens
	p.Usage.CostMicroUSD = Cost(p.Usage.PromptTokens, c.cfg.PriceIn) + Cost(p.Usage.CompletionTokens, c.cfg.PriceOut)
}

// describe turns the error of a request into what an analysis's note
// says: the endpoint's own message where it gave one, and never the key.
func (c *Client) describe(ctx context.Context, err error) error {
	var status *fetch.StatusError
	switch {
	case ctx.Err() != nil:
		return err
	case errors.As(err, &status):
		msg := status.Body
		if m := errorMessage(status.Body); m != "" {
			msg = m
		}
		times := ""
		if status.Status == http.StatusTooManyRequests || status.Status >= 500 && status.Status != http.StatusNotImplemented {
			times = c.times()
		}
		return fmt.Errorf("the model's endpoint answered %d %s%s: %s", status.Status, http.StatusText(status.Status), times, msg)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the model did not answer within %s%s", c.cfg.Timeout, c.times())
	case errors.Is(err, fetch.ErrBroken):
		return fmt.Errorf("the model's endpoint failed too often just now and is not asked again for a while: %w", err)
	}
	return fmt.Errorf("asking the model: %w", err)
}

// times says how often a request that failed every attempt was sent.
func (c *Client) times() string {
	if c.cfg.Retries == 0 {
		return ""
	}
	return fmt.Sprintf(" (asked %d times)", c.cfg.Retries+1)
}
