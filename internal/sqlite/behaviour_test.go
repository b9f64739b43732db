package sqlite

import (
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/storetest"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// TestBehaviour runs the behaviour suite that every store must pass. The
// second store on the same data is the same file opened again, as by
// another process.
func TestBehaviour(t *testing.T) {
	storetest.Run(t, func(t *testing.T) (tenderbase.Store, func(t *testing.T) tenderbase.Store) {
		path := t.TempDir() + "/store.db"
		open := func(t *testing.T) tenderbase.Store {
			s, err := Open(t.Context(), path, nil)
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
	s, err := Open(t.Context(), t.TempDir()+"/store.db", nil)
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
	path := t.TempDir() + "/store.db"
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if _, err := s.Put(t.Context(), storetest.RelevanceRecords()); err != nil {
		t.Fatal(err)
	}
	err = s.write.run(t.Context(), func(c *conn) error {
		if _, err := c.exec(t.Context(), `UPDATE analysis SET version = ?`, textproc.AnalysisVersion()); err != nil {
			return err
		}
		_, err := c.exec(t.Context(), `DELETE FROM postings WHERE term GLOB 'i*'`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(t.Context(), path, nil); err != nil {
		t.Fatalf("Open again: %v", err)
	}
	defer s.Close()
	storetest.CheckRelevance(t, s)
}
