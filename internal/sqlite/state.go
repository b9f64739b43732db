package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/analytics"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// statements runs SQL: a pooled connection (*conn) in Put, a migration's
// transaction (txStatements) when a migration derives the states anew.
type statements interface {
	exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	queryRow(ctx context.Context, query string, args ...any) *sql.Row
}

// stateWriter derives the state lookups of tenders (versioning.StateTx).
type stateWriter struct {
	c statements
	// beforeFacts is set when a migration before the facts table (0023)
	// derives the standings: the facts' copy is written from 0023 on.
	beforeFacts bool
}

var _ versioning.StateTx = stateWriter{}

// txStatements runs SQL in a transaction of database/sql.
type txStatements struct{ tx *sql.Tx }

func (t txStatements) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, query, args...)
}

func (t txStatements) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, query, args...)
}

func (t txStatements) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, query, args...)
}

// settleAllStates derives the standing of every stored tender, for a
// database made before tenders had one (migration 0013), or before their
// facts kept it (0023: beforeFacts false).
func settleAllStates(ctx context.Context, tx *sql.Tx, beforeFacts bool) error {
	w := stateWriter{c: txStatements{tx}, beforeFacts: beforeFacts}
	rows, err := tx.QueryContext(ctx, `SELECT key FROM records WHERE kind = ?`, string(tenderbase.KindTender))
	if err != nil {
		return fmt.Errorf("read tenders: %w", describe(err))
	}
	var keys []string
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			rows.Close()
			return fmt.Errorf("read tenders: %w", err)
		}
		keys = append(keys, key)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read tenders: %w", describe(err))
	}
	return versioning.SettleTenders(ctx, w, keys)
}

// Related returns, by value, the current records of kind k with the lookup
// field holding one of values, newest first. The values come as one JSON
// array, so that one prepared statement serves any number of them.
func (w stateWriter) Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error) {
	list, err := json.Marshal(values)
	if err != nil {
		return nil, err
	}
	rows, err := w.c.query(ctx, `
		SELECT l.value, v.body FROM lookups l JOIN records r ON r.rid = l.rid JOIN versions v ON v.id = r.version
		WHERE l.kind = ? AND l.field = ? AND l.value IN (SELECT value FROM json_each(?)) ORDER BY l.rid DESC`,
		string(k), field, string(list))
	if err != nil {
		return nil, fmt.Errorf("read %s records by %s: %w", k, field, describe(err))
	}
	defer rows.Close()
	out := map[string][]tenderbase.Record{}
	for rows.Next() {
		var value string
		var body []byte
		if err := rows.Scan(&value, &body); err != nil {
			return nil, fmt.Errorf("read %s records by %s: %w", k, field, err)
		}
		r, err := versioning.Decode(k, body)
		if err != nil {
			return nil, err
		}
		out[value] = append(out[value], r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s records by %s: %w", k, field, describe(err))
	}
	return out, nil
}

// Latest returns the newest stored version of a record, or nil.
func (w stateWriter) Latest(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	var body []byte
	err := w.c.queryRow(ctx, `SELECT body FROM versions WHERE kind = ? AND key = ? ORDER BY revision DESC LIMIT 1`,
		string(k), key).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", k, key, describe(err))
	}
	return versioning.Decode(k, body)
}

// SetStandings keeps each standing for the current tender whose key is its
// key (versioning.StateTx). SQLite runs in the process: statements per
// tender cost no round trip.
func (w stateWriter) SetStandings(ctx context.Context, standings map[string]tenderbase.TenderStanding) error {
	for key, s := range standings {
		if err := w.setStanding(ctx, key, s); err != nil {
			return err
		}
	}
	return nil
}

func (w stateWriter) setStanding(ctx context.Context, key string, s tenderbase.TenderStanding) error {
	var rid int64
	err := w.c.queryRow(ctx, `SELECT rid FROM records WHERE kind = ? AND key = ?`, string(tenderbase.KindTender), key).Scan(&rid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read tender %s: %w", key, describe(err))
	}
	if _, err := w.c.exec(ctx, `DELETE FROM lookups WHERE rid = ? AND kind = ? AND field IN (?, ?)`,
		rid, string(tenderbase.KindTender), tenderbase.LookupState, tenderbase.LookupParticipantINN); err != nil {
		return fmt.Errorf("clear standing of tender %s: %w", key, describe(err))
	}
	for _, l := range s.Lookups() {
		if _, err := w.c.exec(ctx, `INSERT INTO lookups (kind, field, value, rid) VALUES (?, ?, ?, ?)`,
			string(tenderbase.KindTender), l.Field, l.Value, rid); err != nil {
			return fmt.Errorf("store %s of tender %s: %w", l.Field, key, describe(err))
		}
	}
	if _, err := w.c.exec(ctx, `UPDATE measures SET deadline = ? WHERE rid = ?`,
		nullTime(s.Deadline.IsZero(), s.Deadline.Unix()), rid); err != nil {
		return fmt.Errorf("store deadline of tender %s: %w", key, describe(err))
	}
	if w.beforeFacts {
		return nil
	}
	bids, outcome := analytics.StandingValues(s)
	if _, err := w.c.exec(ctx, `UPDATE facts SET bids = ?, outcome = ? WHERE rid = ?`, bids, outcome, rid); err != nil {
		return fmt.Errorf("store the standing of tender %s in its facts: %w", key, describe(err))
	}
	return nil
}

// TenderStandings returns the state and the deadline the store keeps for
// each current tender among numbers (purchase numbers), by number, without
// its participants; a number of no current tender is left out. It reads
// them in one statement, where deriving them again takes two searches a
// tender.
func (s *Store) TenderStandings(ctx context.Context, numbers []string) (map[string]tenderbase.TenderStanding, error) {
	var out map[string]tenderbase.TenderStanding
	err := s.read.run(ctx, func(c *conn) error {
		var err error
		out, err = standings(ctx, c, numbers)
		return err
	})
	return out, err
}

// Standings returns the standings kept for the current tenders among keys
// (versioning.StateTx).
func (w stateWriter) Standings(ctx context.Context, keys []string) (map[string]tenderbase.TenderStanding, error) {
	return standings(ctx, w.c, keys)
}

func standings(ctx context.Context, c statements, numbers []string) (map[string]tenderbase.TenderStanding, error) {
	keys, err := json.Marshal(numbers)
	if err != nil {
		return nil, fmt.Errorf("read tender standings: %w", err)
	}
	standings := map[string]tenderbase.TenderStanding{}
	err = func() error {
		rows, err := c.query(ctx, `SELECT r.key, l.value, m.deadline FROM records r
			JOIN lookups l ON l.rid = r.rid AND l.kind = r.kind AND l.field = ?
			LEFT JOIN measures m ON m.rid = r.rid
			WHERE r.kind = ? AND r.key IN (SELECT value FROM json_each(?))`,
			tenderbase.LookupState, string(tenderbase.KindTender), string(keys))
		if err != nil {
			return describe(err)
		}
		defer rows.Close()
		for rows.Next() {
			var key, state string
			var deadline sql.NullInt64
			if err := rows.Scan(&key, &state, &deadline); err != nil {
				return err
			}
			st := tenderbase.TenderStanding{State: state}
			if deadline.Valid {
				st.Deadline = time.Unix(deadline.Int64, 0)
			}
			standings[key] = st
		}
		return rows.Err()
	}()
	if err != nil {
		return nil, fmt.Errorf("read tender standings: %w", describe(err))
	}
	return standings, nil
}
