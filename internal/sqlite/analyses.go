package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

var _ tenderbase.AnalysisStore = (*Store)(nil)

// Analysis returns a stored analysis, as tenderbase.AnalysisStore says.
func (s *Store) Analysis(ctx context.Context, purchase, version string) (tenderbase.StoredAnalysis, error) {
	a := tenderbase.StoredAnalysis{PurchaseNumber: purchase, Version: version}
	err := s.read.run(ctx, func(c *conn) error {
		var body string
		var made int64
		err := c.queryRow(ctx, `SELECT body, made_at FROM doc_analyses WHERE purchase = ? AND version = ?`, purchase, version).Scan(&body, &made)
		if errors.Is(err, sql.ErrNoRows) {
			return tenderbase.Errorf(tenderbase.ENOTFOUND, "no analysis of %s stored", tenderbase.Quote(purchase))
		}
		a.Body, a.MadeAt = json.RawMessage(body), time.UnixMilli(made).UTC()
		return err
	})
	if err != nil {
		return tenderbase.StoredAnalysis{}, fmt.Errorf("read analysis: %w", err)
	}
	return a, nil
}

// PutAnalysis stores an analysis, as tenderbase.AnalysisStore says.
func (s *Store) PutAnalysis(ctx context.Context, a tenderbase.StoredAnalysis) error {
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		_, err := c.exec(ctx, `INSERT INTO doc_analyses (purchase, version, body, made_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (purchase, version) DO UPDATE SET body = excluded.body, made_at = excluded.made_at`,
			a.PurchaseNumber, a.Version, string(a.Body), a.MadeAt.UnixMilli())
		return describe(err)
	})
	if err != nil {
		return fmt.Errorf("store analysis of %s: %w", a.PurchaseNumber, err)
	}
	return nil
}

// CountAnalysis counts analyses against an allowance, as
// tenderbase.AnalysisStore says: inside the write transaction, so that two
// at once cannot both take the last one.
func (s *Store) CountAnalysis(ctx context.Context, account, month string, n, allowance int, plan tenderbase.Plan, at time.Time) (int, error) {
	var made int
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		err := c.queryRow(ctx, `SELECT made FROM analysis_counts WHERE account = ? AND month = ?`, account, month).Scan(&made)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return describe(err)
		}
		if n > 0 && made+n > allowance {
			return tenderbase.AnalysisAllowanceUsed(plan, allowance, month, at)
		}
		made = max(made+n, 0)
		_, err = c.exec(ctx, `INSERT INTO analysis_counts (account, month, made) VALUES (?, ?, ?)
			ON CONFLICT (account, month) DO UPDATE SET made = excluded.made`, account, month, made)
		return describe(err)
	})
	if err != nil {
		return 0, fmt.Errorf("count analysis: %w", err)
	}
	return made, nil
}

// AnalysesMade returns the count of an account's month.
func (s *Store) AnalysesMade(ctx context.Context, account, month string) (int, error) {
	var made int
	err := s.read.run(ctx, func(c *conn) error {
		err := c.queryRow(ctx, `SELECT made FROM analysis_counts WHERE account = ? AND month = ?`, account, month).Scan(&made)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("read analyses made: %w", err)
	}
	return made, nil
}

const analysisJobColumns = `id, account, key_id, plan, purchases, state, error, result, webhook_url, secret, webhook, webhook_error, created_at, updated_at`

// CreateAnalysisJob stores a new job, as tenderbase.AnalysisStore says.
func (s *Store) CreateAnalysisJob(ctx context.Context, j tenderbase.AnalysisJob) (tenderbase.AnalysisJob, error) {
	if err := tenderbase.CheckAnalysisJob(j); err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	purchases, err := json.Marshal(j.PurchaseNumbers)
	if err != nil {
		return tenderbase.AnalysisJob{}, err
	}
	err = s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		for range 10 {
			if j.ID, err = tenderbase.NewAnalysisJobID(); err != nil {
				return err
			}
			res, err := c.exec(ctx, `INSERT INTO analysis_jobs (`+analysisJobColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO NOTHING`,
				j.ID, j.Account, j.KeyID, string(j.Plan), string(purchases), j.State, j.Error, nullText(j.Result),
				j.WebhookURL, j.Secret, j.Webhook, j.WebhookError, j.CreatedAt.UnixMilli(), j.UpdatedAt.UnixMilli())
			if err != nil {
				return describe(err)
			}
			if n, _ := res.RowsAffected(); n == 1 {
				return nil
			}
		}
		return errors.New("no free job id after 10 draws")
	})
	if err != nil {
		return tenderbase.AnalysisJob{}, fmt.Errorf("create analysis job: %w", err)
	}
	return j, nil
}

// AnalysisJob returns a job, as tenderbase.AnalysisStore says.
func (s *Store) AnalysisJob(ctx context.Context, account, id string) (tenderbase.AnalysisJob, error) {
	var j tenderbase.AnalysisJob
	err := s.read.run(ctx, func(c *conn) error {
		var err error
		j, err = scanAnalysisJob(c.queryRow(ctx, `SELECT `+analysisJobColumns+` FROM analysis_jobs WHERE id = ? AND (? = '' OR account = ?)`, id, account, account))
		if errors.Is(err, sql.ErrNoRows) {
			return tenderbase.NoAnalysisJob(id)
		}
		return err
	})
	if err != nil {
		return tenderbase.AnalysisJob{}, fmt.Errorf("read analysis job: %w", err)
	}
	return j, nil
}

// UpdateAnalysisJob stores a job's progress, as tenderbase.AnalysisStore
// says.
func (s *Store) UpdateAnalysisJob(ctx context.Context, j tenderbase.AnalysisJob) error {
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		res, err := c.exec(ctx, `UPDATE analysis_jobs SET state = ?, error = ?, result = ?, webhook = ?, webhook_error = ?, updated_at = ? WHERE id = ?`,
			j.State, j.Error, nullText(j.Result), j.Webhook, j.WebhookError, j.UpdatedAt.UnixMilli(), j.ID)
		if err != nil {
			return describe(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return tenderbase.NoAnalysisJob(j.ID)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("update analysis job: %w", err)
	}
	return nil
}

// UnfinishedAnalysisJobs lists the jobs a restart picks up, in the order
// they were created, which the rowid keeps.
func (s *Store) UnfinishedAnalysisJobs(ctx context.Context) ([]tenderbase.AnalysisJob, error) {
	var jobs []tenderbase.AnalysisJob
	err := s.read.run(ctx, func(c *conn) error {
		rows, err := c.query(ctx, `SELECT `+analysisJobColumns+` FROM analysis_jobs
			WHERE state IN (?, ?) OR webhook = ? ORDER BY rowid`, tenderbase.JobQueued, tenderbase.JobRunning, tenderbase.WebhookPending)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			j, err := scanAnalysisJob(rows)
			if err != nil {
				return err
			}
			jobs = append(jobs, j)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list unfinished analysis jobs: %w", err)
	}
	return jobs, nil
}

func scanAnalysisJob(row scanner) (tenderbase.AnalysisJob, error) {
	var j tenderbase.AnalysisJob
	var plan, purchases string
	var result sql.NullString
	var created, updated int64
	if err := row.Scan(&j.ID, &j.Account, &j.KeyID, &plan, &purchases, &j.State, &j.Error, &result,
		&j.WebhookURL, &j.Secret, &j.Webhook, &j.WebhookError, &created, &updated); err != nil {
		return j, err
	}
	j.Plan, j.CreatedAt, j.UpdatedAt = tenderbase.Plan(plan), time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	if result.Valid {
		j.Result = json.RawMessage(result.String)
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
