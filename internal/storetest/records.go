package storetest

import (
	"context"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// testGet checks that every record comes back as it was put, and that a
// missing key is ENOTFOUND.
func (c *corpusStore) testGet(t *testing.T) {
	ctx := context.Background()
	for _, want := range c.records {
		got := get(t, c.st, want.Kind(), want.Key())
		if diff := gocmp.Diff(want, got, sameRecord); diff != "" {
			t.Errorf("Get(%s, %q) (-put +got):\n%s", want.Kind(), want.Key(), diff)
		}
		vs, err := c.st.Versions(ctx, want.Kind(), want.Key())
		if err != nil {
			t.Fatalf("Versions(%s, %q): %v", want.Kind(), want.Key(), err)
		}
		if diff := gocmp.Diff([]tenderbase.Record{want}, vs, sameRecord); diff != "" {
			t.Errorf("Versions(%s, %q) (-want +got):\n%s", want.Kind(), want.Key(), diff)
		}
	}
	t.Run("missing key", func(t *testing.T) {
		_, err := c.st.Get(ctx, tenderbase.KindTender, "0000000000000000000")
		wantCode(t, "Get of a missing key", err, tenderbase.ENOTFOUND)
		_, err = c.st.Versions(ctx, tenderbase.KindTender, "0000000000000000000")
		wantCode(t, "Versions of a missing key", err, tenderbase.ENOTFOUND)
	})
	t.Run("many at once", func(t *testing.T) {
		mg, ok := c.st.(tenderbase.ManyGetter)
		if !ok {
			t.Skip("the store reads records one at a time")
		}
		byKind := map[tenderbase.Kind][]string{}
		for _, r := range c.records {
			if !slices.Contains(byKind[r.Kind()], r.Key()) {
				byKind[r.Kind()] = append(byKind[r.Kind()], r.Key())
			}
		}
		for k, keys := range byKind {
			got, err := mg.GetMany(ctx, k, append(slices.Clone(keys), "no such key", unholdable["NUL"]))
			if err != nil {
				t.Fatalf("GetMany(%s): %v", k, err)
			}
			if len(got) != len(keys) {
				t.Errorf("GetMany(%s) found %d records, want %d", k, len(got), len(keys))
			}
			for _, key := range keys {
				if diff := gocmp.Diff(get(t, c.st, k, key), got[key], sameRecord); diff != "" {
					t.Errorf("GetMany(%s) of %q (-Get +GetMany):\n%s", k, key, diff)
				}
			}
		}
		if got, err := mg.GetMany(ctx, tenderbase.KindContract, []string{tPaper}); err != nil || len(got) != 0 {
			t.Errorf("GetMany of a tender's key as a contract = %v, %v; want none", got, err)
		}
	})
	t.Run("key of another kind", func(t *testing.T) {
		_, err := c.st.Get(ctx, tenderbase.KindContract, tPaper)
		wantCode(t, "Get of a tender's key as a contract", err, tenderbase.ENOTFOUND)
	})
	t.Run("search returns whole records", func(t *testing.T) {
		p, err := c.st.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, "поставка", query.MCP)})
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range p.Items {
			want := c.find(t, got.Kind(), got.Key())
			if diff := gocmp.Diff(want, got, sameRecord); diff != "" {
				t.Errorf("search item %q (-put +got):\n%s", got.Key(), diff)
			}
		}
	})
}

func (c *corpusStore) find(t *testing.T, k tenderbase.Kind, key string) tenderbase.Record {
	t.Helper()
	for _, r := range c.records {
		if r.Kind() == k && r.Key() == key {
			return r
		}
	}
	t.Fatalf("no fixture %s %q", k, key)
	return nil
}

// testReimport puts the whole corpus again: nothing may change.
func (c *corpusStore) testReimport(t *testing.T) {
	before, _ := searchAll(t, c.st, tenderbase.Search{Kind: tenderbase.KindTender})
	got := put(t, c.st, Corpus()...)
	if diff := gocmp.Diff(tenderbase.PutResult{Unchanged: len(c.records)}, got); diff != "" {
		t.Errorf("Put of the same corpus again (-want +got):\n%s", diff)
	}
	after, total := searchAll(t, c.st, tenderbase.Search{Kind: tenderbase.KindTender})
	if diff := gocmp.Diff(before, after); diff != "" {
		t.Errorf("order changed after re-import (-before +after):\n%s", diff)
	}
	if total != len(tenders()) {
		t.Errorf("total after re-import = %d, want %d", total, len(tenders()))
	}
	for _, r := range c.records {
		vs, err := c.st.Versions(context.Background(), r.Kind(), r.Key())
		if err != nil || len(vs) != 1 {
			t.Errorf("Versions(%s, %q) after re-import: %d versions, error %v; want 1", r.Kind(), r.Key(), len(vs), err)
		}
	}
}
