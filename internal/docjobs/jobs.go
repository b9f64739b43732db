package docjobs

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tenderbase/tenderbase"
)

// JobRequest is what a CRM asks of a job: one purchase number to
// analyse, or two to five to compare, and where to post the result.
type JobRequest struct {
	PurchaseNumbers []string
	WebhookURL      string
}

// CreateJob makes a job for the caller of key. When every tender's
// analysis of its documentation as it stands is stored, the job is done
// at once, counting nothing; else it is queued for Run. The job is
// returned with its secret, which signs its webhook and is shown only
// now.
func (s *Service) CreateJob(ctx context.Context, key tenderbase.Key, req JobRequest) (tenderbase.AnalysisJob, error) {
	if err := Allowed(key.Plan); err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	numbers, err := checkNumbers(req.PurchaseNumbers, 1)
	if err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	if req.WebhookURL != "" {
		if err := s.cfg.WebhookPolicy.CheckURL(req.WebhookURL); err != nil {
			return tenderbase.AnalysisJob{}, err
		}
	}
	secret, err := tenderbase.NewSubscriptionSecret()
	if err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	now := s.cfg.Now().UTC()
	j := tenderbase.AnalysisJob{Account: key.Account, KeyID: key.ID, Plan: key.Plan, PurchaseNumbers: numbers,
		State: tenderbase.JobQueued, WebhookURL: req.WebhookURL, Secret: secret, CreatedAt: now, UpdatedAt: now}
	if result, ok, err := s.fromStore(ctx, key, numbers); err != nil {
		return tenderbase.AnalysisJob{}, err
	} else if ok {
		s.finish(&j, result, nil)
	}
	j, err = s.cfg.Analyses.CreateAnalysisJob(ctx, j)
	if err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	s.cfg.Logger.Info("analysis job created", "job", j.ID, "account", j.Account, "purchases", numbers, "state", j.State)
	s.Wake()
	return j, nil
}

// fromStore returns a job's result when every analysis it needs is
// stored for the documentation as it stands: a repeat counts nothing.
func (s *Service) fromStore(ctx context.Context, key tenderbase.Key, numbers []string) (json.RawMessage, bool, error) {
	for _, n := range numbers {
		doc, err := ReadDocumentation(ctx, s.cfg.Store, n, s.cfg.AnalyzerID)
		if err != nil {
			return nil, false, err
		}
		if _, err := s.cfg.Analyses.Analysis(ctx, n, doc.Version); tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND {
			return nil, false, nil
		} else if err != nil {
			return nil, false, err
		}
	}
	result, err := s.result(ctx, key, numbers)
	return result, err == nil, err
}

// result makes, or reads from the store, a job's result.
func (s *Service) result(ctx context.Context, key tenderbase.Key, numbers []string) (json.RawMessage, error) {
	var v any
	var err error
	if len(numbers) == 1 {
		v, err = s.analyze(ctx, key, numbers[0])
	} else {
		v, err = s.compare(ctx, key, numbers)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// finish sets a job's end: its result, or the error it failed with.
func (s *Service) finish(j *tenderbase.AnalysisJob, result json.RawMessage, err error) {
	j.State, j.Result, j.Error = tenderbase.JobDone, result, ""
	if err != nil {
		j.State, j.Result, j.Error = tenderbase.JobFailed, nil, tenderbase.ErrorMessage(err)
	}
	if j.WebhookURL != "" {
		j.Webhook = tenderbase.WebhookPending
	}
	j.UpdatedAt = s.cfg.Now().UTC()
}

// Job returns a job of the caller's account.
func (s *Service) Job(ctx context.Context, key tenderbase.Key, id string) (tenderbase.AnalysisJob, error) {
	if err := Allowed(key.Plan); err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	if !tenderbase.Holdable(id) || id == "" {
		return tenderbase.AnalysisJob{}, tenderbase.NoAnalysisJob(id)
	}
	return s.cfg.Analyses.AnalysisJob(ctx, key.Account, id)
}

// Wake tells Run that a job came.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run runs the jobs until ctx ends: at start those a stop left queued,
// running or with a webhook to post, then each job made, or found at the
// next poll. One job runs at a time.
func (s *Service) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.wake:
		case <-timer.C:
		}
		if err := s.RunPending(ctx); err != nil && ctx.Err() == nil {
			s.cfg.Logger.Warn("analysis jobs", "err", err)
		}
		timer.Reset(s.cfg.Poll)
	}
}

// RunPending runs every job not finished, oldest first, and returns when
// none is left or ctx ends.
func (s *Service) RunPending(ctx context.Context) error {
	jobs, err := s.cfg.Analyses.UnfinishedAnalysisJobs(ctx)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			return nil
		}
		s.mu.Lock()
		busy := s.busy[j.ID]
		s.busy[j.ID] = true
		s.mu.Unlock()
		if busy {
			continue
		}
		err := s.runJob(ctx, j)
		s.mu.Lock()
		delete(s.busy, j.ID)
		s.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

// runJob runs one job to its end and posts its webhook. A stop in the
// middle leaves it running or pending, to be run again at the next start.
func (s *Service) runJob(ctx context.Context, j tenderbase.AnalysisJob) error {
	if j.State == tenderbase.JobQueued || j.State == tenderbase.JobRunning {
		j.State, j.UpdatedAt = tenderbase.JobRunning, s.cfg.Now().UTC()
		if err := s.cfg.Analyses.UpdateAnalysisJob(ctx, j); err != nil {
			return err
		}
		key := tenderbase.Key{ID: j.KeyID, Account: j.Account, Plan: j.Plan}
		result, err := s.result(ctx, key, j.PurchaseNumbers)
		if ctx.Err() != nil {
			return nil // run again at the next start
		}
		if err != nil && tenderbase.ErrorCode(err) == tenderbase.EINTERNAL {
			s.cfg.Logger.Error("analysis job failed", "job", j.ID, "err", err)
			err = tenderbase.Errorf(tenderbase.EINTERNAL, "the analysis failed; the service logged why")
		}
		s.finish(&j, result, err)
		if err := s.cfg.Analyses.UpdateAnalysisJob(ctx, j); err != nil {
			return err
		}
		s.cfg.Logger.Info("analysis job ended", "job", j.ID, "state", j.State)
	}
	if j.Webhook == tenderbase.WebhookPending {
		return s.deliver(ctx, j)
	}
	return nil
}

// deliver posts a job to its webhook, signed with its secret, trying again
// after a failure that may pass, and stores how it went.
func (s *Service) deliver(ctx context.Context, j tenderbase.AnalysisJob) error {
	body, err := json.Marshal(j)
	if err != nil {
		return err
	}
	for n := 1; ; n++ {
		err = s.cfg.Webhooks.Send(ctx, j.WebhookURL, j.ID, j.Secret, body)
		if ctx.Err() != nil {
			return nil
		}
		if err == nil {
			j.Webhook, j.WebhookError = tenderbase.WebhookDelivered, ""
			break
		}
		j.WebhookError = err.Error()
		s.cfg.Logger.Warn("analysis job's webhook not delivered", "job", j.ID, "attempt", n, "err", err)
		if tenderbase.IsUndeliverable(err) || n >= s.cfg.WebhookAttempts {
			j.Webhook = tenderbase.WebhookFailed
			break
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(s.cfg.Backoff(n)):
		}
	}
	j.UpdatedAt = s.cfg.Now().UTC()
	return s.cfg.Analyses.UpdateAnalysisJob(ctx, j)
}
