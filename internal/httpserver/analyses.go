package httpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"github.com/tenderbase/tenderbase/internal/mcp"
)

// jobRequest is the body of POST /analyses.
type jobRequest struct {
	PurchaseNumber  string   `json:"purchase_number"`
	PurchaseNumbers []string `json:"purchase_numbers"`
	WebhookURL      string   `json:"webhook_url"`
}

// jobAnswer is a job as POST /analyses and GET /analyses/{id} answer it:
// the job, where to poll it, and, once, the secret its webhook is signed
// with.
type jobAnswer struct {
	tenderbase.AnalysisJob
	Poll   string `json:"poll"`
	Secret string `json:"webhook_secret,omitempty"`
}

// createAnalysisJob answers POST /analyses: a job for one purchase number,
// or two to five to compare, with an optional webhook. 202 while the job
// is queued; 201 when the analyses were stored already, and the job is
// done at once.
func (s *Server) createAnalysisJob(w http.ResponseWriter, r *http.Request) error {
	if problem := mcp.ContentTypeProblem(r.Header.Get("Content-Type")); problem != "" {
		return &mediaTypeError{problem}
	}
	body, err := readArguments(r)
	if err != nil {
		return err
	}
	var req jobRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return tenderbase.Errorf(tenderbase.EINVALID,
			"the body must be {\"purchase_number\": \"...\"} or {\"purchase_numbers\": [2 to 5 of them]}, with an optional \"webhook_url\": %s",
			strings.TrimPrefix(err.Error(), "json: "))
	}
	numbers := req.PurchaseNumbers
	switch one := strings.TrimSpace(req.PurchaseNumber); {
	case one != "" && len(numbers) > 0:
		return tenderbase.Errorf(tenderbase.EINVALID, "give purchase_number or purchase_numbers, not both")
	case one != "":
		numbers = []string{one}
	case len(numbers) == 1:
		return tenderbase.Errorf(tenderbase.EINVALID, "purchase_numbers compares 2 to %d tenders; for one, give purchase_number", docjobs.MaxCompared)
	}
	key, _ := tenderbase.KeyFromContext(r.Context())
	job, err := s.cfg.Analyses.CreateJob(r.Context(), key, docjobs.JobRequest{PurchaseNumbers: numbers, WebhookURL: strings.TrimSpace(req.WebhookURL)})
	if err != nil {
		return err
	}
	status := http.StatusAccepted
	if job.State == tenderbase.JobDone {
		status = http.StatusCreated
	}
	answer := jobAnswer{AnalysisJob: job, Poll: "/analyses/" + job.ID}
	if job.WebhookURL != "" {
		answer.Secret = job.Secret
	}
	w.Header().Set("Location", answer.Poll)
	writeJSON(w, status, answer)
	return nil
}

// analysisJob answers GET /analyses/{id}: the job of the caller's account,
// with its result once done.
func (s *Server) analysisJob(w http.ResponseWriter, r *http.Request) error {
	key, _ := tenderbase.KeyFromContext(r.Context())
	job, err := s.cfg.Analyses.Job(r.Context(), key, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, jobAnswer{AnalysisJob: job, Poll: "/analyses/" + job.ID})
	return nil
}
