package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.AnalysisStore = (*Store)(nil)

// analysisCountLock is the class of the advisory lock that a count of
// analyses holds on its account for its transaction, so that two at once,
// on one server or two, cannot both take the last one of the allowance.
const analysisCountLock = 0x7462_616e // "tban"

// Analysis returns a stored analysis, as tenderbase.AnalysisStore says.
func (s *Store) Analysis(ctx context.Context, purchase, version string) (_ tenderbase.StoredAnalysis, err error) {
	defer classify(&err)
	a := tenderbase.StoredAnalysis{PurchaseNumber: purchase, Version: version}
	var body string
	var made int64
	err = s.pool.QueryRow(ctx, `SELECT body, made_at FROM doc_analyses WHERE purchase = $1 AND version = $2`, purchase, version).Scan(&body, &made)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return tenderbase.StoredAnalysis{}, tenderbase.Errorf(tenderbase.ENOTFOUND, "no analysis of %s stored", tenderbase.Quote(purchase))
	case err != nil:
		return tenderbase.StoredAnalysis{}, fmt.Errorf("read analysis: %w", err)
	}
	a.Body, a.MadeAt = json.RawMessage(body), time.UnixMilli(made).UTC()
	return a, nil
}

// PutAnalysis stores an analysis, as tenderbase.AnalysisStore says.
func (s *Store) PutAnalysis(ctx context.Context, a tenderbase.StoredAnalysis) (err error) {
	defer classify(&err)
	_, err = s.pool.Exec(ctx, `INSERT INTO doc_analyses (purchase, version, body, made_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (purchase, version) DO UPDATE SET body = excluded.body, made_at = excluded.made_at`,
		a.PurchaseNumber, a.Version, string(a.Body), a.MadeAt.UnixMilli())
	if err != nil {
		return fmt.Errorf("store analysis of %s: %w", a.PurchaseNumber, err)
	}
	return nil
}

// CountAnalysis counts analyses against an allowance, as
// tenderbase.AnalysisStore says, under the account's lock.
func (s *Store) CountAnalysis(ctx context.Context, account, month string, n, allowance int, plan tenderbase.Plan, at time.Time) (_ int, err error) {
	defer classify(&err)
	var made int
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, analysisCountLock, account); err != nil {
			return fmt.Errorf("lock account %s: %w", account, err)
		}
		err := tx.QueryRow(ctx, `SELECT made FROM analysis_counts WHERE account = $1 AND month = $2`, account, month).Scan(&made)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if n > 0 && made+n > allowance {
			return tenderbase.AnalysisAllowanceUsed(plan, allowance, month, at)
		}
		made = max(made+n, 0)
		_, err = tx.Exec(ctx, `INSERT INTO analysis_counts (account, month, made) VALUES ($1, $2, $3)
			ON CONFLICT (account, month) DO UPDATE SET made = excluded.made`, account, month, made)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("count analysis: %w", err)
	}
	return made, nil
}

// AnalysesMade returns the count of an account's month.
func (s *Store) AnalysesMade(ctx context.Context, account, month string) (_ int, err error) {
	defer classify(&err)
	var made int
	err = s.pool.QueryRow(ctx, `SELECT made FROM analysis_counts WHERE account = $1 AND month = $2`, account, month).Scan(&made)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("read analyses made: %w", err)
	}
	return made, nil
}

const analysisJobColumns = `id, account, key_id, plan, purchases, state, error, result, webhook_url, secret, webhook, webhook_error, created_at, updated_at`

