package postgres

import (
	"context"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/storetest"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// TestBehaviour runs the behaviour suite that every store must pass. The
// second store on the same data is another store on the same schema, as
// another server would open it.
func TestBehaviour(t *testing.T) {
	storetest.Run(t, func(t *testing.T) (tenderbase.Store, func(t *testing.T) tenderbase.Store) {
		url := pgtest.URL(t)
		open := func(t *testing.T) tenderbase.Store {
			s, err := Open(context.Background(), url, nil)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			return s
		}
		return open(t), open
	})
}

// TestRelevance checks the order by relevance that every store gives.
func TestRelevance(t *testing.T) {
	s, err := Open(t.Context(), pgtest.URL(t), nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer s.Close()
	if _, err := s.Put(t.Context(), storetest.RelevanceRecords()); err != nil {
		t.Fatal(err)
	}
	storetest.CheckRelevance(t, s)
}

// TestRelevanceAfterUpgrade opens a store indexed by a build before the
// postings held impact levels: it is indexed again, and ranks as a new one.
func TestRelevanceAfterUpgrade(t *testing.T) {
	url := pgtest.URL(t)
	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if _, err := s.Put(t.Context(), storetest.RelevanceRecords()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(t.Context(), `UPDATE analysis SET version = $1`, textproc.AnalysisVersion()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.pool.Exec(t.Context(), `DELETE FROM postings WHERE term LIKE 'i%'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(t.Context(), url, nil); err != nil {
		t.Fatalf("Open again: %v", err)
	}
	defer s.Close()
	storetest.CheckRelevance(t, s)
}
