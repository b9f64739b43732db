package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

var _ tenderbase.ChangeFeed = (*Store)(nil)

// Changed notes an entry of the feed (versioning.Tx).
func (w writer) Changed(e tenderbase.FeedEntry) { w.feed.Add(e) }

// writeFeed writes the entries noted, in their order.
func writeFeed(ctx context.Context, c statements, notes *versioning.FeedNotes, at time.Time) error {
	for _, e := range notes.Take() {
		r := versioning.Row(e, at)
		if _, err := c.exec(ctx, `INSERT INTO changes (change, kind, key, revision, state, deadline, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			r.Change, r.Kind, r.Key, r.Revision, r.State, r.Deadline, r.At); err != nil {
			return fmt.Errorf("write the feed: %w", describe(err))
		}
	}
	return nil
}

// Changes returns a page of the feed (tenderbase.ChangeFeed).
func (s *Store) Changes(ctx context.Context, q tenderbase.FeedQuery) (tenderbase.FeedPage, error) {
	if err := versioning.CheckFeed(q); err != nil {
		return tenderbase.FeedPage{}, err
	}
	kinds, err := json.Marshal(versioning.FeedKinds(q))
	if err != nil {
		return tenderbase.FeedPage{}, err
	}
	var rows []versioning.FeedRow
	err = s.read.run(ctx, func(c *conn) error {
		rs, err := c.query(ctx, `SELECT seq, change, kind, key, revision, state, deadline, at FROM changes
			WHERE seq > ? AND kind IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?`,
			q.After, string(kinds), q.Limit+1)
		if err != nil {
			return err
		}
		defer rs.Close()
		for rs.Next() {
			var r versioning.FeedRow
			if err := rs.Scan(&r.Seq, &r.Change, &r.Kind, &r.Key, &r.Revision, &r.State, &r.Deadline, &r.At); err != nil {
				return err
			}
			rows = append(rows, r)
		}
		return rs.Err()
	})
	if err != nil {
		return tenderbase.FeedPage{}, fmt.Errorf("read the feed: %w", describe(err))
	}
	return versioning.FeedPage(q, rows), nil
}
