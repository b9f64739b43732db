package storetest

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// relatedReader is a store that reads the records that a lookup finds for
// many values at once, as the export reads the results of a page of
// complaints.
type relatedReader interface {
	Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error)
}

// testRelated checks, of a store that reads related records, that they are
// by each value the records a search with that lookup finds, in its order:
// for every lookup the fixtures carry, of every kind, asked all at once,
// with values that find nothing and one that no store can hold.
func (c *corpusStore) testRelated(t *testing.T) {
	rr, ok := c.st.(relatedReader)
	if !ok {
		t.Skip("the store reads related records one search a value")
	}
	values := map[tenderbase.Kind]map[string][]string{}
	for _, r := range c.records {
		for _, l := range r.Lookups() {
			if values[r.Kind()] == nil {
				values[r.Kind()] = map[string][]string{}
			}
			values[r.Kind()][l.Field] = append(values[r.Kind()][l.Field], l.Value)
		}
	}
	ctx := context.Background()
	for k, fields := range values {
		for field, vs := range fields {
			vs = append(vs, "no such value", unholdable["NUL"])
			got, err := rr.Related(ctx, k, field, vs)
			if err != nil {
				t.Fatalf("Related %s %s: %v", k, field, err)
			}
			want := map[string][]string{}
			for _, v := range vs {
				s := tenderbase.Search{Kind: k, Where: []tenderbase.Lookup{{Field: field, Value: v}}}
				if keys, _ := searchAll(t, c.st, s); len(keys) > 0 {
					want[v] = keys
				}
			}
			gotKeys := map[string][]string{}
			for v, recs := range got {
				gotKeys[v] = keysOf(recs)
			}
			if diff := gocmp.Diff(want, gotKeys); diff != "" {
				t.Errorf("Related %s by %s (-searches +related):\n%s", k, field, diff)
			}
		}
	}
}
