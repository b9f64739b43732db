// Package docjobs delivers the analysis of a tender's documentation: it
// gathers the whole documentation of a purchase number from the store,
// has it analysed by the analyser cmd gives it, keeps the analysis with
// the version of the documentation it read and serves it again while that
// version stands, counts the analyses made against each account's monthly
// allowance, lines up two to five tenders side by side, and runs the jobs
// a CRM makes over HTTP, posting each result to a signed webhook.
package docjobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

// Analyzer analyses the files of one tender: docanalysis.Analyze wrapped,
// or, once a model is configured, the extraction with the model's prose.
type Analyzer func(ctx context.Context, files []docanalysis.File) (docanalysis.Analysis, error)

// DefaultTimeout bounds one analysis unless Config.Timeout says otherwise.
const DefaultTimeout = 2 * time.Minute

// MaxCompared is the most tenders one comparison lines up.
const MaxCompared = 5

// Config configures a Service.
type Config struct {
	// Store holds the docs read.
	Store tenderbase.Store
	// Analyses keeps the analyses, the counts and the jobs.
	Analyses tenderbase.AnalysisStore
	Analyze  Analyzer
	// AnalyzerID names the analyser ("rules"); it is part of the version
	// of an analysis, so that another analyser makes the analyses again.
	AnalyzerID string
	// Timeout bounds one analysis; default DefaultTimeout.
	Timeout time.Duration
	// Webhooks posts the jobs' results; WebhookPolicy says where a job's
	// webhook may point, checked when the job is made.
	Webhooks      *webhook.Sender
	WebhookPolicy webhook.Policy
	// WebhookAttempts is how many times a webhook is tried; default 5.
	WebhookAttempts int
	// Backoff is the wait before attempt n (from 1) of a webhook; default
	// 10s times 3^(n-1).
	Backoff func(n int) time.Duration
	// Poll is how often the runner looks for jobs it was not told of;
	// default a minute.
	Poll   time.Duration
	Now    func() time.Time
	Logger *slog.Logger
}

// Service delivers analyses. It is safe for concurrent use.
type Service struct {
	cfg  Config
	wake chan struct{}
	mu   sync.Mutex
	busy map[string]bool // the jobs being run
}

