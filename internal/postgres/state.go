package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/analytics"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// stateWriter derives the state lookups of tenders (versioning.StateTx) in
// a write transaction: Put's or a migration's.
type stateWriter struct {
	q querier
	// beforeFacts is set when a migration before the facts table (0018)
	// derives the standings: the facts' copy is written from 0018 on.
	beforeFacts bool
}

var _ versioning.StateTx = stateWriter{}

// Related returns, by value, the current records of kind k with the lookup
// field holding one of values, newest first.
func (w stateWriter) Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error) {
	rows, _ := w.q.Query(ctx, `
		SELECT l.value, v.body FROM lookups l JOIN records r ON r.rid = l.rid JOIN versions v ON v.id = r.version
		WHERE l.kind = $1 AND l.field = $2 AND l.value = ANY($3::text[]) ORDER BY l.rid DESC`, string(k), field, values)
	out := map[string][]tenderbase.Record{}
	var value string
	var body []byte
	_, err := pgx.ForEachRow(rows, []any{&value, &body}, func() error {
		r, err := versioning.Decode(k, body)
		out[value] = append(out[value], r)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read %s records by %s: %w", k, field, err)
	}
	return out, nil
}

// Latest returns the newest stored version of a record, or nil.
func (w stateWriter) Latest(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	var body []byte
	err := w.q.QueryRow(ctx, `SELECT body FROM versions WHERE kind = $1 AND key = $2 ORDER BY revision DESC LIMIT 1`,
		string(k), key).Scan(&body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", k, key, err)
	}
	return versioning.Decode(k, body)
}

// SetStandings keeps each standing for the current tender whose key is its
// key (versioning.StateTx), in three statements for all of them: the
// derived lookups that no longer hold go, the new ones come, and the
// deadlines that changed are set: a row rewritten for nothing would be
// indexed anew, its words included.
func (w stateWriter) SetStandings(ctx context.Context, standings map[string]tenderbase.TenderStanding) error {
	var keys, lkeys, fields, values []string
	var deadlines []*int64
	for key, s := range standings {
		keys, deadlines = append(keys, key), append(deadlines, unixOrNil(s.Deadline.IsZero(), s.Deadline.Unix()))
		for _, l := range s.Lookups() {
			lkeys, fields, values = append(lkeys, key), append(fields, l.Field), append(values, l.Value)
		}
	}
	kind := string(tenderbase.KindTender)
	derived := []string{tenderbase.LookupState, tenderbase.LookupParticipantINN}
	if _, err := w.q.Exec(ctx, `
		DELETE FROM lookups l USING records r
		WHERE r.kind = $1 AND r.key = ANY($2::text[]) AND l.rid = r.rid AND l.kind = $1 AND l.field = ANY($3::text[])
		AND NOT EXISTS (SELECT 1 FROM unnest($4::text[], $5::text[], $6::text[]) AS u (key, field, value)
			WHERE u.key = r.key AND u.field = l.field AND u.value = l.value)`,
		kind, keys, derived, lkeys, fields, values); err != nil {
		return fmt.Errorf("clear standings: %w", err)
	}
	if _, err := w.q.Exec(ctx, `
		INSERT INTO lookups (kind, field, value, rid)
		SELECT $1, u.field, u.value, r.rid FROM unnest($2::text[], $3::text[], $4::text[]) AS u (key, field, value)
		JOIN records r ON r.kind = $1 AND r.key = u.key
		ON CONFLICT DO NOTHING`, kind, lkeys, fields, values); err != nil {
		return fmt.Errorf("store standings: %w", err)
	}
	if _, err := w.q.Exec(ctx, `
		UPDATE records r SET deadline = u.deadline FROM unnest($2::text[], $3::bigint[]) AS u (key, deadline)
		WHERE r.kind = $1 AND r.key = u.key AND r.deadline IS DISTINCT FROM u.deadline`, kind, keys, deadlines); err != nil {
		return fmt.Errorf("store deadlines: %w", err)
	}
	if w.beforeFacts {
		return nil
	}
	bids, outcomes := make([]*int64, 0, len(keys)), make([]*string, 0, len(keys))
	for _, key := range keys {
		b, o := analytics.StandingValues(standings[key])
		bids, outcomes = append(bids, b), append(outcomes, o)
	}
	if _, err := w.q.Exec(ctx, `
		UPDATE facts f SET bids = u.bids, outcome = u.outcome
		FROM unnest($2::text[], $3::integer[], $4::text[]) AS u (key, bids, outcome) JOIN records r ON r.kind = $1 AND r.key = u.key
		WHERE f.rid = r.rid AND (f.bids IS DISTINCT FROM u.bids OR f.outcome IS DISTINCT FROM u.outcome)`,
		kind, keys, bids, outcomes); err != nil {
		return fmt.Errorf("store standings in facts: %w", err)
	}
	return nil
}

// settleAllStates derives the standing of every stored tender, for a
// database made before tenders had one (migration 0008), or before their
// facts kept it (0018: beforeFacts false).
func settleAllStates(ctx context.Context, tx pgx.Tx, beforeFacts bool) error {
	rows, _ := tx.Query(ctx, `SELECT key FROM records WHERE kind = $1`, string(tenderbase.KindTender))
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("read tenders: %w", err)
	}
	return versioning.SettleTenders(ctx, stateWriter{q: tx, beforeFacts: beforeFacts}, keys)
}

// TenderStandings returns the state and the deadline the store keeps for
// each current tender among numbers (purchase numbers), by number, without
// its participants; a number of no current tender is left out. It reads
// them in one statement, where deriving them again takes two searches a
// tender.
func (s *Store) TenderStandings(ctx context.Context, numbers []string) (_ map[string]tenderbase.TenderStanding, err error) {
	defer classify(&err)
	return standings(ctx, s.pool, numbers)
}

// Standings returns the standings kept for the current tenders among keys
// (versioning.StateTx).
func (w stateWriter) Standings(ctx context.Context, keys []string) (map[string]tenderbase.TenderStanding, error) {
	return standings(ctx, w.q, keys)
}

func standings(ctx context.Context, q querier, numbers []string) (map[string]tenderbase.TenderStanding, error) {
	rows, _ := q.Query(ctx, `SELECT r.key, l.value, r.deadline FROM records r
		JOIN lookups l ON l.rid = r.rid AND l.kind = r.kind AND l.field = $1
		WHERE r.kind = $2 AND r.key = ANY($3::text[])`,
		tenderbase.LookupState, string(tenderbase.KindTender), numbers)
	standings := map[string]tenderbase.TenderStanding{}
	var key, state string
	var deadline *int64
	if _, err := pgx.ForEachRow(rows, []any{&key, &state, &deadline}, func() error {
		st := tenderbase.TenderStanding{State: state}
		if deadline != nil {
			st.Deadline = time.Unix(*deadline, 0)
		}
		standings[key] = st
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read tender standings: %w", err)
	}
	return standings, nil
}
