package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/llm"
)

// TestServeLLMConfig checks how serve reads the model of the analyses:
// flags over environment variables over the defaults, the key from the
// environment or a file and never a flag, and a mistake is a usage error
// that says what is wrong.
func TestServeLLMConfig(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte("sk-from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	defaults := llm.Config{Timeout: llm.DefaultTimeout, RatePerMinute: llm.DefaultRatePerMinute, Retries: llm.DefaultRetries,
		Budget: llm.DefaultBudget, MaxTokens: llm.DefaultMaxTokens}
	with := func(f func(*llm.Config)) llm.Config {
		c := defaults
		f(&c)
		return c
	}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want llm.Config
		err  string // in stderr, for a usage error
	}{
		{name: "none", want: defaults},
		{name: "environment", env: map[string]string{
			"TENDERBASE_LLM_URL": "http://localhost:11434/v1", "TENDERBASE_LLM_MODEL": "qwen2.5:14b", "TENDERBASE_LLM_KEY": " sk-env ",
			"TENDERBASE_LLM_TIMEOUT": "90s", "TENDERBASE_LLM_RPM": "6", "TENDERBASE_LLM_RETRIES": "0",
			"TENDERBASE_LLM_PRICE_IN": "0.15", "TENDERBASE_LLM_PRICE_OUT": "0.6", "TENDERBASE_LLM_BUDGET": "12000", "TENDERBASE_LLM_MAX_TOKENS": "800",
		}, want: llm.Config{URL: "http://localhost:11434/v1", Model: "qwen2.5:14b", Key: "sk-env", Timeout: 90 * time.Second,
			RatePerMinute: 6, Retries: 0, PriceIn: 150_000, PriceOut: 600_000, Budget: 12000, MaxTokens: 800}},
		{name: "flags", env: map[string]string{"TENDERBASE_LLM_URL": "http://localhost:11434/v1", "TENDERBASE_LLM_MODEL": "qwen2.5:14b", "TENDERBASE_LLM_KEY": "sk-env"},
			args: []string{"--llm-url", "https://api.openai.com/v1", "--llm-model", "gpt-4o-mini", "--llm-key-file", keyFile,
				"--llm-price-in", "0.15", "--llm-rpm", "30", "--llm-timeout", "1m"},
			want: with(func(c *llm.Config) {
				c.URL, c.Model, c.Key, c.PriceIn, c.RatePerMinute, c.Timeout = "https://api.openai.com/v1", "gpt-4o-mini", "sk-from-file", 150_000, 30, time.Minute
			})},
		{name: "model without URL", args: []string{"--llm-model", "m"}, err: "--llm-model m without --llm-url"},
		{name: "URL without model", args: []string{"--llm-url", "http://localhost:11434/v1"}, err: "no model named"},
		{name: "not an http URL", args: []string{"--llm-url", "localhost:11434", "--llm-model", "m"}, err: "want the http or https base"},
		{name: "price", env: map[string]string{"TENDERBASE_LLM_PRICE_OUT": "ten"}, err: `TENDERBASE_LLM_PRICE_OUT=ten: "ten" is not a price`},
		{name: "price flag", args: []string{"--llm-price-in", "-1"}, err: "invalid value"},
		{name: "rate", args: []string{"--llm-url", "http://h/v1", "--llm-model", "m", "--llm-rpm", "0"}, err: "--llm-rpm 0: give at least 1"},
		{name: "budget", args: []string{"--llm-url", "http://h/v1", "--llm-model", "m", "--llm-budget", "10"}, err: "a budget of 10 characters"},
		{name: "key file", args: []string{"--llm-url", "http://h/v1", "--llm-model", "m", "--llm-key-file", filepath.Join(t.TempDir(), "none")}, err: "read the model's API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			c := &cli{stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return tt.env[k] }}
			cfg, code, ok := c.parseServe(tt.args)
			if tt.err != "" {
				if ok || code != exitUsage || !strings.Contains(stderr.String(), tt.err) {
					t.Errorf("exit %d (%v), want %d saying %q; stderr:\n%s", code, ok, exitUsage, tt.err, stderr.String())
				}
				return
			}
			if !ok {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if diff := cmp.Diff(tt.want, cfg.LLM.LLM); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			w, err := cfg.LLM.proseWriter(slog.New(slog.DiscardHandler))
			if err != nil || (w == nil) != (tt.want.URL == "") {
				t.Errorf("writer %v, %v; want one when a URL is given", w, err)
			}
		})
	}
}

// TestAnalyzerTakesTheModel checks that the analyser serve wires into the
// analyses is the extraction alone with no model, saying the prose needs
// one, and names the model when one is configured, so that configuring or
// changing it makes the stored analyses again.
func TestAnalyzerTakesTheModel(t *testing.T) {
	files := []docanalysis.File{{Name: "notice.txt", Text: "Обеспечение заявки не требуется."}}
	a, err := analyzer(nil)(t.Context(), files)
	if err != nil {
		t.Fatal(err)
	}
	if a.ProseNote != docanalysis.NoModelNote || a.Prose != nil {
		t.Errorf("with no model: prose %v, note %q; want none and %q", a.Prose, a.ProseNote, docanalysis.NoModelNote)
	}
	if got := analyzerID(nil); got != "rules-1" {
		t.Errorf("analyzerID(nil) = %q, want rules-1", got)
	}
	w, err := llm.New(llm.Config{URL: "http://127.0.0.1:1/v1", Model: "qwen2.5:7b", Timeout: time.Second, RatePerMinute: 60,
		Budget: llm.DefaultBudget, MaxTokens: llm.DefaultMaxTokens}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if got := analyzerID(w); got != "rules-1+qwen2.5:7b" {
		t.Errorf("analyzerID(model) = %q, want rules-1+qwen2.5:7b", got)
	}
}
