package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
	sqlite3 "modernc.org/sqlite/lib"
)

// Put stores records in one transaction, as tenderbase.Store says. The
// transaction takes the write lock when it begins (BEGIN IMMEDIATE), so it
// never fails halfway on a lock it could not upgrade. A Put that changes
// anything raises the generation in the file, which tells every reader, in
// this process or another, that cached totals are stale.
func (s *Store) Put(ctx context.Context, records []tenderbase.Record) (tenderbase.PutResult, error) {
	var res tenderbase.PutResult
	if len(records) == 0 {
		return res, nil
	}
	ahead := textproc.Stemmer{}
	documents := versioning.ComputeAhead(records, func(r tenderbase.Record) document { return newDocument(r, ahead) })
	defer documents.Stop()
	var postingsWrite *postings.RecentWrite
	var gen int64
	err := s.write.tx(ctx, "BEGIN IMMEDIATE", func(c *conn) error {
		w := writer{c: c, stems: textproc.Stemmer{}, changes: &postings.Changes{}, counts: kindCounts{}, fts: ftsWrites{},
			feed: &versioning.FeedNotes{}, documents: documents}
		settling, err := versioning.BeforeSettling(ctx, stateWriter{c: c}, records)
		if err != nil {
			return err
		}
		if err := versioning.PutAll(ctx, w, records, &res); err != nil {
			return err
		}
		if !res.Changed() {
			return nil
		}
		states, err := settling.Settle(ctx, stateWriter{c: c})
		if err != nil {
			return err
		}
		w.feed.Add(states...)
		// Last, so that the postings and counts of the lots SettleLots
		// writes go too.
		if err := versioning.SettleLots(ctx, w, stateWriter{c: c}, records); err != nil {
			return err
		}
		if err := w.counts.flush(ctx, c); err != nil {
			return err
		}
		if gen, err = raiseGeneration(ctx, c); err != nil {
			return err
		}
		// The chunks the last Put kept are good if it left the generation
		// before this one.
		postingsWrite = s.recent.Write(chunks{c}, gen-1)
		if err := w.changes.Flush(ctx, postingsWrite); err != nil {
			return err
		}
		if err := w.fts.apply(ctx, c); err != nil {
			return err
		}
		return writeFeed(ctx, c, w.feed, time.Now())
	})
	if code(err) == sqlite3.SQLITE_TOOBIG {
		// A record longer than a value SQLite holds: the caller can leave
		// it out, as the importer does, and store the others.
		return tenderbase.PutResult{}, tenderbase.Errorf(tenderbase.EINVALID, "a record is longer than SQLite holds in one value: %v", err)
	}
	if err != nil {
		return tenderbase.PutResult{}, fmt.Errorf("put: %w", err)
	}
	if postingsWrite != nil {
		postingsWrite.Committed(gen)
	}
	return res, nil
}

// Get returns the current version of a record.
func (s *Store) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	if err := versioning.CheckKey(k, key); err != nil {
		return nil, err
	}
	var body []byte
	err := s.read.run(ctx, func(c *conn) error {
		err := c.queryRow(ctx, `
			SELECT v.body FROM records r JOIN versions v ON v.id = r.version
			WHERE r.kind = ? AND r.key = ?`, string(k), key).Scan(&body)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(ctx, c, k, key)
		}
		return err
	})
	if tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("get %s %s: %w", k, key, describe(err))
	}
	return versioning.Decode(k, body)
}

// getManyAtOnce is how many keys GetMany asks for in one statement.
const getManyAtOnce = 1000

// GetMany returns the current records of kind k among keys
// (tenderbase.ManyGetter), a thousand keys a statement (eachOfKeys).
func (s *Store) GetMany(ctx context.Context, k tenderbase.Kind, keys []string) (map[string]tenderbase.Record, error) {
	keys = versioning.HoldableKeys(keys)
	out := make(map[string]tenderbase.Record, len(keys))
	err := s.read.run(ctx, func(c *conn) error {
		return eachOfKeys(ctx, c, keys, getManyAtOnce, `SELECT r.key, v.body FROM json_each(?) j
			CROSS JOIN records r ON r.kind = ? AND r.key = j.value
			JOIN versions v ON v.id = r.version`, []any{string(k)},
			func(rows *sql.Rows) error {
				var key string
				var body []byte
				if err := rows.Scan(&key, &body); err != nil {
					return err
				}
				r, err := versioning.Decode(k, body)
				out[key] = r
				return err
			})
	})
	if err != nil {
		return nil, fmt.Errorf("get %d records of %s: %w", len(keys), k, describe(err))
	}
	return out, nil
}

// Versions returns every stored version of a record, oldest first.
func (s *Store) Versions(ctx context.Context, k tenderbase.Kind, key string) ([]tenderbase.Record, error) {
	if err := versioning.CheckKey(k, key); err != nil {
		return nil, err
	}
	var bodies [][]byte
	err := s.read.run(ctx, func(c *conn) error {
		rows, err := c.query(ctx, `
			SELECT body FROM versions WHERE kind = ? AND key = ? ORDER BY revision`, string(k), key)
		if err != nil {
			return err
		}
		bodies, err = scanBlobs(rows)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("versions of %s %s: %w", k, key, describe(err))
	}
	if len(bodies) == 0 {
		return nil, versioning.NotFound(k, key)
	}
	out := make([]tenderbase.Record, len(bodies))
	for i, body := range bodies {
		if out[i], err = versioning.Decode(k, body); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func scanBlobs(rows *sql.Rows) ([][]byte, error) {
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}
