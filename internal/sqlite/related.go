package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// Related returns, by value, the current records of kind k that a search
// with the lookup field = value finds, newest first as Search orders them;
// a value that finds none is left out. It reads them all in one
// statement, where a search for each value is a transaction of its own:
// the export reads the results of a page of a thousand complaints so. The
// values come as one JSON array, so that one prepared statement serves
// any number of them.
func (s *Store) Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error) {
	list, err := json.Marshal(holdable(values))
	if err != nil {
		return nil, err
	}
	var found []string
	var bodies [][]byte
	err = s.read.run(ctx, func(c *conn) error {
		rows, err := c.query(ctx, `
			SELECT l.value, v.body FROM lookups l JOIN records r ON r.rid = l.rid JOIN versions v ON v.id = r.version
			WHERE l.kind = ? AND l.field = ? AND l.value IN (SELECT value FROM json_each(?)) ORDER BY l.rid DESC`,
			string(k), field, string(list))
		if err != nil {
			return describe(err)
		}
		defer rows.Close()
		for rows.Next() {
			var value string
			var body []byte
			if err := rows.Scan(&value, &body); err != nil {
				return err
			}
			found, bodies = append(found, value), append(bodies, body)
		}
		return describe(rows.Err())
	})
	if err != nil {
		return nil, fmt.Errorf("read %s records by %s: %w", k, field, err)
	}
	return relatedBy(k, found, bodies)
}

// relatedBy decodes bodies, each found by the value of the same index, and
// returns the records by value, in the order of the bodies.
func relatedBy(k tenderbase.Kind, values []string, bodies [][]byte) (map[string][]tenderbase.Record, error) {
	recs, err := versioning.DecodeAll(k, bodies)
	if err != nil {
		return nil, err
	}
	related := map[string][]tenderbase.Record{}
	for i, r := range recs {
		related[values[i]] = append(related[values[i]], r)
	}
	return related, nil
}

// holdable returns the values a lookup can hold: those of no record are
// found nowhere, as by Search, rather than refused by the database.
func holdable(values []string) []string {
	return slices.DeleteFunc(slices.Clone(values), func(v string) bool { return !tenderbase.Holdable(v) })
}
