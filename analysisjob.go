package tenderbase

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// StoredAnalysis is an analysis of one tender's documentation as the store
// keeps it: the version of the documentation it read, so that it is served
// again while that version stands, and made again once a notice's new
// version changes the files.
type StoredAnalysis struct {
	PurchaseNumber string
	// Version names the documentation read: a hash of the analyser and
	// of each doc's id, address and text (internal/docjobs).
	Version string
	// Body is the analysis, as JSON.
	Body   json.RawMessage
	MadeAt time.Time
}

// The states of an analysis job.
const (
	JobQueued  = "queued"
	JobRunning = "running"
	JobDone    = "done"
	JobFailed  = "failed"
)

// The states of a job's webhook.
const (
	WebhookPending   = "pending"
	WebhookDelivered = "delivered"
	WebhookFailed    = "failed"
)

// AnalysisJob is a request to analyse the documentation of one tender, or
// to compare two to five, that a CRM makes over HTTP and polls, or is told
// of by a webhook when it is ready.
type AnalysisJob struct {
	ID      string `json:"id"`
	Account string `json:"-"`
	// KeyID is the key that made the job; its plan counts the analyses.
	KeyID           string   `json:"-"`
	Plan            Plan     `json:"-"`
	PurchaseNumbers []string `json:"purchase_numbers"`
	State           string   `json:"state"`
	// Error says why a failed job failed.
	Error string `json:"error,omitempty"`
	// Result is the analysis, or the comparison, once done.
	Result json.RawMessage `json:"result,omitempty"`
	// WebhookURL is where the result is posted when the job ends, signed
	// with Secret as the subscriptions' webhooks are.
	WebhookURL string `json:"webhook_url,omitempty"`
	Secret     string `json:"-"`
	// Webhook is the state of the delivery: pending, delivered or failed.
	Webhook      string    `json:"webhook,omitempty"`
	WebhookError string    `json:"webhook_error,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// Finished reports whether the job has nothing more to do: it ended, and
// its webhook, if any, was delivered or given up.
func (j AnalysisJob) Finished() bool {
	return (j.State == JobDone || j.State == JobFailed) && j.Webhook != WebhookPending
}

// NewAnalysisJobID draws a job id.
func NewAnalysisJobID() (string, error) {
	hexID, err := randomHex(8)
	return "aj_" + hexID, err
}

// NoAnalysisJob returns the error of a job id the account has none of.
func NoAnalysisJob(id string) error {
	return Errorf(ENOTFOUND, "no analysis job with id %s", Quote(id))
}

// AnalysisMonth names the month an analysis made at t is counted in, UTC:
// "2026-12".
func AnalysisMonth(t time.Time) string { return t.UTC().Format("2006-01") }

// AnalysisAllowanceUsed returns the error of an account that made every
// analysis its plan allows this month.
func AnalysisAllowanceUsed(p Plan, allowance int, month string, t time.Time) error {
	next := time.Date(t.UTC().Year(), t.UTC().Month()+1, 1, 0, 0, 0, 0, time.UTC)
	return Errorf(ERATELIMITED,
		"the %s plan allows %d analyses of documentation a month and this account has made them all in %s; "+
			"the allowance renews on %s; an analysis made already, of documentation that did not change since, is served without counting",
		p, allowance, month, next.Format("2006-01-02"))
}

// AnalysisStore keeps the analyses of documentation, the monthly count of
// the analyses each account made, and the analysis jobs.
//
// Errors: ENOTFOUND for an analysis or job not stored; ERATELIMITED from
// CountAnalysis for an account past its allowance.
type AnalysisStore interface {
	// Analysis returns the analysis of purchase number made of version of
	// its documentation, or ENOTFOUND.
	Analysis(ctx context.Context, purchaseNumber, version string) (StoredAnalysis, error)
	// PutAnalysis stores a, replacing one of the same purchase number and
	// version.
	PutAnalysis(ctx context.Context, a StoredAnalysis) error
	// CountAnalysis adds n (1, or -1 to give back one that failed) to the
	// analyses account made in month, and returns the new count. An add
	// that would pass allowance changes nothing and is an ERATELIMITED
	// error (AnalysisAllowanceUsed); two adds at once cannot both take the
	// last one.
	CountAnalysis(ctx context.Context, account, month string, n, allowance int, plan Plan, at time.Time) (int, error)
	// AnalysesMade returns how many analyses account made in month.
	AnalysesMade(ctx context.Context, account, month string) (int, error)
	// CreateAnalysisJob stores j as a new job and returns it with its id.
	CreateAnalysisJob(ctx context.Context, j AnalysisJob) (AnalysisJob, error)
	// AnalysisJob returns the job of id, of account (any when ""), or
	// ENOTFOUND.
	AnalysisJob(ctx context.Context, account, id string) (AnalysisJob, error)
	// UpdateAnalysisJob stores j's state, error, result and webhook state
	// over the stored job of its id.
	UpdateAnalysisJob(ctx context.Context, j AnalysisJob) error
	// UnfinishedAnalysisJobs lists the jobs not Finished, oldest first:
	// those a restart picks up again.
	UnfinishedAnalysisJobs(ctx context.Context) ([]AnalysisJob, error)
}

// CheckAnalysisJob checks a job's purchase numbers before it is stored.
func CheckAnalysisJob(j AnalysisJob) error {
	if len(j.PurchaseNumbers) == 0 {
		return Errorf(EINVALID, "an analysis job needs a purchase number")
	}
	for _, n := range j.PurchaseNumbers {
		if !Holdable(n) || len(n) > 40 {
			return Errorf(EINVALID, "purchase number %s is not one: at most 40 characters of text", Quote(fmt.Sprintf("%.40s", n)))
		}
	}
	return nil
}