// CreateAnalysisJob stores a new job, as tenderbase.AnalysisStore says.
func (s *Store) CreateAnalysisJob(ctx context.Context, j tenderbase.AnalysisJob) (_ tenderbase.AnalysisJob, err error) {
	defer classify(&err)
	if err := tenderbase.CheckAnalysisJob(j); err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	purchases, err := json.Marshal(j.PurchaseNumbers)
	if err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	for range 10 {
		if j.ID, err = tenderbase.NewAnalysisJobID(); err != nil {
			return tenderbase.AnalysisJob{}, err
		}
		tag, err := s.pool.Exec(ctx, `INSERT INTO analysis_jobs (`+analysisJobColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) DO NOTHING`,
			j.ID, j.Account, j.KeyID, string(j.Plan), string(purchases), j.State, j.Error, nullText(j.Result),
			j.WebhookURL, j.Secret, j.Webhook, j.WebhookError, j.CreatedAt.UnixMilli(), j.UpdatedAt.UnixMilli())
		if err != nil {
			return tenderbase.AnalysisJob{}, fmt.Errorf("create analysis job: %w", err)
		}
		if tag.RowsAffected() == 1 {
			return j, nil
		}
	}
	return tenderbase.AnalysisJob{}, errors.New("create analysis job: no free job id after 10 draws")
}

// AnalysisJob returns a job, as tenderbase.AnalysisStore says.
func (s *Store) AnalysisJob(ctx context.Context, account, id string) (_ tenderbase.AnalysisJob, err error) {
	defer classify(&err)
	j, err := scanAnalysisJob(s.pool.QueryRow(ctx, `SELECT `+analysisJobColumns+` FROM analysis_jobs
		WHERE id = $1 AND ($2 = '' OR account = $2)`, id, account))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return tenderbase.AnalysisJob{}, tenderbase.NoAnalysisJob(id)
	case err != nil:
		return tenderbase.AnalysisJob{}, fmt.Errorf("read analysis job: %w", err)
	}
	return j, nil
}

// UpdateAnalysisJob stores a job's progress, as tenderbase.AnalysisStore
// says.
func (s *Store) UpdateAnalysisJob(ctx context.Context, j tenderbase.AnalysisJob) (err error) {
	defer classify(&err)
	tag, err := s.pool.Exec(ctx, `UPDATE analysis_jobs SET state = $1, error = $2, result = $3, webhook = $4, webhook_error = $5, updated_at = $6
		WHERE id = $7`, j.State, j.Error, nullText(j.Result), j.Webhook, j.WebhookError, j.UpdatedAt.UnixMilli(), j.ID)
	switch {
	case err != nil:
		return fmt.Errorf("update analysis job: %w", err)
	case tag.RowsAffected() == 0:
		return tenderbase.NoAnalysisJob(j.ID)
	}
	return nil
}

// UnfinishedAnalysisJobs lists the jobs a restart picks up, in the order
// they were created.
func (s *Store) UnfinishedAnalysisJobs(ctx context.Context) (_ []tenderbase.AnalysisJob, err error) {
	defer classify(&err)
	rows, _ := s.pool.Query(ctx, `SELECT `+analysisJobColumns+` FROM analysis_jobs
		WHERE state IN ($1, $2) OR webhook = $3 ORDER BY made`, tenderbase.JobQueued, tenderbase.JobRunning, tenderbase.WebhookPending)
	jobs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tenderbase.AnalysisJob, error) { return scanAnalysisJob(row) })
	if err != nil {
		return nil, fmt.Errorf("list unfinished analysis jobs: %w", err)
	}
	return jobs, nil
}

func scanAnalysisJob(row pgx.Row) (tenderbase.AnalysisJob, error) {
	var j tenderbase.AnalysisJob
	var plan, purchases string
	var result *string
	var created, updated int64
	if err := row.Scan(&j.ID, &j.Account, &j.KeyID, &plan, &purchases, &j.State, &j.Error, &result,
		&j.WebhookURL, &j.Secret, &j.Webhook, &j.WebhookError, &created, &updated); err != nil {
		return j, err
	}
	j.Plan, j.CreatedAt, j.UpdatedAt = tenderbase.Plan(plan), time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	if result != nil {
		j.Result = json.RawMessage(*result)
	}
	return j, json.Unmarshal([]byte(purchases), &j.PurchaseNumbers)
}

// nullText is NULL for an empty JSON value.
func nullText(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}
