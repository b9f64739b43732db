package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

var _ tenderbase.ChangeFeed = (*Store)(nil)

// Changed notes an entry of the feed (versioning.Tx).
func (w writer) Changed(e tenderbase.FeedEntry) { w.feed.Add(e) }

// writeFeed writes the entries noted, numbered in their order.
func writeFeed(ctx context.Context, q querier, notes *versioning.FeedNotes, at time.Time) error {
	entries := notes.Take()
	if len(entries) == 0 {
		return nil
	}
	n := len(entries)
	changes, kinds, keys, states := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	revisions := make([]int64, n)
	deadlines := make([]*int64, n)
	for i, e := range entries {
		r := versioning.Row(e, at)
		changes[i], kinds[i], keys[i], states[i], revisions[i], deadlines[i] = r.Change, r.Kind, r.Key, r.State, int64(r.Revision), r.Deadline
	}
	// WITH ORDINALITY and ORDER BY number the rows in the order noted.
	if _, err := q.Exec(ctx, `
		INSERT INTO changes (change, kind, key, revision, state, deadline, at)
		SELECT change, kind, key, revision, state, deadline, $7
		FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[])
			WITH ORDINALITY AS u (change, kind, key, revision, state, deadline, i)
		ORDER BY i`, changes, kinds, keys, revisions, states, deadlines, at.Unix()); err != nil {
		return fmt.Errorf("write the feed: %w", err)
	}
	return nil
}

// Changes returns a page of the feed (tenderbase.ChangeFeed).
func (s *Store) Changes(ctx context.Context, q tenderbase.FeedQuery) (_ tenderbase.FeedPage, err error) {
	defer classify(&err)
	if err := versioning.CheckFeed(q); err != nil {
		return tenderbase.FeedPage{}, err
	}
	rows, _ := s.pool.Query(ctx, `SELECT seq, change, kind, key, revision, state, deadline, at FROM changes
		WHERE seq > $1 AND kind = ANY($2::text[]) ORDER BY seq LIMIT $3`,
		q.After, versioning.FeedKinds(q), q.Limit+1)
	var out []versioning.FeedRow
	var r versioning.FeedRow
	if _, err := pgx.ForEachRow(rows, []any{&r.Seq, &r.Change, &r.Kind, &r.Key, &r.Revision, &r.State, &r.Deadline, &r.At}, func() error {
		out = append(out, r)
		return nil
	}); err != nil {
		return tenderbase.FeedPage{}, fmt.Errorf("read the feed: %w", err)
	}
	return versioning.FeedPage(q, out), nil
}
