package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/llm"
)

// llmConfig is the language model that writes the prose of the
// documentation analyses (docs/analysis.md); an empty URL is none, and
// the analyses are extraction alone.
type llmConfig struct {
	LLM llm.Config
	// keyFile names a file holding the key, read by finish.
	keyFile string
}

// llmFlags adds the flags of the model to fs, each of whose defaults is
// its environment variable's value, or else llm's.
func (c *cli) llmFlags(fs *flag.FlagSet, lc *llmConfig) error {
	m := &lc.LLM
	fs.StringVar(&m.URL, "llm-url", c.getenv("TENDERBASE_LLM_URL"),
		"base `URL` of the OpenAI-compatible API that writes the analyses' summary and risks, such as http://localhost:11434/v1; none by default (env TENDERBASE_LLM_URL)")
	fs.StringVar(&m.Model, "llm-model", c.getenv("TENDERBASE_LLM_MODEL"), "`NAME` of the model the endpoint serves (env TENDERBASE_LLM_MODEL)")
	fs.StringVar(&lc.keyFile, "llm-key-file", c.getenv("TENDERBASE_LLM_KEY_FILE"),
		"`PATH` of a file holding the endpoint's API key (else env TENDERBASE_LLM_KEY; env TENDERBASE_LLM_KEY_FILE)")
	errs := []error{c.durationVar(fs, &m.Timeout, "llm-timeout", "TENDERBASE_LLM_TIMEOUT", llm.DefaultTimeout,
		"`DURATION` one request to the model may take (env TENDERBASE_LLM_TIMEOUT)")}
	for _, f := range []struct {
		name, env, usage string
		p                *int
		def              int
	}{
		{"llm-rpm", "TENDERBASE_LLM_RPM", "`N` requests a minute sent to the model", &m.RatePerMinute, llm.DefaultRatePerMinute},
		{"llm-retries", "TENDERBASE_LLM_RETRIES", "`N` times a request the model refused with 429 or 5xx, or did not answer in time, is sent again", &m.Retries, llm.DefaultRetries},
		{"llm-budget", "TENDERBASE_LLM_BUDGET", "`N` characters of the documentation sent with each analysis", &m.Budget, llm.DefaultBudget},
		{"llm-max-tokens", "TENDERBASE_LLM_MAX_TOKENS", "`N` tokens the model may write in one answer", &m.MaxTokens, llm.DefaultMaxTokens},
	} {
		n, err := c.envInt(f.env, f.def)
		errs = append(errs, err)
		fs.IntVar(f.p, f.name, n, fmt.Sprintf("%s (env %s)", f.usage, f.env))
	}
	for _, f := range []struct {
		name, env, what string
		p               *int64
	}{
		{"llm-price-in", "TENDERBASE_LLM_PRICE_IN", "prompt", &m.PriceIn},
		{"llm-price-out", "TENDERBASE_LLM_PRICE_OUT", "completion", &m.PriceOut},
	} {
		if v := c.getenv(f.env); v != "" {
			n, err := llm.ParsePrice(v)
			if err != nil {
				err = fmt.Errorf("%s=%s: %w", f.env, v, err)
			}
			errs, *f.p = append(errs, err), n
		}
		fs.Var(price{f.p}, f.name, fmt.Sprintf("`USD` a million %s tokens cost, such as 0.15, for the analyses' cost; 0 by default (env %s)", f.what, f.env))
	}
	return errors.Join(errs...)
}

// finish reads the key and checks the configuration. A model named with
// no URL, or a URL with no model, is a mistake to say at once.
func (c *cli) finishLLM(lc *llmConfig) error {
	m := &lc.LLM
	m.Key = strings.TrimSpace(c.getenv("TENDERBASE_LLM_KEY"))
	if lc.keyFile != "" {
		b, err := os.ReadFile(lc.keyFile)
		if err != nil {
			return tenderbase.Errorf(tenderbase.EINVALID, "read the model's API key: %v", err)
		}
		m.Key = strings.TrimSpace(string(b))
	}
	if m.URL == "" {
		if m.Model != "" {
			return tenderbase.Errorf(tenderbase.EINVALID, "--llm-model %s without --llm-url: give the endpoint that serves it", m.Model)
		}
		return nil
	}
	if m.RatePerMinute < 1 {
		return tenderbase.Errorf(tenderbase.EINVALID, "--llm-rpm %d: give at least 1", m.RatePerMinute)
	}
	if err := m.Check(); err != nil {
		return fmt.Errorf("--llm-url: %w", err)
	}
	return nil
}

// proseWriter returns the writer of the analyses' prose, nil with no model
// configured, and logs which it is.
func (lc llmConfig) proseWriter(logger *slog.Logger) (docanalysis.ProseWriter, error) {
	if lc.LLM.URL == "" {
		logger.Info("no language model: documentation analyses are extraction alone; --llm-url and --llm-model add their summary and risks (docs/analysis.md)")
		return nil, nil
	}
	w, err := llm.New(lc.LLM, logger)
	if err != nil {
		return nil, err
	}
	logger.Info("documentation analyses' summary and risks by a language model", "endpoint", w.Endpoint(), "model", w.Model(),
		"rpm", lc.LLM.RatePerMinute, "budget", lc.LLM.Budget)
	return w, nil
}

// price is the flag value of a price in US dollars, kept in millionths.
type price struct{ p *int64 }

func (v price) String() string {
	if v.p == nil || *v.p == 0 {
		return ""
	}
	s := strconv.FormatInt(*v.p/1_000_000, 10) + "." + fmt.Sprintf("%06d", *v.p%1_000_000)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

func (v price) Set(s string) error {
	n, err := llm.ParsePrice(s)
	if err == nil {
		*v.p = n
	}
	return err
}