// New returns a Service.
func New(cfg Config) *Service {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.WebhookAttempts <= 0 {
		cfg.WebhookAttempts = 5
	}
	if cfg.Backoff == nil {
		cfg.Backoff = func(n int) time.Duration {
			d := 10 * time.Second
			for range n - 1 {
				d *= 3
			}
			return d
		}
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Service{cfg: cfg, wake: make(chan struct{}, 1), busy: map[string]bool{}}
}

// Allowed refuses, with an EFORBIDDEN error naming the plans that have
// it, a plan without the analysis of documentation.
func Allowed(p tenderbase.Plan) error {
	if l, ok := tenderbase.Plans[p]; ok && l.DocumentAnalysis {
		return nil
	}
	return tenderbase.Errorf(tenderbase.EFORBIDDEN,
		"the analysis of documentation is part of the guru and corporate plans; your plan is %s", cmpPlan(p))
}

func cmpPlan(p tenderbase.Plan) tenderbase.Plan {
	if p == "" {
		return tenderbase.PlanFree
	}
	return p
}

// Analyze returns the analysis of one tender for the caller of key: the
// stored one when its documentation has not changed since, else one made
// now and counted against the account's allowance.
func (s *Service) Analyze(ctx context.Context, key tenderbase.Key, number string) (Result, error) {
	if err := Allowed(key.Plan); err != nil {
		return Result{}, err
	}
	number, err := checkNumber(number)
	if err != nil {
		return Result{}, err
	}
	return s.analyze(ctx, key, number)
}

func (s *Service) analyze(ctx context.Context, key tenderbase.Key, number string) (Result, error) {
	doc, err := ReadDocumentation(ctx, s.cfg.Store, number, s.cfg.AnalyzerID)
	if err != nil {
		return Result{}, err
	}
	stored, err := s.cfg.Analyses.Analysis(ctx, number, doc.Version)
	switch {
	case err == nil:
		var a docanalysis.Analysis
		if err := json.Unmarshal(stored.Body, &a); err != nil {
			return Result{}, fmt.Errorf("stored analysis of %s: %w", number, err)
		}
		r := resultOf(number, doc.Version, stored.MadeAt, a)
		r.FromStore = true
		return r, nil
	case tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND:
		return Result{}, err
	}
	// The stores keep the time to the millisecond: the answer made now
	// says the time the one served again will say.
	now := s.cfg.Now().UTC().Truncate(time.Millisecond)
	month, allowance := tenderbase.AnalysisMonth(now), tenderbase.Plans[key.Plan].AnalysesPerMonth
	if _, err := s.cfg.Analyses.CountAnalysis(ctx, key.Account, month, 1, allowance, key.Plan, now); err != nil {
		return Result{}, err
	}
	a, err := s.run(ctx, number, doc.Files)
	if err == nil && a.ProseFailed {
		// The model failed: the answer has the extraction and says so,
		// but is not kept, so that the next request asks the model
		// again, and it is not counted.
		s.giveBack(ctx, key, month, allowance, now)
		s.cfg.Logger.Warn("documentation analysed without its prose", "purchase", number, "note", a.ProseNote)
		return resultOf(number, doc.Version, now, a), nil
	}
	if err == nil {
		var body []byte
		if body, err = json.Marshal(a); err == nil {
			err = s.cfg.Analyses.PutAnalysis(ctx, tenderbase.StoredAnalysis{PurchaseNumber: number, Version: doc.Version, Body: body, MadeAt: now})
		}
	}
	if err != nil {
		s.giveBack(ctx, key, month, allowance, now)
		return Result{}, err
	}
	s.cfg.Logger.Info("documentation analysed", "purchase", number, "account", key.Account, "files", len(doc.Files), "version", doc.Version)
	return resultOf(number, doc.Version, now, a), nil
}

// giveBack uncounts an analysis that failed; a context already ended gets
// a context of its own for it.
func (s *Service) giveBack(ctx context.Context, key tenderbase.Key, month string, allowance int, now time.Time) {
	back, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := s.cfg.Analyses.CountAnalysis(back, key.Account, month, -1, allowance, key.Plan, now); err != nil {
		s.cfg.Logger.Warn("an analysis that failed was not given back", "account", key.Account, "err", err)
	}
}

// run runs the analyser within the timeout.
func (s *Service) run(ctx context.Context, number string, files []docanalysis.File) (docanalysis.Analysis, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, s.cfg.Timeout, errAnalysisTimeout)
	defer cancel()
	a, err := s.cfg.Analyze(ctx, files)
	if errors.Is(context.Cause(ctx), errAnalysisTimeout) {
		return docanalysis.Analysis{}, tenderbase.Errorf(tenderbase.ETIMEOUT,
			"the analysis of %s took longer than the %s one analysis is given", number, s.cfg.Timeout)
	}
	if err != nil {
		return docanalysis.Analysis{}, fmt.Errorf("analyse %s: %w", number, err)
	}
	return a, nil
}

var errAnalysisTimeout = errors.New("the analysis ran out of time")

// Compare analyses two to five tenders and lines their answers up.
func (s *Service) Compare(ctx context.Context, key tenderbase.Key, numbers []string) (Comparison, error) {
	if err := Allowed(key.Plan); err != nil {
		return Comparison{}, err
	}
	numbers, err := checkNumbers(numbers, 2)
	if err != nil {
		return Comparison{}, err
	}
	return s.compare(ctx, key, numbers)
}

func (s *Service) compare(ctx context.Context, key tenderbase.Key, numbers []string) (Comparison, error) {
	var results []Result
	for _, n := range numbers {
		r, err := s.analyze(ctx, key, n)
		if err != nil {
			return Comparison{}, err
		}
		results = append(results, r)
	}
	return comparisonOf(results), nil
}

// checkNumber trims a purchase number and refuses one that is no number.
func checkNumber(n string) (string, error) {
	n = strings.TrimSpace(n)
	switch {
	case n == "":
		return "", tenderbase.Errorf(tenderbase.EINVALID, "a purchase number is required")
	case len(n) > 40 || strings.ContainsFunc(n, func(r rune) bool { return r < '0' || r > '9' }):
		return "", tenderbase.Errorf(tenderbase.EINVALID,
			"purchase number %s is not one: 19 digits under 44-FZ, 11 under 223-FZ", tenderbase.Quote(cut(n, 40)))
	}
	return n, nil
}

// checkNumbers checks the purchase numbers of a comparison or a job: at
// least least, at most MaxCompared, no two alike.
func checkNumbers(numbers []string, least int) ([]string, error) {
	var out []string
	for _, n := range numbers {
		n, err := checkNumber(n)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, n) {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "purchase number %s is named twice", n)
		}
		out = append(out, n)
	}
	if len(out) < least || len(out) > MaxCompared {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "a comparison lines up 2 to %d tenders; %d purchase numbers given", MaxCompared, len(out))
	}
	return out, nil
}
