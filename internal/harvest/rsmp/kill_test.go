package rsmp

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// TestSyncChild is the sync that TestSyncSurvivesKill runs in a process of
// its own, and kills.
func TestSyncChild(t *testing.T) {
	harvesttest.Child(t, decoders, noon, scope, func(service string) harvest.Source {
		return New(Config{Passport: service, Fetch: quick, DownloadTimeout: downloadTimeout}, nil)
	})
}

func TestSyncSurvivesKill(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		reached := make(chan struct{})
		zipped := release(t, day(2026, 7, 10), orgJuly)
		// The download stops half way, and the sync is killed there.
		s.Inject(fault(files[2], func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Content-Length", "100000")
			w.Write(zipped[:len(zipped)/2])
			w.(http.Flusher).Flush()
			close(reached)
			<-req.Context().Done()
		}))
		harvesttest.Kill(t, "TestSyncChild", r, s.URL(), reached)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
		if n := s.Served(files[2]); n != 1 {
			t.Errorf("the release was served whole %d times, want once", n)
		}
		if n := r.Asked(t, scope, source(s), s.Requests); n != 1 {
			t.Errorf("a run after the release was loaded sent %d requests, want 1: meta.csv", n)
		}
	})
}

// dyingLog is a sync log whose process dies, as far as the sync can tell,
// when it is to record the release loaded: after its import.
type dyingLog struct{ tenderbase.SyncLog }

func (l dyingLog) SetCheckpoint(ctx context.Context, c tenderbase.Checkpoint) error {
	if c.Partition == loaded {
		return errors.New("killed")
	}
	return l.SyncLog.SetCheckpoint(ctx, c)
}

func TestSyncKilledBetweenImportAndCheckpoint(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := published(t)
		r.Runner.Log = dyingLog{r.Store}
		r.RunFails(t, scope, source(s), "killed")
		r.Runner.Log = r.Store
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		// The release imported and not recorded is imported again: its
		// subjects, stored already, are unchanged.
		checkOrgs(t, r, day(2026, 7, 10), orgJuly, entrepreneur)
		r.CheckRecords(t, map[tenderbase.Kind][]string{tenderbase.KindOrg: {entrepreneur, orgJuly}})
		if n := s.Served(files[2]); n != 2 {
			t.Errorf("the release was downloaded %d times, want twice", n)
		}
		if st := r.State(t); st.Files != 2 || st.Inserted != 2 || st.Partitions != 1 {
			t.Errorf("state %+v, want 2 files read, 2 subjects stored, 1 release loaded", st)
		}
	})
}
