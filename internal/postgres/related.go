package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// Related returns, by value, the current records of kind k that a search
// with the lookup field = value finds, newest first as Search orders them;
// a value that finds none is left out. It reads them all in one
// statement, where a search for each value is a transaction of its own:
// the export reads the results of a page of a thousand complaints so.
func (s *Store) Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (_ map[string][]tenderbase.Record, err error) {
	defer classify(&err)
	rows, _ := s.pool.Query(ctx, `
		SELECT l.value, v.body FROM lookups l JOIN records r ON r.rid = l.rid JOIN versions v ON v.id = r.version
		WHERE l.kind = $1 AND l.field = $2 AND l.value = ANY($3::text[]) ORDER BY l.rid DESC`, string(k), field, holdable(values))
	var found []string
	var bodies [][]byte
	var value string
	var body []byte
	_, err = pgx.ForEachRow(rows, []any{&value, &body}, func() error {
		found, bodies = append(found, value), append(bodies, body) // the driver scans each row into new values
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s records by %s: %w", k, field, err)
	}
	recs, err := versioning.DecodeAll(k, bodies)
	if err != nil {
		return nil, err
	}
	related := map[string][]tenderbase.Record{}
	for i, r := range recs {
		related[found[i]] = append(related[found[i]], r)
	}
	return related, nil
}

// holdable returns the values a lookup can hold: those of no record are
// found nowhere, as by Search, rather than refused by the database.
func holdable(values []string) []string {
	return slices.DeleteFunc(slices.Clone(values), func(v string) bool { return !tenderbase.Holdable(v) })
}
